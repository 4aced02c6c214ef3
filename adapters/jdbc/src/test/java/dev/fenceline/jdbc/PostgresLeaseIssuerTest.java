package dev.fenceline.jdbc;

class PostgresLeaseIssuerTest extends JdbcLeaseIssuerContractTest {

  @Override
  TestDatabase database() {
    return PostgresDatabase.shared();
  }
}
