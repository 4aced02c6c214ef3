package dev.fenceline.jdbc;

/** The destination suite on a database whose sessions default to REPEATABLE READ. */
class PostgresRepeatableReadDestinationTest extends JdbcDestinationContractTest {

  @Override
  TestDatabase database() {
    return PostgresIsolation.repeatableRead();
  }
}
