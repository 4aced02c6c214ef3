package dev.fenceline.jdbc;

/** The lease-issuer suite on a database whose sessions default to SERIALIZABLE. */
class PostgresSerializableLeaseIssuerTest extends JdbcLeaseIssuerContractTest {

  @Override
  TestDatabase database() {
    return PostgresIsolation.serializable();
  }
}
