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

import dev.fenceline.spi.ConfigurationException;
import dev.fenceline.spi.UnsafeStoreException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Collections;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.WeakHashMap;

/**
 * Whether a database is safe to decide ownership on, per dialect: PostgreSQL must be a primary
 * (R5), commits must survive a crash (R1), and standbys that are not synchronous are warned about.
 * The open checks run on the store's first connection ({@link Transactions#open}); SQLite's
 * durability is checked on every connection, a PostgreSQL session once per physical connection.
 * What cannot be kept is refused with {@link UnsafeStoreException}, unless the builder's {@code
 * unsafeAllowEpochRollbackOnCrash} accepted a durability risk (then logged).
 */
final class SafetyChecks {

  /** The store's logger: operators filter its warnings under the store's name. */
  private static final System.Logger LOG = System.getLogger(JdbcStore.class.getName());

  private final String description;
  private final boolean unsafeAllowEpochRollbackOnCrash;

  /**
   * PostgreSQL: the physical connections whose session settings were checked (weakly held, by the
   * driver's connection object, so a pool's connections are checked once each).
   */
  private final Set<Connection> checkedConnections =
      Collections.synchronizedSet(Collections.newSetFromMap(new WeakHashMap<>()));

  /**
   * PostgreSQL: per physical connection checked by {@link #checkPostgresSession}, its session's
   * {@code lock_timeout} and {@code statement_timeout} in milliseconds (0: none).
   */
  private static final String SESSION_TIMEOUTS =
      "(SELECT setting FROM pg_settings WHERE name = 'lock_timeout'),"
          + " (SELECT setting FROM pg_settings WHERE name = 'statement_timeout')";

  private final Map<Connection, long[]> sessionTimeouts =
      Collections.synchronizedMap(new WeakHashMap<>());

  private volatile Optional<String> replicationWarning = Optional.empty();

  /**
   * @param description the database, as shown in messages (no credentials)
   * @param unsafeAllowEpochRollbackOnCrash log a durability risk instead of refusing it
   */
  SafetyChecks(String description, boolean unsafeAllowEpochRollbackOnCrash) {
    this.description = description;
    this.unsafeAllowEpochRollbackOnCrash = unsafeAllowEpochRollbackOnCrash;
  }

  /** The replication warning logged when the store opened (PostgreSQL), for tests. */
  Optional<String> replicationWarning() {
    return replicationWarning;
  }

  /**
   * SQLite, at open: refuses an in-memory or temporary database, which every connection sees as a
   * new, empty one.
   */
  void refuseInMemorySqlite(Connection connection) throws SQLException {
    String file =
        queryString(connection, "SELECT file FROM pragma_database_list WHERE name = 'main'");
    if (file == null || file.isEmpty()) {
      throw new ConfigurationException(
          "Cannot open "
              + description
              + ": it is an in-memory or temporary SQLite database, which every connection sees"
              + " as a new, empty database, and the store opens a connection per call"
              + " (point the URL at a file, e.g. jdbc:sqlite:/var/lib/fenceline/fenceline.db)");
    }
  }

  /**
   * The columns that read a SQLite connection's durability settings ({@code synchronous}, {@code
   * journal_mode}), for a step to fold into a statement it sends anyway and pass to {@link
   * #checkSqliteDurability(String, String)}.
   */
  static final String SQLITE_DURABILITY_COLUMNS =
      "(SELECT synchronous FROM pragma_synchronous), (SELECT journal_mode FROM pragma_journal_mode)";

  /**
   * SQLite: {@code synchronous} at least FULL, a journal on disk, read by one statement of its own
   * (at open, and in transactions whose statements do not read them already).
   */
  void checkSqliteDurability(Connection connection) throws SQLException {
    String[] row = firstRow(connection, "SELECT " + SQLITE_DURABILITY_COLUMNS, 2);
    checkSqliteDurability(row[0], row[1]);
  }

  /**
   * SQLite: refuses (or warns, if the risk was accepted) a connection whose {@code synchronous}
   * ({@code 0} to {@code 3}) is below FULL or whose journal is off or in memory, as read by {@link
   * #SQLITE_DURABILITY_COLUMNS} in the step's own transaction, before it commits anything. Every
   * writing step checks its connection so: a pool's connection may have been changed by other code
   * since it was last handed to the store.
   */
  void checkSqliteDurability(String synchronous, String journalMode) {
    String journal = String.valueOf(journalMode).toLowerCase(Locale.ROOT);
    // 0 = OFF, 1 = NORMAL, 2 = FULL, 3 = EXTRA. NORMAL in WAL mode can lose the last commits on
    // power loss, which would hand the same epochs out again.
    boolean unsafeSync = Integer.parseInt(synchronous) < 2;
    boolean unsafeJournal = journal.equals("off") || journal.equals("memory");
    if (unsafeSync || unsafeJournal) {
      String problem =
          unsafeSync
              ? "PRAGMA synchronous is " + synchronous + " (below FULL = 2)"
              : "PRAGMA journal_mode is " + journal;
      refuseOrWarn(
          "Cannot use SQLite database "
              + description
              + ": "
              + problem
              + ", so a crash can lose epochs already handed out and the issuer would hand the"
              + " same numbers out again (remove the setting, or set synchronous=FULL; to accept"
              + " the risk call unsafeAllowEpochRollbackOnCrash(true))");
    }
  }

  /**
   * PostgreSQL, at open: the server is a primary and commits durably (this connection then counts
   * as checked), and a failover would not lose acknowledged commits (warned only).
   */
  void checkPostgresAtOpen(Connection connection) throws SQLException {
    checkPostgresIsPrimary(connection);
    checkPostgresDurability(connection);
    String[] timeouts = firstRow(connection, "SELECT " + SESSION_TIMEOUTS, 2);
    sessionTimeouts.put(
        physical(connection), new long[] {millis(timeouts[0]), millis(timeouts[1])});
    checkedConnections.add(physical(connection));
    replicationWarning = checkPostgresReplication(connection);
  }

  private void checkPostgresIsPrimary(Connection connection) throws SQLException {
    String inRecovery = queryString(connection, "SELECT pg_is_in_recovery()");
    if ("t".equalsIgnoreCase(inRecovery) || "true".equalsIgnoreCase(inRecovery)) {
      throw new UnsafeStoreException(
          "Cannot use PostgreSQL at "
              + description
              + ": the server is in recovery (a standby, pg_is_in_recovery() = true) and may be"
              + " behind the primary; epochs must be registered and checked on the primary (R5)"
              + " (point the URL at the primary)");
    }
  }

  private void checkPostgresDurability(Connection connection) throws SQLException {
    String fsync = queryString(connection, "SHOW fsync");
    String synchronousCommit = queryString(connection, "SHOW synchronous_commit");
    if ("off".equalsIgnoreCase(fsync) || "off".equalsIgnoreCase(synchronousCommit)) {
      refuseOrWarn(
          "Cannot use PostgreSQL at "
              + description
              + ": fsync = "
              + fsync
              + " and synchronous_commit = "
              + synchronousCommit
              + ", so a crash can lose epochs already handed out and the issuer would hand the"
              + " same numbers out again (set both to on in postgresql.conf; to accept the risk"
              + " call unsafeAllowEpochRollbackOnCrash(true))");
    }
  }

  /**
   * PostgreSQL, once per physical connection (a pool's connections are checked once each; a
   * connection per step is checked every step, one round trip): the server behind it is a primary
   * and its session commits durably. A session can differ from the one checked when the store
   * opened: {@code synchronous_commit} set per role, per database, in the URL's {@code options} or
   * by a pool's connection init SQL, or a multi-host URL that reached another server. A session
   * changed later on a connection already checked (a {@code SET} by other code sharing the pool) is
   * not seen.
   */
  void checkPostgresSession(String action, Connection connection) throws SQLException {
    Connection physical = physical(connection);
    if (checkedConnections.contains(physical)) {
      return;
    }
    String[] row =
        firstRow(
            connection,
            "SELECT pg_is_in_recovery(), current_setting('fsync'),"
                + " current_setting('synchronous_commit'), "
                + SESSION_TIMEOUTS,
            5);
    String inRecovery = row[0];
    String fsync = row[1];
    String synchronousCommit = row[2];
    sessionTimeouts.put(physical, new long[] {millis(row[3]), millis(row[4])});
    if ("t".equalsIgnoreCase(inRecovery) || "true".equalsIgnoreCase(inRecovery)) {
      throw new UnsafeStoreException(
          "Cannot "
              + action
              + ": a connection to PostgreSQL at "
              + description
              + " reached a server in recovery (a standby, pg_is_in_recovery() = true), which may"
              + " be behind the primary; epochs must be registered and checked on the primary (R5)"
              + " (point the URL or the pool at the primary only)");
    }
    boolean unsafe = "off".equalsIgnoreCase(fsync) || "off".equalsIgnoreCase(synchronousCommit);
    if (unsafe && !unsafeAllowEpochRollbackOnCrash) {
      // Allowed, the risk was accepted and logged when the store opened: not logged per session.
      throw new UnsafeStoreException(
          "Cannot "
              + action
              + ": a connection to PostgreSQL at "
              + description
              + " has fsync = "
              + fsync
              + " and synchronous_commit = "
              + synchronousCommit
              + ", so a crash can lose epochs already handed out and the issuer would hand the"
              + " same numbers out again (set both to on, and remove any setting of"
              + " synchronous_commit per role, per database, in the URL's options or in the pool's"
              + " connection init SQL; to accept the risk call"
              + " unsafeAllowEpochRollbackOnCrash(true))");
    }
    checkedConnections.add(physical);
  }

  /**
   * PostgreSQL: true if the session of {@code connection}, as checked once per physical connection
   * ({@link #checkPostgresSession}), has exactly {@code lockTimeout} and {@code statementTimeout}
   * (null: the store does not set one) as its own {@code lock_timeout} and {@code
   * statement_timeout}, for instance from the pool's {@code options}; then a one-statement step
   * needs no {@code SET LOCAL} of its own. A {@code SET} by other code on a connection already
   * checked is not seen (as for the checks above).
   */
  boolean sessionHasTimeouts(
      Connection connection, Duration lockTimeout, Duration statementTimeout) {
    long[] timeouts = sessionTimeouts.get(physical(connection));
    return timeouts != null
        && timeouts[0] == lockTimeout.toMillis()
        && (statementTimeout == null || timeouts[1] == statementTimeout.toMillis());
  }

  /** A duration setting of {@code pg_settings} in milliseconds, or -1 if it is no number. */
  private static long millis(String setting) {
    try {
      return Long.parseLong(setting);
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  /**
   * The driver's connection behind a pool's or wrapper's proxy (a new proxy per checkout), or
   * {@code connection} itself if it is no wrapper.
   */
  private static Connection physical(Connection connection) {
    try {
      if (connection.isWrapperFor(Connection.class)) {
        Connection inner = connection.unwrap(Connection.class);
        if (inner != null) {
          return inner;
        }
      }
    } catch (SQLException e) {
      // not unwrappable: checked as itself, every time it is handed out
    }
    return connection;
  }

  /**
   * Warns if a failover could lose commits this primary acknowledged (standbys that are not
   * synchronous). Advisory: a failure to read the replication state is logged, not thrown.
   */
  private Optional<String> checkPostgresReplication(Connection connection) {
    Optional<String> warning;
    try {
      warning = ReplicationCheck.read(connection).warning(description);
    } catch (SQLException e) {
      LOG.log(
          System.Logger.Level.WARNING,
          "Cannot check the replication of PostgreSQL at "
              + description
              + ": "
              + e.getMessage()
              + " (the store opens anyway; check that synchronous_standby_names lists every"
              + " standby a failover may promote)");
      return Optional.empty();
    }
    warning.ifPresent(message -> LOG.log(System.Logger.Level.WARNING, message));
    return warning;
  }

  private void refuseOrWarn(String message) {
    if (!unsafeAllowEpochRollbackOnCrash) {
      throw new UnsafeStoreException(message);
    }
    LOG.log(
        System.Logger.Level.WARNING,
        "UNSAFE, allowed by unsafeAllowEpochRollbackOnCrash: " + message);
  }

  /** The first column of the single row {@code sql} answers: a setting, a pragma. */
  static String queryString(Connection connection, String sql) throws SQLException {
    return firstRow(connection, sql, 1)[0];
  }

  /** The first {@code columns} columns of the first row {@code sql} answers, as text. */
  private static String[] firstRow(Connection connection, String sql, int columns)
      throws SQLException {
    try (Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery(sql)) {
      rows.next();
      String[] values = new String[columns];
      for (int column = 1; column <= columns; column++) {
        values[column - 1] = rows.getString(column);
      }
      return values;
    }
  }
}
