package dev.fenceline.jdbc;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * A real database for the JDBC adapter's tests: SQLite in a temporary file, or embedded PostgreSQL.
 */
public interface TestDatabase {

  /** Opens a new store on the database. */
  default JdbcStore openStore() {
    return storeBuilder().build();
  }

  /** A store builder with this database's connection settings. */
  JdbcStore.Builder storeBuilder();

  /** A raw connection for checks outside Fenceline. */
  Connection connect() throws SQLException;

  /** Stops the database and starts it again on the same data. */
  void restart();
}
