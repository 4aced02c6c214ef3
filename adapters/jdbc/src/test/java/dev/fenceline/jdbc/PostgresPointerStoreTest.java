package dev.fenceline.jdbc;

class PostgresPointerStoreTest extends JdbcPointerStoreContractTest {

  @Override
  TestDatabase database() {
    return PostgresDatabase.shared();
  }
}
