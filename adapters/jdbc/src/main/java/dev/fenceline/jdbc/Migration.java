/*
 * Copyright 2026 the Fenceline authors
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
package dev.fenceline.jdbc;

import dev.fenceline.jdbc.Transactions.Finish;
import dev.fenceline.spi.ConfigurationException;
import java.net.SocketTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;

/**
 * Fenceline's tables when a store opens: what is there, read without a transaction (no write lock,
 * no DDL), and their creation or migration ({@link Schema#migrate}) in one transaction bounded by
 * the migration timeout instead of the step timeouts.
 */
final class Migration {

  /**
   * How much longer than the migration timeout the migration's connection waits for an answer, so
   * the server's cancellation at the statement timeout is answered before the client gives up.
   */
  private static final Duration MIGRATION_ANSWER_MARGIN = Duration.ofSeconds(10);

  /** The SQLSTATE of a migration ended by the migration timeout (no step timeout's hint). */
  private static final String MIGRATION_TIMED_OUT_STATE = "FL002";

  private Migration() {}

  /**
   * Fenceline's tables as a store found them when it opened.
   *
   * @param version the schema version found (0 without tables or rows)
   * @param id the issuer identity if the tables are at this build's version (after a migration,
   *     always), else null
   */
  record Found(int version, String id) {

    /**
     * What opening the store for writing would still do to the database, each a phrase that follows
     * "would"; empty if the tables are there at this build's version.
     *
     * @param sqliteFile the SQLite file, if known (a missing one would be created too)
     */
    List<String> wouldChange(Path sqliteFile) {
      if (id != null) {
        return List.of();
      }
      if (version == 0) {
        return List.of(
            (sqliteFile != null && !Files.exists(sqliteFile)
                    ? "create SQLite database " + sqliteFile + " and "
                    : "create ")
                + "Fenceline's tables (schema v"
                + Schema.VERSION
                + ")");
      }
      return List.of("migrate Fenceline's schema from v" + version + " to v" + Schema.VERSION);
    }
  }

  /**
   * What a store opening finds, and for writing ({@code readOnly} false) makes: the tables at this
   * build's version, created or migrated ({@link #run}) unless a SQLite database has them already.
   *
   * @throws ConfigurationException if the schema is newer than this build understands
   */
  static Found open(Transactions transactions, boolean readOnly, Duration migrationTimeout) {
    Dialect dialect = transactions.dialect();
    // PostgreSQL migrates under an advisory lock, not the write lock: no read first (one round
    // trip).
    Found found = readOnly || dialect == Dialect.SQLITE ? found(transactions) : new Found(0, null);
    if (readOnly) {
      return found;
    }
    if (found.id() != null && dialect == Dialect.SQLITE) {
      // Tables of this version are there: no transaction, so no wait for the write lock.
      return found;
    }
    return new Found(found.version(), run(transactions, migrationTimeout));
  }

  /**
   * The schema version and, if Fenceline's tables are there at this build's schema version, the
   * issuer identity, read without a transaction (no write lock, no DDL).
   *
   * @throws ConfigurationException if the schema is newer than this build understands
   */
  private static Found found(Transactions transactions) {
    return transactions.read(
        "read Fenceline's tables",
        connection -> {
          try (ResultSet tables =
              connection.getMetaData().getTables(null, null, "fenceline_schema", null)) {
            if (!tables.next()) {
              return new Found(0, null);
            }
          }
          int version;
          try (Statement statement = connection.createStatement();
              ResultSet rows = statement.executeQuery(Schema.CURRENT_VERSION)) {
            version = rows.next() ? rows.getInt(1) : 0;
          }
          if (version > Schema.VERSION) {
            throw new ConfigurationException(
                "Cannot use this database: its Fenceline schema is version "
                    + version
                    + ", newer than version "
                    + Schema.VERSION
                    + " that this Fenceline understands (upgrade Fenceline)");
          }
          if (version != Schema.VERSION) {
            return new Found(version, null);
          }
          try (Statement statement = connection.createStatement();
              ResultSet rows = statement.executeQuery("SELECT id FROM fenceline_issuer")) {
            return new Found(version, rows.next() ? rows.getString(1) : null);
          }
        });
  }

  /**
   * Creates or migrates Fenceline's tables ({@link Schema#migrate}) in one transaction bounded by
   * the migration timeout instead of the step timeouts, and returns the issuer identity: a
   * migration can build an index over every receipt, and a store open is not a step under a lease.
   * PostgreSQL: the transaction's {@code lock_timeout} and {@code statement_timeout} are the
   * migration timeout, and the connection's network timeout (pgjdbc's socket timeout for that
   * connection) is the migration timeout plus {@link #MIGRATION_ANSWER_MARGIN} until the
   * migration's statements are done; the commit runs under the connection's own network timeout
   * again. SQLite: not bounded (the migration runs in the process); its wait for another process's
   * write lock stays the lock timeout, so an open never hangs behind a stuck writer.
   */
  private static String run(Transactions transactions, Duration migrationTimeout) {
    String action = "create or migrate Fenceline's tables";
    Dialect dialect = transactions.dialect();
    // A fenced transaction: the migration's first statement sets the timeouts itself.
    return transactions.inFencedTransaction(
        action,
        connection -> {
          if (dialect != Dialect.POSTGRESQL) {
            transactions.checkSqliteDurability(connection);
            return Finish.of(Schema.migrate(connection, dialect));
          }
          int networkTimeout = connection.getNetworkTimeout();
          connection.setNetworkTimeout(
              Runnable::run, Transactions.millis(migrationTimeout.plus(MIGRATION_ANSWER_MARGIN)));
          String id;
          try {
            try (PreparedStatement statement =
                connection.prepareStatement(
                    transactions.firstStatement(
                        "SELECT set_config('lock_timeout', ?, true),"
                            + " set_config('statement_timeout', ?, true)"))) {
              statement.setString(1, migrationTimeout.toMillis() + "ms");
              statement.setString(2, migrationTimeout.toMillis() + "ms");
              Transactions.rows(statement).close();
            }
            id = Schema.migrate(connection, dialect);
          } catch (SQLException | RuntimeException e) {
            try {
              connection.setNetworkTimeout(Runnable::run, networkTimeout);
            } catch (SQLException restore) {
              e.addSuppressed(restore);
            }
            if (e instanceof SQLException sql && migrationTimedOut(sql)) {
              throw timedOut(sql, migrationTimeout);
            }
            throw e;
          }
          connection.setNetworkTimeout(Runnable::run, networkTimeout);
          return Finish.of(id);
        });
  }

  /** Not the step timeouts' hints ({@link Transactions}): names the bound that ended it. */
  private static SQLException timedOut(SQLException sql, Duration migrationTimeout) {
    SQLException timedOut =
        new SQLException(
            sql.getMessage()
                + "; the migration did not finish within the migration timeout of "
                + migrationTimeout
                + " (lock waits included; raise the migration timeout, e.g. migration"
                + "-timeout: 30m)",
            MIGRATION_TIMED_OUT_STATE);
    timedOut.addSuppressed(sql);
    return timedOut;
  }

  private static boolean migrationTimedOut(SQLException e) {
    String state = String.valueOf(e.getSQLState());
    return state.equals("57014")
        || state.equals("55P03")
        || FailureClassifier.causedBy(e, SocketTimeoutException.class);
  }
}
