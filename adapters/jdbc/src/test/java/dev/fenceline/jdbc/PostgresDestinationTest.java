package dev.fenceline.jdbc;

class PostgresDestinationTest extends JdbcDestinationContractTest {

  @Override
  TestDatabase database() {
    return PostgresDatabase.shared();
  }
}
