package dev.fenceline.jdbc;

import dev.fenceline.spi.ConfigurationException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * Fenceline's tables, the same SQL on SQLite and PostgreSQL. Times are milliseconds since 1970 by
 * the database's clock. A DBA who creates them by hand runs {@link #TABLES} and inserts version
 * {@value #VERSION} into {@code fenceline_schema}.
 */
final class Schema {

  /** The schema version this code creates and understands. */
  static final int VERSION = 1;

  /** The DDL of version {@value #VERSION}. */
  static final List<String> TABLES =
      List.of(
          "CREATE TABLE IF NOT EXISTS fenceline_schema (version INTEGER NOT NULL)",
          // The issuer: the newest epoch handed out per resource, and its lease.
          "CREATE TABLE IF NOT EXISTS fenceline_lease ("
              + " resource VARCHAR(200) PRIMARY KEY,"
              + " epoch BIGINT NOT NULL,"
              + " holder VARCHAR(200),"
              + " expires_at_ms BIGINT NOT NULL)",
          // The destination's control row: the newest epoch registered per resource.
          "CREATE TABLE IF NOT EXISTS fenceline_resource ("
              + " resource VARCHAR(200) PRIMARY KEY,"
              + " epoch BIGINT NOT NULL)",
          // Applied operations and their receipts, replayed on retries.
          "CREATE TABLE IF NOT EXISTS fenceline_operation ("
              + " resource VARCHAR(200) NOT NULL,"
              + " operation VARCHAR(200) NOT NULL,"
              + " epoch BIGINT NOT NULL,"
              + " recorded_at_ms BIGINT NOT NULL,"
              + " attributes TEXT NOT NULL,"
              + " PRIMARY KEY (resource, operation))",
          // Every swap of the publish pointer (or published value) per resource; the row with the
          // highest version is the current pointer, older rows are the history.
          "CREATE TABLE IF NOT EXISTS fenceline_pointer ("
              + " resource VARCHAR(200) NOT NULL,"
              + " version BIGINT NOT NULL,"
              + " target TEXT NOT NULL,"
              + " attributes TEXT NOT NULL,"
              + " epoch BIGINT NOT NULL,"
              + " operation VARCHAR(200) NOT NULL,"
              + " PRIMARY KEY (resource, version))");

  private Schema() {}

  /** Creates missing tables, inside the caller's transaction. */
  static Void migrate(Connection connection, Dialect dialect) throws SQLException {
    try (Statement statement = connection.createStatement()) {
      if (dialect == Dialect.POSTGRESQL) {
        // Concurrent first starts would race on CREATE TABLE IF NOT EXISTS; serialize them.
        statement.execute("SELECT pg_advisory_xact_lock(7438170203)");
      }
      for (String ddl : TABLES) {
        statement.execute(ddl);
      }
      Integer stored = null;
      try (ResultSet rows = statement.executeQuery("SELECT MAX(version) FROM fenceline_schema")) {
        if (rows.next()) {
          int version = rows.getInt(1);
          stored = rows.wasNull() ? null : version;
        }
      }
      if (stored == null) {
        statement.execute("INSERT INTO fenceline_schema (version) VALUES (" + VERSION + ")");
      } else if (stored > VERSION) {
        throw new ConfigurationException(
            "Cannot use this database: its Fenceline schema is version "
                + stored
                + ", newer than version "
                + VERSION
                + " that this Fenceline understands (upgrade Fenceline)");
      }
    }
    return null;
  }
}
