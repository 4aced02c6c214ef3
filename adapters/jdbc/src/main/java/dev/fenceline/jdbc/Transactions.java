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

import static java.util.Objects.requireNonNull;

import dev.fenceline.spi.StoreException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import org.sqlite.SQLiteConnection;

/**
 * How every step of a {@link JdbcStore} reaches the database: a connection per call, configured and
 * checked ({@link SafetyChecks}) before use; a transaction begun, committed or rolled back the same
 * way on every path; the statement prefix that puts a PostgreSQL transaction at READ COMMITTED
 * under the statement timeout in the round trip of its first statement; and a {@link
 * StoreException} for every failure that says whether the step may have committed ({@link
 * StoreException#outcomeUnknown()}). The store's lease issuer, destinations, pointer and intent
 * stores and its pruning run their steps through it. Thread-safe.
 */
final class Transactions {

  /** The store's logger: operators filter its warnings under the store's name. */
  private static final System.Logger LOG = System.getLogger(JdbcStore.class.getName());

  private static final String READ_COMMITTED = "SET TRANSACTION ISOLATION LEVEL READ COMMITTED; ";

  /** Opens connections; the caller closes them. */
  @FunctionalInterface
  interface ConnectionSource {
    Connection open() throws SQLException;
  }

  /** Work inside one transaction. */
  @FunctionalInterface
  interface TransactionWork<T> {
    T run(Connection connection) throws SQLException;
  }

  /**
   * Work inside one fenced transaction: its first statement is {@link FencedWrite}'s control-row
   * step, which sets the transaction's timeouts itself, and it may leave its last statement to be
   * sent together with the commit.
   */
  @FunctionalInterface
  interface FencedWork<T> {
    Finish<T> run(Connection connection) throws SQLException;
  }

  /** Binds the parameters of a prepared statement. */
  @FunctionalInterface
  interface Binder {
    void bind(PreparedStatement statement) throws SQLException;
  }

  /**
   * The result of {@link FencedWork}, and optionally the transaction's last statement ({@code
   * lastSql} with {@code binder}): on PostgreSQL it goes to the server together with the {@code
   * COMMIT}, in one round trip.
   */
  record Finish<T>(T value, String lastSql, Binder binder) {
    static <T> Finish<T> of(T value) {
      return new Finish<>(value, null, null);
    }

    static <T> Finish<T> then(T value, String lastSql, Binder binder) {
      return new Finish<>(value, requireNonNull(lastSql), requireNonNull(binder));
    }
  }

  /**
   * What the transactions take from the store's configuration.
   *
   * @param description the database, as shown in messages (no credentials)
   * @param lockTimeout SQLite's {@code busy_timeout}, PostgreSQL's {@code lock_timeout}
   * @param statementTimeout PostgreSQL's {@code statement_timeout}, or null if the URL sets its own
   * @param socketTimeout the socket timeout in force, or null if the store does not know it
   * @param unreachableHint what to check when no connection can be opened
   * @param sqliteFile the SQLite file, if known (for the lock-wait notice)
   */
  record Settings(
      String description,
      Duration lockTimeout,
      Duration statementTimeout,
      Duration socketTimeout,
      String unreachableHint,
      Path sqliteFile) {

    /** What a SQLite lock wait is for, as the notice says it. */
    String waitedFor() {
      return "the SQLite write lock on "
          + (sqliteFile == null ? description : sqliteFile.toString())
          + " (held by another connection or process; lock-timeout "
          + LockWaitNotice.format(lockTimeout)
          + ")";
    }
  }

  private final ConnectionSource connections;
  private final Settings settings;
  private final String description;
  private final Duration lockTimeout;
  private final Duration statementTimeout;
  private final SafetyChecks checks;
  private final FailureClassifier classifier;
  private final Dialect dialect;
  private final String firstStatementPrefix;
  private final String lockTimeoutPrefix;
  private final boolean readCommittedByDefault;
  private volatile boolean closed;

  private Transactions(
      ConnectionSource connections,
      Settings settings,
      SafetyChecks checks,
      Dialect dialect,
      boolean readCommittedByDefault) {
    this.connections = connections;
    this.settings = settings;
    this.description = settings.description();
    this.lockTimeout = settings.lockTimeout();
    this.statementTimeout = settings.statementTimeout();
    this.checks = checks;
    this.dialect = dialect;
    this.classifier = new FailureClassifier(settings, dialect);
    this.readCommittedByDefault = readCommittedByDefault;
    this.firstStatementPrefix =
        dialect == Dialect.POSTGRESQL
            ? firstStatementPrefix(readCommittedByDefault, statementTimeout)
            : "";
    this.lockTimeoutPrefix = "SET LOCAL lock_timeout = '" + lockTimeout.toMillis() + "ms'; ";
  }

  /**
   * Opens the store's first connection: finds the dialect, runs the checks at open ({@link
   * SafetyChecks}), reads PostgreSQL's default isolation (for {@link #firstStatementPrefix}) and
   * switches a SQLite file that is not opened {@code readOnly} to WAL mode.
   *
   * @throws StoreException if the database cannot be reached or fails
   * @throws dev.fenceline.spi.UnsafeStoreException if it is not safe to decide ownership on
   * @throws dev.fenceline.spi.ConfigurationException if it is no file-backed SQLite or PostgreSQL
   */
  static Transactions open(
      ConnectionSource connections, Settings settings, SafetyChecks checks, boolean readOnly) {
    Connection connection = null;
    Dialect dialect;
    boolean readCommittedByDefault = true;
    try {
      connection = connections.open();
      dialect = Dialect.of(connection, settings.description());
      if (dialect == Dialect.SQLITE) {
        // busy_timeout first: every statement below may meet another process's lock.
        setBusyTimeout(connection, settings.lockTimeout());
        checks.refuseInMemorySqlite(connection);
      }
      configure(connection, dialect, settings.lockTimeout());
      if (dialect == Dialect.SQLITE) {
        checks.checkSqliteDurability(connection);
      }
      if (dialect == Dialect.POSTGRESQL) {
        checks.checkPostgresAtOpen(connection);
        readCommittedByDefault =
            "read committed"
                .equalsIgnoreCase(
                    SafetyChecks.queryString(connection, "SHOW default_transaction_isolation"));
      } else if (!readOnly) {
        enableWal(connection, settings);
      }
    } catch (SQLException e) {
      throw openFailure(settings, e);
    } finally {
      if (connection != null) {
        closeAfter(settings.description(), "open " + settings.description(), connection);
      }
    }
    return new Transactions(connections, settings, checks, dialect, readCommittedByDefault);
  }

  /**
   * The transactions of a read-only store on a SQLite file that does not exist yet: nothing is
   * opened at open (a connection would create the file).
   */
  static Transactions sqliteNotOpened(
      ConnectionSource connections, Settings settings, SafetyChecks checks) {
    return new Transactions(connections, settings, checks, Dialect.SQLITE, true);
  }

  private static StoreException openFailure(Settings settings, SQLException e) {
    boolean busy = String.valueOf(e.getMessage()).contains("SQLITE_BUSY");
    return new StoreException(
        "Cannot open "
            + settings.description()
            + ": "
            + e.getMessage()
            + " ("
            + (busy
                ? "another connection or process holds the database's lock; retry when it is"
                    + " done, or raise the lock timeout of "
                    + settings.lockTimeout()
                : settings.unreachableHint())
            + ")",
        e);
  }

  private static void enableWal(Connection connection, Settings settings) throws SQLException {
    String mode =
        LockWaitNotice.around(
            settings.waitedFor(),
            () -> SafetyChecks.queryString(connection, "PRAGMA journal_mode = WAL"));
    if (!"wal".equalsIgnoreCase(mode)) {
      LOG.log(
          System.Logger.Level.WARNING,
          "SQLite database "
              + settings.description()
              + " stays in journal mode "
              + mode
              + " (not WAL)");
    }
  }

  Dialect dialect() {
    return dialect;
  }

  /** The database, as shown in messages (no credentials). */
  String description() {
    return description;
  }

  /** Refuses every later call ({@link IllegalStateException}); calls under way finish. */
  void close() {
    closed = true;
  }

  boolean isClosed() {
    return closed;
  }

  /**
   * Runs {@code work} in one transaction and commits it. Failures before the commit roll back and
   * throw {@link StoreException} with {@code outcomeUnknown=false}; a failing commit is rolled back
   * if still possible and throws with {@code outcomeUnknown=true}. Any other exception of the work
   * itself (unchecked, or checked and thrown sneakily) rolls back and is rethrown unchanged. Once
   * the commit succeeded, nothing changes the answer: a failure to close the connection afterwards
   * is only logged. On PostgreSQL the transaction's lock and statement timeouts are set by one
   * statement before the work; on SQLite the connection's durability is checked before it.
   */
  <T> T inTransaction(String action, TransactionWork<T> work) {
    return transaction(
        action,
        true,
        connection -> {
          if (dialect == Dialect.SQLITE) {
            checks.checkSqliteDurability(connection);
          }
          T value = work.run(connection);
          return Finish.of(value);
        });
  }

  /**
   * Runs fenced {@code work} in one transaction, as {@link #inTransaction}, except that the work's
   * first statement sets the timeouts and, on SQLite, reads the connection's durability settings
   * for {@link #checkSqliteDurability(String, String)} ({@link FencedWrite}'s control-row step does
   * both), and that its {@linkplain Finish last statement}, if it names one, is sent together with
   * the {@code COMMIT} on PostgreSQL. That combined statement failing with an answer from the
   * server committed nothing (known failure); failing without one, or with one that ended the
   * connection ({@code 08} states in the exception chain, socket timeout), may have committed
   * ({@code outcomeUnknown=true}).
   */
  <T> T inFencedTransaction(String action, FencedWork<T> work) {
    return transaction(action, false, work);
  }

  private <T> T transaction(String action, boolean setTimeouts, FencedWork<T> work) {
    Connection connection = open(action);
    try {
      Finish<T> finish;
      try {
        begin(connection, setTimeouts);
        finish = work.run(connection);
      } catch (SQLException e) {
        rollbackQuietly(connection, e);
        throw classifier.failure(action, e, false);
      } catch (Throwable e) {
        // Anything else the work threw, including checked exceptions thrown sneakily: a pooled
        // connection must never go back with the transaction (SQLite: the write lock) open.
        rollbackQuietly(connection, e);
        throw e;
      }
      if (finish.lastSql() != null && dialect == Dialect.POSTGRESQL) {
        commitWith(action, connection, finish);
        return finish.value();
      }
      if (finish.lastSql() != null) {
        try (PreparedStatement last = connection.prepareStatement(finish.lastSql())) {
          finish.binder().bind(last);
          last.executeUpdate();
        } catch (SQLException e) {
          rollbackQuietly(connection, e);
          throw classifier.failure(action, e, false);
        }
      }
      try {
        commit(connection);
      } catch (SQLException e) {
        StoreException failure = classifier.failure(action, e, true);
        // A failed COMMIT can leave the transaction open (SQLite: SQLITE_BUSY); end it so a
        // pooled connection never goes back holding the database's write lock.
        rollbackQuietly(connection, failure);
        throw failure;
      }
      return finish.value();
    } finally {
      closeAfter(description, action, connection);
    }
  }

  /** PostgreSQL: the last statement and the COMMIT in one round trip. */
  private void commitWith(String action, Connection connection, Finish<?> finish) {
    try (PreparedStatement last = connection.prepareStatement(finish.lastSql() + "; COMMIT")) {
      finish.binder().bind(last);
      last.execute();
      SynchronousReplication.refuseCancelledWait(last.getWarnings());
    } catch (SQLException e) {
      StoreException failure = classifier.failure(action, e, classifier.noAnswer(e));
      rollbackQuietly(connection, failure);
      throw failure;
    }
  }

  /**
   * Runs {@code work}, which sends exactly one statement that changes data. On PostgreSQL that is a
   * whole transaction in one round trip ({@link #oneStatement}: READ COMMITTED, a server-side
   * function that sets its lock timeout first; an auto-commit statement, or wrapped with its
   * settings and {@code COMMIT}): a failure answered by the database committed nothing; one without
   * an answer, or with one that ended the connection ({@code 08} states in the exception chain,
   * socket timeout), may have ({@code outcomeUnknown=true}). On SQLite the statement runs inside
   * {@code BEGIN IMMEDIATE} ... {@code COMMIT} ({@link #inFencedTransaction}): an auto-commit
   * statement commits while it is stepped, so its errors could not tell "failed before" from
   * "failed in the commit"; this way a failing statement is rolled back (nothing committed) and a
   * failing {@code COMMIT} is an unknown outcome.
   */
  <T> T inOneStatement(String action, TransactionWork<T> work) {
    if (dialect == Dialect.SQLITE) {
      return inFencedTransaction(
          action,
          connection -> {
            // What the PostgreSQL statements check first: no step on a newer schema; and the
            // connection's durability, in the same statement.
            try (Statement statement = connection.createStatement();
                ResultSet rows =
                    statement.executeQuery(
                        "SELECT ("
                            + Schema.CURRENT_VERSION
                            + "), "
                            + SafetyChecks.SQLITE_DURABILITY_COLUMNS)) {
              rows.next();
              Schema.refuseNewer(rows.getInt(1));
              checks.checkSqliteDurability(rows.getString(2), rows.getString(3));
            }
            return Finish.of(work.run(connection));
          });
    }
    Connection connection = open(action);
    try {
      // PostgreSQL: the work's statement carries its settings and COMMIT (oneStatement).
      return work.run(connection);
    } catch (SQLException e) {
      StoreException failure = classifier.failure(action, e, classifier.noAnswer(e));
      rollbackQuietly(connection, failure);
      throw failure;
    } catch (Throwable e) {
      rollbackQuietly(connection, e);
      throw e;
    } finally {
      closeAfter(description, action, connection);
    }
  }

  /** Runs read-only {@code work} on an auto-commit connection. */
  <T> T read(String action, TransactionWork<T> work) {
    Connection connection = open(action);
    try {
      return work.run(connection);
    } catch (SQLException e) {
      throw classifier.failure(action, e, false);
    } finally {
      closeAfter(description, action, connection);
    }
  }

  /**
   * PostgreSQL: {@code sql} as the first statement of a transaction at READ COMMITTED, under the
   * statement timeout (see {@link #firstStatementPrefix}). Fenced steps rely on READ COMMITTED:
   * after waiting for a control row's lock they must see what the previous holder committed;
   * REPEATABLE READ or SERIALIZABLE would fail them instead.
   */
  String firstStatement(String sql) {
    return firstStatementPrefix + sql;
  }

  /**
   * PostgreSQL: {@code sql} as a whole transaction at READ COMMITTED in one round trip, for {@link
   * #inOneStatement}, under the statement timeout and the lock timeout: {@code sql} alone on an
   * auto-commit connection if the database's default isolation is READ COMMITTED and the session
   * has the store's timeouts already ({@link SafetyChecks#sessionHasTimeouts}: the pool's
   * connections are opened with them, as the store's own pools and URL connections are); otherwise
   * with {@code SET LOCAL} of the timeouts (so a pooled connection goes back with its own settings)
   * and its {@code COMMIT}, on a connection set to manual commit, so pgjdbc sends the {@code BEGIN}
   * in the same round trip. Read its rows with {@link #rows}.
   */
  String oneStatement(Connection connection, String sql) throws SQLException {
    if (readCommittedByDefault
        && checks.sessionHasTimeouts(connection, lockTimeout, statementTimeout)) {
      // The session has the store's timeouts already (the pool's options): one auto-commit
      // statement, nothing around it.
      connection.setAutoCommit(true);
      return sql;
    }
    connection.setAutoCommit(false);
    return firstStatementPrefix + lockTimeoutPrefix + sql + "; COMMIT";
  }

  /**
   * What goes before the first statement of a PostgreSQL transaction, in the same round trip:
   * {@code SET TRANSACTION ISOLATION LEVEL READ COMMITTED} unless the database's default (read when
   * the store opened) is READ COMMITTED already, and {@code SET LOCAL statement_timeout} unless the
   * URL sets its own (each Execute message starts the statement timer afresh, so the SET LOCAL
   * bounds that statement itself; a {@code set_config} inside the statement would only bound the
   * next ones). The lock timeout does not replace it: it bounds each lock wait, not the statement
   * (several waits, triggers, I/O). Empty only then, so a one-statement step is one auto-commit
   * statement.
   */
  private static String firstStatementPrefix(
      boolean readCommittedByDefault, Duration statementTimeout) {
    return (readCommittedByDefault ? "" : READ_COMMITTED)
        + (statementTimeout == null
            ? ""
            : "SET LOCAL statement_timeout = '" + statementTimeout.toMillis() + "ms'; ");
  }

  /**
   * Executes {@code statement} and returns its first result set, skipping the update counts of
   * statements sent before it ({@link #firstStatement}, {@link #oneStatement}). A statement that
   * carried its {@code COMMIT} ({@link #oneStatement}) and was answered with PostgreSQL's warning
   * that the wait for synchronous replication was cancelled throws {@link
   * SynchronousReplication.WaitCancelledException}: committed on the primary, perhaps not on the
   * standby, an unknown outcome ({@link FailureClassifier#failure}).
   */
  static ResultSet rows(PreparedStatement statement) throws SQLException {
    boolean resultSet = statement.execute();
    // pgjdbc has read every result (and notice) of the execution by now; the check is local.
    SynchronousReplication.refuseCancelledWait(statement.getWarnings());
    while (!resultSet) {
      if (statement.getUpdateCount() == -1) {
        throw new SQLException("the statement returned no rows");
      }
      resultSet = statement.getMoreResults();
    }
    return statement.getResultSet();
  }

  /**
   * The lock timeout as a PostgreSQL setting value, for statements that set it themselves ({@code
   * set_config('lock_timeout', ?, true)}).
   */
  String lockTimeoutSetting() {
    return lockTimeout.toMillis() + "ms";
  }

  /** The statement timeout as a PostgreSQL setting value, or null if the URL sets its own. */
  String statementTimeoutSetting() {
    return statementTimeout == null ? null : statementTimeout.toMillis() + "ms";
  }

  private Connection open(String action) {
    if (closed) {
      throw new IllegalStateException(
          "Cannot " + action + ": the store " + description + " is closed");
    }
    Connection connection;
    try {
      connection = connections.open();
    } catch (SQLException e) {
      throw new StoreException(
          "Cannot "
              + action
              + ": cannot connect to "
              + description
              + ": "
              + e.getMessage()
              + " ("
              + settings.unreachableHint()
              + ")",
          e);
    }
    try {
      configure(connection, dialect, lockTimeout);
      if (dialect == Dialect.POSTGRESQL) {
        checks.checkPostgresSession(action, connection);
      }
      return connection;
    } catch (SQLException | RuntimeException e) {
      closeQuietly(connection, e);
      if (e instanceof SQLException sql) {
        throw classifier.failure(action, sql, false);
      }
      throw (RuntimeException) e;
    }
  }

  /**
   * What every connection gets before use: auto-commit; SQLite: the lock wait. A SQLite
   * connection's durability settings are checked by every writing step in its own transaction
   * ({@link #checkSqliteDurability}), folded into a statement the step sends anyway where it can.
   */
  private static void configure(Connection connection, Dialect dialect, Duration lockTimeout)
      throws SQLException {
    connection.setAutoCommit(true);
    if (dialect == Dialect.SQLITE) {
      setBusyTimeout(connection, lockTimeout);
    }
  }

  /**
   * SQLite: refuses a connection that could lose commits (read by a statement of its own); for
   * transactions whose first statement does not read the settings itself ({@link
   * SafetyChecks#SQLITE_DURABILITY_COLUMNS}).
   */
  void checkSqliteDurability(Connection connection) throws SQLException {
    checks.checkSqliteDurability(connection);
  }

  /**
   * SQLite: refuses a connection whose settings, read by {@link
   * SafetyChecks#SQLITE_DURABILITY_COLUMNS} in the step's transaction, could lose commits.
   */
  void checkSqliteDurability(String synchronous, String journalMode) {
    checks.checkSqliteDurability(synchronous, journalMode);
  }

  /** SQLite: wait up to {@code timeout} for another connection's lock instead of failing. */
  private static void setBusyTimeout(Connection connection, Duration timeout) throws SQLException {
    int millis = millis(timeout);
    if (connection.isWrapperFor(SQLiteConnection.class)) {
      // The driver's call, not a statement: this runs on every connection of every step.
      connection.unwrap(SQLiteConnection.class).setBusyTimeout(millis);
      return;
    }
    try (Statement statement = connection.createStatement()) {
      statement.execute("PRAGMA busy_timeout = " + millis);
    }
  }

  private void begin(Connection connection, boolean setTimeouts) throws SQLException {
    if (dialect == Dialect.SQLITE) {
      try (Statement statement = connection.createStatement()) {
        // Takes the write lock now, so every read inside sees the latest commit (no upgrade race).
        LockWaitNotice.around(settings.waitedFor(), () -> statement.execute("BEGIN IMMEDIATE"));
      }
      return;
    }
    // pgjdbc sends BEGIN with the transaction's first statement: no round trip of its own. That
    // statement sets READ COMMITTED if the database's default is another level (firstStatement).
    connection.setAutoCommit(false);
    if (setTimeouts) {
      // Transaction-scoped (is_local), so a pooled connection goes back with its own settings.
      try (PreparedStatement statement =
          connection.prepareStatement(
              firstStatement(
                  "SELECT set_config('lock_timeout', ?, true),"
                      + " set_config('statement_timeout', COALESCE(?, current_setting("
                      + "'statement_timeout')), true)"))) {
        statement.setString(1, lockTimeoutSetting());
        statement.setString(2, statementTimeoutSetting());
        rows(statement).close();
      }
    }
  }

  private void commit(Connection connection) throws SQLException {
    if (dialect == Dialect.SQLITE) {
      try (Statement statement = connection.createStatement()) {
        statement.execute("COMMIT");
      }
    } else {
      // The COMMIT's warnings go to the connection; only this COMMIT's may count.
      connection.clearWarnings();
      connection.commit();
      SynchronousReplication.refuseCancelledWait(connection.getWarnings());
    }
  }

  private void rollbackQuietly(Connection connection, Throwable cause) {
    try {
      if (dialect == Dialect.SQLITE) {
        try (Statement statement = connection.createStatement()) {
          statement.execute("ROLLBACK");
        }
      } else if (!connection.getAutoCommit()) {
        connection.rollback();
      }
    } catch (SQLException e) {
      // No transaction may be open (BEGIN failed), or the connection is gone: the database
      // rolls back an uncommitted transaction by itself.
      cause.addSuppressed(e);
    }
  }

  private static void closeQuietly(Connection connection, Throwable cause) {
    try {
      connection.close();
    } catch (SQLException e) {
      cause.addSuppressed(e);
    }
  }

  private static void closeAfter(String description, String action, Connection connection) {
    try {
      connection.close();
    } catch (SQLException e) {
      LOG.log(
          System.Logger.Level.WARNING,
          "Cannot close the connection to " + description + " after: " + action,
          e);
    }
  }

  /** {@code duration} in milliseconds, at most {@link Integer#MAX_VALUE}. */
  static int millis(Duration duration) {
    return (int) Math.min(duration.toMillis(), Integer.MAX_VALUE);
  }
}
