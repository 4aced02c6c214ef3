package dev.fenceline.jdbc;

class PostgresIntentStoreTest extends JdbcIntentStoreContractTest {

  @Override
  TestDatabase database() {
    return PostgresDatabase.shared();
  }
}
