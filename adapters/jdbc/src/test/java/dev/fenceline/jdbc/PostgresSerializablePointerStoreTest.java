package dev.fenceline.jdbc;

/**
 * The pointer-store suite on a database whose sessions default to SERIALIZABLE (the one-statement
 * publish included).
 */
class PostgresSerializablePointerStoreTest extends JdbcPointerStoreContractTest {

  @Override
  TestDatabase database() {
    return PostgresIsolation.serializable();
  }
}
