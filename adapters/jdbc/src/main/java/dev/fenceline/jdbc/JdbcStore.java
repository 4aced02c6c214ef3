package dev.fenceline.jdbc;

import static java.util.Objects.requireNonNull;

import dev.fenceline.spi.ConfigurationException;
import dev.fenceline.spi.StepListener;
import dev.fenceline.spi.StoreException;
import dev.fenceline.spi.UnsafeStoreException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Locale;
import java.util.Properties;
import javax.sql.DataSource;

/**
 * One SQLite or PostgreSQL database that holds Fenceline's tables, and the components built on it:
 * a {@link JdbcLeaseIssuer}, {@link JdbcDestination}s and a {@link JdbcPointerStore}.
 *
 * <p>Opening the store checks that the database is safe to decide ownership on, and refuses it
 * otherwise with an {@link UnsafeStoreException}:
 *
 * <ul>
 *   <li>PostgreSQL must be a primary: a server in recovery ({@code pg_is_in_recovery()}) may be
 *       behind (R5).
 *   <li>Commits must survive a crash (R1): PostgreSQL with {@code fsync=off} or {@code
 *       synchronous_commit=off}, or SQLite with {@code synchronous} below {@code FULL} or a {@code
 *       journal_mode} of {@code OFF} or {@code MEMORY}, can lose epochs already handed out and hand
 *       the same numbers out again. {@link Builder#unsafeAllowEpochRollbackOnCrash} accepts that
 *       risk explicitly.
 * </ul>
 *
 * <p>PostgreSQL is checked once, when the store opens; SQLite's settings are per connection and are
 * checked on every connection. It then creates its tables if they are missing (schema version
 * {@value Schema#VERSION}; the SQL is in {@link Schema}). SQLite files are switched to WAL mode so
 * readers do not block the writer; several processes may share one file.
 *
 * <p>Every fenced step is one transaction: {@code BEGIN IMMEDIATE} on SQLite (the database's write
 * lock), {@code SELECT ... FOR UPDATE} on the resource's control row on PostgreSQL (READ
 * COMMITTED). Thread-safe; every call takes its own connection.
 */
public final class JdbcStore implements AutoCloseable {

  private static final System.Logger LOG = System.getLogger(JdbcStore.class.getName());

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

  private final ConnectionSource connections;
  private final String description;
  private final Duration lockTimeout;
  private final boolean unsafeAllowEpochRollbackOnCrash;
  private final Dialect dialect;
  private volatile boolean closed;

  private JdbcStore(Builder builder) {
    this.connections = builder.connections;
    this.description = builder.description;
    this.lockTimeout = builder.lockTimeout;
    this.unsafeAllowEpochRollbackOnCrash = builder.unsafeAllowEpochRollbackOnCrash;
    Connection connection = null;
    try {
      connection = connections.open();
      this.dialect = Dialect.of(connection, description);
      configure(connection);
      if (dialect == Dialect.POSTGRESQL) {
        checkPostgresIsPrimary(connection);
        checkPostgresDurability(connection);
      } else {
        enableWal(connection);
      }
    } catch (SQLException e) {
      throw new StoreException(
          "Cannot open "
              + description
              + ": "
              + e.getMessage()
              + " (check that the database is running and the URL and credentials are right)",
          e);
    } finally {
      if (connection != null) {
        closeAfter("open " + description, connection);
      }
    }
    inTransaction("create Fenceline's tables", tx -> Schema.migrate(tx, dialect));
  }

  /** Starts a configuration. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Opens a SQLite database file, creating it if missing: the embedded default.
   *
   * @param file the database file, shared by every process that fences the same resources
   */
  public static JdbcStore sqlite(java.nio.file.Path file) {
    return builder().url("jdbc:sqlite:" + file.toAbsolutePath()).build();
  }

  /** The lease issuer on this database. */
  public JdbcLeaseIssuer leaseIssuer() {
    return new JdbcLeaseIssuer(this);
  }

  /** A destination that applies {@link JdbcChange}s in this database. */
  public JdbcDestination destination() {
    return destination(StepListener.NONE);
  }

  /** A destination that reports its steps to {@code steps} (for tests and tracing). */
  public JdbcDestination destination(StepListener steps) {
    return new JdbcDestination(new FencedWrite(this, steps));
  }

  /** The pointer store ("publish a named value") on this database. */
  public JdbcPointerStore pointerStore() {
    return pointerStore(StepListener.NONE);
  }

  /** A pointer store that reports its steps to {@code steps} (for tests and tracing). */
  public JdbcPointerStore pointerStore(StepListener steps) {
    return new JdbcPointerStore(new FencedWrite(this, steps));
  }

  /** The database, as shown in messages (no credentials). */
  public String description() {
    return description;
  }

  /**
   * Marks the store closed. Connections are opened per call, so nothing else is held; a data source
   * passed in stays open (it belongs to the caller).
   */
  @Override
  public void close() {
    closed = true;
  }

  Dialect dialect() {
    return dialect;
  }

  /**
   * Runs {@code work} in one transaction and commits it. Failures before the commit roll back and
   * throw {@link StoreException} with {@code outcomeUnknown=false}; a failing commit is rolled back
   * if still possible and throws with {@code outcomeUnknown=true}. Any other exception of the work
   * itself (unchecked, or checked and thrown sneakily) rolls back and is rethrown unchanged. Once
   * the commit succeeded, nothing changes the answer: a failure to close the connection afterwards
   * is only logged.
   */
  <T> T inTransaction(String action, TransactionWork<T> work) {
    Connection connection = open(action);
    try {
      T result;
      try {
        begin(connection);
        result = work.run(connection);
      } catch (SQLException e) {
        rollbackQuietly(connection, e);
        throw failure(action, e, false);
      } catch (Throwable e) {
        // Anything else the work threw, including checked exceptions thrown sneakily: a pooled
        // connection must never go back with the transaction (SQLite: the write lock) open.
        rollbackQuietly(connection, e);
        throw e;
      }
      try {
        commit(connection);
      } catch (SQLException e) {
        StoreException failure = failure(action, e, true);
        // A failed COMMIT can leave the transaction open (SQLite: SQLITE_BUSY); end it so a
        // pooled connection never goes back holding the database's write lock.
        rollbackQuietly(connection, failure);
        throw failure;
      }
      return result;
    } finally {
      closeAfter(action, connection);
    }
  }

  private void closeAfter(String action, Connection connection) {
    try {
      connection.close();
    } catch (SQLException e) {
      LOG.log(
          System.Logger.Level.WARNING,
          "Cannot close the connection to " + description + " after: " + action,
          e);
    }
  }

  /** Runs read-only {@code work} on an auto-commit connection. */
  <T> T read(String action, TransactionWork<T> work) {
    Connection connection = open(action);
    try {
      return work.run(connection);
    } catch (SQLException e) {
      throw failure(action, e, false);
    } finally {
      closeAfter(action, connection);
    }
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
              + " (check that the database is running)",
          e);
    }
    try {
      configure(connection);
      return connection;
    } catch (SQLException | RuntimeException e) {
      closeQuietly(connection, e);
      if (e instanceof SQLException sql) {
        throw failure(action, sql, false);
      }
      throw (RuntimeException) e;
    }
  }

  private void configure(Connection connection) throws SQLException {
    connection.setAutoCommit(true);
    if (dialect == Dialect.SQLITE) {
      try (Statement statement = connection.createStatement()) {
        statement.execute("PRAGMA busy_timeout = " + lockTimeout.toMillis());
      }
      checkSqliteDurability(connection);
    }
  }

  private void begin(Connection connection) throws SQLException {
    if (dialect == Dialect.SQLITE) {
      try (Statement statement = connection.createStatement()) {
        // Takes the write lock now, so every read inside sees the latest commit (no upgrade race).
        statement.execute("BEGIN IMMEDIATE");
      }
    } else {
      connection.setAutoCommit(false);
      connection.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
      try (Statement statement = connection.createStatement()) {
        statement.execute("SET LOCAL lock_timeout = '" + lockTimeout.toMillis() + "ms'");
      }
    }
  }

  private void commit(Connection connection) throws SQLException {
    if (dialect == Dialect.SQLITE) {
      try (Statement statement = connection.createStatement()) {
        statement.execute("COMMIT");
      }
    } else {
      connection.commit();
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

  StoreException failure(String action, SQLException e, boolean outcomeUnknown) {
    String hint;
    String state = e.getSQLState() == null ? "" : e.getSQLState();
    String text = String.valueOf(e.getMessage());
    if (outcomeUnknown) {
      hint =
          "the commit may or may not have happened; look the operation up or retry it with the"
              + " same operation ID";
    } else if (text.contains("SQLITE_BUSY") || state.equals("55P03")) {
      hint =
          "another process held the lock longer than the lock timeout of "
              + lockTimeout
              + "; retry, or raise the lock timeout";
    } else if (state.startsWith("08")) {
      hint = "the connection to the database failed; nothing was committed, retrying is safe";
    } else {
      hint = "nothing was committed";
    }
    return new StoreException(
        "Cannot " + action + " at " + description + ": " + text + " (" + hint + ")",
        e,
        outcomeUnknown);
  }

  private void enableWal(Connection connection) throws SQLException {
    String mode = queryString(connection, "PRAGMA journal_mode = WAL");
    if (!"wal".equalsIgnoreCase(mode)) {
      LOG.log(
          System.Logger.Level.WARNING,
          "SQLite database " + description + " stays in journal mode " + mode + " (not WAL)");
    }
  }

  private void checkSqliteDurability(Connection connection) throws SQLException {
    String synchronous = queryString(connection, "PRAGMA synchronous");
    String journal = queryString(connection, "PRAGMA journal_mode").toLowerCase(Locale.ROOT);
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

  private void refuseOrWarn(String message) {
    if (!unsafeAllowEpochRollbackOnCrash) {
      throw new UnsafeStoreException(message);
    }
    LOG.log(
        System.Logger.Level.WARNING,
        "UNSAFE, allowed by unsafeAllowEpochRollbackOnCrash: " + message);
  }

  private static String queryString(Connection connection, String sql) throws SQLException {
    try (Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery(sql)) {
      rows.next();
      return rows.getString(1);
    }
  }

  /** Validating builder for {@link JdbcStore}. */
  public static final class Builder {
    private ConnectionSource connections;
    private String description;
    private String url;
    private final Properties properties = new Properties();
    private Duration lockTimeout = Duration.ofSeconds(30);
    private boolean unsafeAllowEpochRollbackOnCrash;

    private Builder() {}

    /**
     * Connects through {@link DriverManager} with this JDBC URL, e.g. {@code
     * jdbc:sqlite:/var/lib/fenceline/fenceline.db} or {@code
     * jdbc:postgresql://db-primary:5432/app}.
     */
    public Builder url(String url) {
      requireNonNull(url, "url is null");
      if (!url.startsWith("jdbc:sqlite:") && !url.startsWith("jdbc:postgresql:")) {
        throw new ConfigurationException(
            "Cannot use JDBC URL \""
                + withoutQuery(url)
                + "\": it must start with jdbc:sqlite: or jdbc:postgresql:"
                + " (e.g. jdbc:sqlite:fenceline.db)");
      }
      this.url = url;
      this.description = withoutQuery(url);
      this.connections = () -> DriverManager.getConnection(this.url, properties);
      return this;
    }

    /** The user name for {@link #url}. */
    public Builder user(String user) {
      properties.setProperty("user", requireNonNull(user, "user is null"));
      return this;
    }

    /** The password for {@link #url}. Never shown in messages. */
    public Builder password(String password) {
      properties.setProperty("password", requireNonNull(password, "password is null"));
      return this;
    }

    /**
     * Connects through a data source (a pool, for example). {@code description} names it in
     * messages; do not put credentials in it.
     */
    public Builder dataSource(DataSource dataSource, String description) {
      requireNonNull(dataSource, "dataSource is null");
      this.description = requireNonNull(description, "description is null");
      this.url = null;
      this.connections = dataSource::getConnection;
      return this;
    }

    /**
     * How long a step waits for another writer's lock (default 30 s): SQLite's {@code
     * busy_timeout}, PostgreSQL's {@code lock_timeout}.
     */
    public Builder lockTimeout(Duration lockTimeout) {
      requireNonNull(lockTimeout, "lockTimeout is null");
      if (lockTimeout.isNegative() || lockTimeout.isZero()) {
        throw new ConfigurationException(
            "Cannot use lock timeout " + lockTimeout + ": it must be positive (e.g. PT30S)");
      }
      this.lockTimeout = lockTimeout;
      return this;
    }

    /**
     * Accepts a database that can lose recent commits on a crash ({@code fsync=off}, {@code
     * synchronous_commit=off}, SQLite {@code synchronous} below {@code FULL}). After such a crash
     * the issuer can hand out an epoch a second time and two owners can both pass the fence. Off by
     * default; meant for throw-away test databases only.
     */
    public Builder unsafeAllowEpochRollbackOnCrash(boolean allow) {
      this.unsafeAllowEpochRollbackOnCrash = allow;
      return this;
    }

    /**
     * Connects, checks the database (see {@link JdbcStore}) and creates the tables.
     *
     * @throws ConfigurationException if no URL or data source was given
     * @throws UnsafeStoreException if the database cannot keep the guarantees
     * @throws StoreException if the database cannot be reached
     */
    public JdbcStore build() {
      if (connections == null) {
        throw new ConfigurationException(
            "Cannot open a JDBC store: no url(...) or dataSource(...) given"
                + " (e.g. url(\"jdbc:sqlite:fenceline.db\"))");
      }
      return new JdbcStore(this);
    }

    private static String withoutQuery(String url) {
      int query = url.indexOf('?');
      return query < 0 ? url : url.substring(0, query);
    }
  }
}
