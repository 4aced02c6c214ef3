package dev.fenceline.jdbc;

import static java.util.Objects.requireNonNull;

import dev.fenceline.spi.ConfigurationException;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.IntentStore;
import dev.fenceline.spi.StepListener;
import dev.fenceline.spi.StoreException;
import dev.fenceline.spi.TokenKeys;
import dev.fenceline.spi.UnsafeStoreException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.sqlite.SQLiteConnection;

/**
 * One SQLite or PostgreSQL database that holds Fenceline's tables, and the components built on it:
 * a {@link JdbcLeaseIssuer}, {@link JdbcDestination}s, {@link JdbcPointerStore}s and {@link
 * IntentStore}s.
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
 * <p>A PostgreSQL primary with standbys that are not synchronous ({@code pg_stat_replication} shows
 * {@code async} or {@code potential}, or {@code synchronous_commit} is {@code local} or {@code
 * remote_write}) is accepted with a logged warning: a failover to a standby that is behind loses
 * the newest commits, epochs included. List the standbys in {@code synchronous_standby_names} and
 * keep {@code synchronous_commit} at {@code on} or {@code remote_apply}. A commit then waits until
 * a synchronous standby has flushed it. If that wait is cancelled (a cancel request: {@code
 * pg_cancel_backend}, a client's query timeout), PostgreSQL keeps the transaction committed on the
 * primary and answers with only a WARNING; the store reports such a step as a {@link
 * StoreException} with {@link StoreException#outcomeUnknown()} true, never as success, because a
 * failover to that standby would lose it. PostgreSQL's {@code statement_timeout} does not bound
 * this wait (the server stops the timer before it commits): the socket timeout does, again with an
 * unknown outcome.
 *
 * <p>PostgreSQL is checked when the store opens, and every physical connection once more before its
 * first step (a primary, {@code fsync} and {@code synchronous_commit} not {@code off}: a session
 * can differ, for example with {@code synchronous_commit} set per role or by a pool's connection
 * init SQL); a {@code SET} on a connection already checked is not seen. SQLite's settings are per
 * connection and are checked on every connection. It then creates its tables if they are missing
 * (schema version {@value Schema#VERSION}; the SQL is in {@link Schema}). SQLite files are switched
 * to WAL mode so readers do not block the writer; several processes may share one file.
 *
 * <p>Every fenced step is one transaction: {@code BEGIN IMMEDIATE} on SQLite (the database's write
 * lock), {@code SELECT ... FOR UPDATE} on the resource's control row on PostgreSQL, at READ
 * COMMITTED (a step that waited for the lock sees what the previous holder committed; a {@link
 * JdbcChange} runs at READ COMMITTED too). If the database's default isolation, read when the store
 * opens, is another level, every transaction starts with {@code SET TRANSACTION ISOLATION LEVEL
 * READ COMMITTED} in the same round trip as its first statement. A pool whose sessions are switched
 * to another level after the store opened makes concurrent steps on one resource fail
 * (serialization or duplicate-key errors, nothing applied twice) instead of waiting, and a {@link
 * JdbcChange} that computes its writes from what it reads may then read a snapshot taken before the
 * control row's lock: keep such pools at READ COMMITTED, or open the store again. On PostgreSQL
 * each step takes as few round trips as possible: a pointer publish, a registration and every lease
 * step are one round trip (one call of a server-side function of the schema), a fenced write is the
 * change's statements plus two. Thread-safe; every call takes its own connection.
 *
 * <p>No call waits forever, and by default no call waits longer than the default lease ttl (30 s)
 * allows. Defaults, each changeable on the {@link Builder}:
 *
 * <table>
 *   <caption>timeouts</caption>
 *   <tr><th>setting</th><th>default</th><th>applies to</th></tr>
 *   <tr><td>{@link Builder#lockTimeout lock timeout}</td><td>8 s</td><td>SQLite {@code
 *       busy_timeout} on every connection; PostgreSQL {@code lock_timeout} in every
 *       transaction</td></tr>
 *   <tr><td>{@link Builder#statementTimeout statement timeout}</td><td>10 s</td><td>PostgreSQL
 *       {@code statement_timeout} in every transaction</td></tr>
 *   <tr><td>{@link Builder#connectTimeout connect timeout}</td><td>5 s</td><td>PostgreSQL
 *       {@link Builder#url url} connections (pgjdbc {@code connectTimeout})</td></tr>
 *   <tr><td>{@link Builder#loginTimeout login timeout}</td><td>8 s</td><td>PostgreSQL {@link
 *       Builder#url url} connections (pgjdbc {@code loginTimeout})</td></tr>
 *   <tr><td>{@link Builder#socketTimeout socket timeout}</td><td>12 s</td><td>PostgreSQL {@link
 *       Builder#url url} connections (pgjdbc {@code socketTimeout})</td></tr>
 *   <tr><td>{@link Builder#migrationTimeout migration timeout}</td><td>10 min</td><td>PostgreSQL:
 *       only the creation or migration of the tables when the store opens, in place of the lock,
 *       statement and socket timeouts (a store open is not a step under a lease)</td></tr>
 * </table>
 *
 * <p>A server that accepts connections and never answers therefore makes {@code build()} fail
 * within the login timeout and a step fail within the socket timeout, with a {@link
 * StoreException}: {@link StoreException#outcomeUnknown()} is false unless the commit itself got no
 * answer. One step against a server that stops answering ends within login timeout + socket timeout
 * (20 s by default: getting a connection, then the first round trip without an answer), clearly
 * inside the default lease ttl of 30 s, so a worker learns that the store is gone while its lease
 * still runs. With a shorter ttl, lower these timeouts with it: keep login timeout + socket timeout
 * below the ttl. With a {@link Builder#dataSource data source}, connecting, logging in and socket
 * reads are bounded by the data source's own settings (configure them there, e.g. pgjdbc's {@code
 * socketTimeout} and the pool's connection timeout); the lock and statement timeouts still apply,
 * set with {@code set_config(..., true)} so they end with each transaction and never change the
 * pool's sessions.
 *
 * <p>Every publish adds an operation record and every pointer swap a pointer version; nothing is
 * deleted unless a {@link Builder#retention retention} is configured and {@link #prune()} runs,
 * called by the application or {@link Builder#pruneEvery in the background}. See {@link Retention}
 * for what is kept and {@link dev.fenceline.spi.ReceiptPrunedException} for what a lookup of a
 * pruned receipt answers.
 */
public final class JdbcStore implements AutoCloseable {

  /** The default {@linkplain Builder#lockTimeout lock timeout}. */
  public static final Duration DEFAULT_LOCK_TIMEOUT = Duration.ofSeconds(8);

  /** The default {@linkplain Builder#statementTimeout statement timeout}. */
  public static final Duration DEFAULT_STATEMENT_TIMEOUT = Duration.ofSeconds(10);

  /** The default {@linkplain Builder#connectTimeout connect timeout}. */
  public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(5);

  /** The default {@linkplain Builder#loginTimeout login timeout}. */
  public static final Duration DEFAULT_LOGIN_TIMEOUT = Duration.ofSeconds(8);

  /** The default {@linkplain Builder#socketTimeout socket timeout}. */
  public static final Duration DEFAULT_SOCKET_TIMEOUT = Duration.ofSeconds(12);

  /** The default {@linkplain Builder#migrationTimeout migration timeout}. */
  public static final Duration DEFAULT_MIGRATION_TIMEOUT = Duration.ofMinutes(10);

  /**
   * How much longer than the migration timeout the migration's connection waits for an answer, so
   * the server's cancellation at the statement timeout is answered before the client gives up.
   */
  private static final Duration MIGRATION_ANSWER_MARGIN = Duration.ofSeconds(10);

  private static final System.Logger LOG = System.getLogger(JdbcStore.class.getName());
  private static final String SQLITE_PREFIX = "jdbc:sqlite:";
  private static final String POSTGRESQL_PREFIX = "jdbc:postgresql:";

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
   * The destination name that operation records of schema version 1 (before destinations had names)
   * belong to after the migration, except those that set a publish pointer.
   */
  public static final String SCHEMA_1_DESTINATION = "default";

  /**
   * The pointer store name that publish pointers of schema version 1, and the operations that set
   * them, belong to after the migration.
   */
  public static final String SCHEMA_1_POINTER_STORE = "pointers";

  private final ConnectionSource connections;
  private final String description;
  private final TokenKeys tokenKeys;
  private final String id;
  private final Duration lockTimeout;
  private final Duration statementTimeout;
  private final String firstStatementPrefix;
  private final Duration socketTimeout;
  private final String unreachableHint;
  private final boolean unsafeAllowEpochRollbackOnCrash;
  private final Dialect dialect;
  private final boolean readOnly;
  private final int schemaVersionFound;
  private final Path sqliteFile;
  private final Optional<String> replicationWarning;
  private final Retention retention;
  private final Pruning pruning;
  private final ScheduledExecutorService pruner;

  /**
   * PostgreSQL: the physical connections whose session settings were checked (weakly held, by the
   * driver's connection object, so a pool's connections are checked once each).
   */
  private final Set<Connection> checkedConnections =
      Collections.synchronizedSet(Collections.newSetFromMap(new WeakHashMap<>()));

  private volatile boolean closed;

  private JdbcStore(Builder builder, ConnectionSource connections) {
    this.connections = connections;
    this.description = builder.description;
    this.lockTimeout = builder.lockTimeout;
    this.statementTimeout = builder.statementTimeoutApplied();
    this.socketTimeout = builder.socketTimeoutApplied();
    this.unreachableHint = builder.unreachableHint();
    this.unsafeAllowEpochRollbackOnCrash = builder.unsafeAllowEpochRollbackOnCrash;
    this.tokenKeys = builder.tokenKeys;
    this.readOnly = builder.readOnly;
    this.sqliteFile = builder.sqliteFile;
    if (readOnly && sqliteFile != null && !Files.exists(sqliteFile)) {
      // Nothing to read, and opening a connection would create the file.
      this.dialect = Dialect.SQLITE;
      this.replicationWarning = Optional.empty();
      this.firstStatementPrefix = "";
      this.id = null;
      this.schemaVersionFound = 0;
      this.retention = builder.retention;
      this.pruning = null;
      this.pruner = null;
      return;
    }
    Connection connection = null;
    Optional<String> replication = Optional.empty();
    boolean readCommittedByDefault = true;
    try {
      connection = connections.open();
      this.dialect = Dialect.of(connection, description);
      if (dialect == Dialect.SQLITE) {
        // busy_timeout first: every statement below may meet another process's lock.
        waitForLocks(connection);
        refuseInMemorySqlite(connection);
      }
      configure(connection);
      if (dialect == Dialect.POSTGRESQL) {
        checkPostgresIsPrimary(connection);
        checkPostgresDurability(connection);
        checkedConnections.add(physical(connection));
        replication = checkPostgresReplication(connection);
        readCommittedByDefault =
            "read committed"
                .equalsIgnoreCase(queryString(connection, "SHOW default_transaction_isolation"));
      } else if (!readOnly) {
        enableWal(connection);
      }
    } catch (SQLException e) {
      boolean busy = String.valueOf(e.getMessage()).contains("SQLITE_BUSY");
      throw new StoreException(
          "Cannot open "
              + description
              + ": "
              + e.getMessage()
              + " ("
              + (busy
                  ? "another connection or process holds the database's lock; retry when it is"
                      + " done, or raise the lock timeout of "
                      + lockTimeout
                  : unreachableHint)
              + ")",
          e);
    } finally {
      if (connection != null) {
        closeAfter("open " + description, connection);
      }
    }
    this.replicationWarning = replication;
    this.firstStatementPrefix = firstStatementPrefix(readCommittedByDefault, statementTimeout);
    // PostgreSQL migrates under an advisory lock, not the write lock: no read first (one round
    // trip).
    SchemaFound found =
        readOnly || dialect == Dialect.SQLITE ? readSchema() : new SchemaFound(0, null);
    Optional<String> current = Optional.ofNullable(found.id());
    this.schemaVersionFound = found.version();
    if (readOnly) {
      this.id = current.orElse(null);
    } else if (current.isPresent() && dialect == Dialect.SQLITE) {
      // Tables of this version are there: no transaction, so no wait for the write lock.
      this.id = current.get();
    } else {
      this.id = migrateSchema(builder.migrationTimeout);
    }
    this.retention = builder.retention;
    this.pruning =
        new Pruning(
            this,
            builder.pruneClock == null ? Pruning.databaseClock(dialect) : builder.pruneClock,
            builder.pruneBatchSize);
    this.pruner =
        builder.pruneEvery == null || readOnly
            ? null
            : pruning.startBackground(builder.pruneEvery, builder.pruneListener);
  }

  /**
   * What {@link #readSchema()} found: the schema version (0 without tables or rows), and the issuer
   * identity if the tables are at this build's version (else null).
   */
  private record SchemaFound(int version, String id) {}

  /**
   * The schema version and, if Fenceline's tables are there at this build's schema version, the
   * issuer identity, read without a transaction (no write lock, no DDL).
   *
   * @throws ConfigurationException if the schema is newer than this build understands
   */
  private SchemaFound readSchema() {
    return read(
        "read Fenceline's tables",
        connection -> {
          try (ResultSet tables =
              connection.getMetaData().getTables(null, null, "fenceline_schema", null)) {
            if (!tables.next()) {
              return new SchemaFound(0, null);
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
            return new SchemaFound(version, null);
          }
          try (Statement statement = connection.createStatement();
              ResultSet rows = statement.executeQuery("SELECT id FROM fenceline_issuer")) {
            return new SchemaFound(version, rows.next() ? rows.getString(1) : null);
          }
        });
  }

  /**
   * Creates or migrates Fenceline's tables ({@link Schema#migrate}) in one transaction bounded by
   * the migration timeout instead of the step timeouts: a migration can build an index over every
   * receipt, and a store open is not a step under a lease. PostgreSQL: the transaction's {@code
   * lock_timeout} and {@code statement_timeout} are the migration timeout, and the connection's
   * network timeout (pgjdbc's socket timeout for that connection) is the migration timeout plus
   * {@link #MIGRATION_ANSWER_MARGIN} until the migration's statements are done; the commit runs
   * under the connection's own network timeout again. SQLite: not bounded (the migration runs in
   * the process); its wait for another process's write lock stays the lock timeout, so an open
   * never hangs behind a stuck writer.
   */
  private String migrateSchema(Duration migrationTimeout) {
    String action = "create or migrate Fenceline's tables";
    return transaction(
        action,
        false,
        connection -> {
          if (dialect != Dialect.POSTGRESQL) {
            return Finish.of(Schema.migrate(connection, dialect));
          }
          int networkTimeout = connection.getNetworkTimeout();
          connection.setNetworkTimeout(
              Runnable::run, millis(migrationTimeout.plus(MIGRATION_ANSWER_MARGIN)));
          String id;
          try {
            try (PreparedStatement statement =
                connection.prepareStatement(
                    firstStatement(
                        "SELECT set_config('lock_timeout', ?, true),"
                            + " set_config('statement_timeout', ?, true)"))) {
              statement.setString(1, migrationTimeout.toMillis() + "ms");
              statement.setString(2, migrationTimeout.toMillis() + "ms");
              rows(statement).close();
            }
            id = Schema.migrate(connection, dialect);
          } catch (SQLException | RuntimeException e) {
            try {
              connection.setNetworkTimeout(Runnable::run, networkTimeout);
            } catch (SQLException restore) {
              e.addSuppressed(restore);
            }
            if (e instanceof SQLException sql && migrationTimedOut(sql)) {
              // Not the step timeouts' hints (failure): name the bound that ended the migration.
              SQLException timedOut =
                  new SQLException(
                      sql.getMessage()
                          + "; the migration did not finish within the migration timeout of "
                          + migrationTimeout
                          + " (lock waits included; raise the migration timeout, e.g. migration"
                          + "-timeout: 30m)",
                      MIGRATION_TIMED_OUT_STATE);
              timedOut.addSuppressed(sql);
              throw timedOut;
            }
            throw e;
          }
          connection.setNetworkTimeout(Runnable::run, networkTimeout);
          return Finish.of(id);
        });
  }

  /** The SQLSTATE of a migration ended by the migration timeout (no step timeout's hint). */
  private static final String MIGRATION_TIMED_OUT_STATE = "FL002";

  private static boolean migrationTimedOut(SQLException e) {
    String state = String.valueOf(e.getSQLState());
    return state.equals("57014")
        || state.equals("55P03")
        || causedBy(e, SocketTimeoutException.class);
  }

  private static int millis(Duration duration) {
    return (int) Math.min(duration.toMillis(), Integer.MAX_VALUE);
  }

  /** Starts a configuration. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * The file a {@code jdbc:sqlite:} URL names, as an absolute path (a relative name is resolved
   * against the working directory, as the driver does); empty for other URLs, in-memory databases
   * and names that are no path.
   */
  static Optional<Path> sqliteFileOf(String url) {
    return url.startsWith(SQLITE_PREFIX)
        ? Optional.ofNullable(Builder.sqlitePlainFile(url)).map(p -> p.toAbsolutePath().normalize())
        : Optional.empty();
  }

  /**
   * True if Fenceline's tables are there. Always true for a store opened for writing (it created
   * them); a {@linkplain Builder#readOnly read-only} store on a database where no process has
   * written yet has none.
   */
  public boolean tablesPresent() {
    return id != null;
  }

  /**
   * For a {@linkplain Builder#readOnly read-only} store: what opening it for writing would still do
   * to the database, each a phrase that follows "would": {@code create Fenceline's tables (schema
   * v4)}, or {@code migrate Fenceline's schema from v2 to v4}; empty if the tables are there at
   * this build's version, and always empty for a store opened for writing (it did it).
   */
  public List<String> wouldChange() {
    if (!readOnly || id != null) {
      return List.of();
    }
    if (schemaVersionFound == 0) {
      return List.of(
          (sqliteFile != null && !Files.exists(sqliteFile)
                  ? "create SQLite database " + sqliteFile + " and "
                  : "create ")
              + "Fenceline's tables (schema v"
              + Schema.VERSION
              + ")");
    }
    return List.of(
        "migrate Fenceline's schema from v" + schemaVersionFound + " to v" + Schema.VERSION);
  }

  /** True if the store was opened {@linkplain Builder#readOnly read-only}. */
  public boolean readOnly() {
    return readOnly;
  }

  /**
   * Opens a SQLite database file, creating it if missing: the embedded default.
   *
   * @param file the database file, shared by every process that fences the same resources
   */
  public static JdbcStore sqlite(Path file) {
    return builder().sqliteFile(file).build();
  }

  /** The lease issuer on this database. */
  public JdbcLeaseIssuer leaseIssuer() {
    return new JdbcLeaseIssuer(this);
  }

  /**
   * A destination named {@code name} that applies {@link JdbcChange}s in this database. The name
   * scopes its operation records: give every destination its own ({@code invoices}, {@code audit});
   * two destinations with the same name are the same destination.
   *
   * @param name 1 to 64 characters from {@code [a-z0-9._-]}
   * @throws IllegalArgumentException if the name breaks the rule
   */
  public JdbcDestination destination(String name) {
    return destination(name, StepListener.NONE);
  }

  /** A destination named {@code name} that reports its steps to {@code steps} (tests, tracing). */
  public JdbcDestination destination(String name, StepListener steps) {
    return new JdbcDestination(new FencedWrite(this, name, steps));
  }

  /**
   * The pointer store ("publish a named value") named {@code name} on this database. The name
   * scopes its publish pointers and operation records.
   *
   * @param name 1 to 64 characters from {@code [a-z0-9._-]}
   * @throws IllegalArgumentException if the name breaks the rule
   */
  public JdbcPointerStore pointerStore(String name) {
    return pointerStore(name, StepListener.NONE);
  }

  /**
   * A pointer store named {@code name} that reports its steps to {@code steps} (tests, tracing).
   */
  public JdbcPointerStore pointerStore(String name, StepListener steps) {
    return new JdbcPointerStore(new FencedWrite(this, name, steps));
  }

  /**
   * The intent store named {@code name} on this database, for calls to systems that cannot check
   * epochs themselves (an external API that honours idempotency keys). {@link IntentStore#begin}
   * and {@link IntentStore#complete} each run as one transaction on the resource's control row,
   * which it shares with every destination and pointer store of this database: an epoch registered
   * by any of them fences the others. The name scopes its intents.
   *
   * @param name 1 to 64 characters from {@code [a-z0-9._-]}
   * @throws IllegalArgumentException if the name breaks the rule
   */
  public IntentStore intentStore(String name) {
    return intentStore(name, StepListener.NONE);
  }

  /**
   * An intent store named {@code name} that reports its steps to {@code steps} (tests, tracing).
   */
  public IntentStore intentStore(String name, StepListener steps) {
    return new JdbcIntentStore(new FencedWrite(this, name, steps));
  }

  /**
   * This database's identity: the issuer identity in the tokens its lease issuer hands out, and the
   * store identity of its pointer stores. Created with the tables, the same for every process.
   */
  public String id() {
    if (id == null) {
      throw new IllegalStateException(
          "Cannot tell the identity of " + description + ": it has no Fenceline tables yet");
    }
    return id;
  }

  /** Signs a token with the configured keys, or returns it unchanged without keys. */
  FencingToken sign(FencingToken token) {
    return tokenKeys == null ? token : tokenKeys.sign(token);
  }

  /** Refuses an unsigned or forged token if keys are configured. */
  void verify(FencingToken token, String action) {
    if (tokenKeys != null) {
      tokenKeys.verify(token, action);
    }
  }

  /** The database, as shown in messages (no credentials). */
  public String description() {
    return description;
  }

  /**
   * Deletes what the configured {@link Builder#retention retention} no longer keeps: operation
   * records (receipts) recorded longer ago than {@link Retention#receipts()} by the database's
   * clock, and publish-pointer versions beyond the newest {@link Retention#pointerVersions()} of
   * each pointer store and resource (never the current pointer). Deletes in short transactions of a
   * bounded number of rows that never lock a resource's control row, so writers are not held up;
   * each one records, with its deletes, the watermark that makes a lookup of a pruned receipt throw
   * {@link dev.fenceline.spi.ReceiptPrunedException} instead of answering "never applied". Safe to
   * run from several processes at once. Stops early, with what it deleted so far, once the store is
   * closed.
   *
   * @return what was deleted, and the new watermark
   * @throws IllegalStateException if no retention is configured, or the store is closed
   * @throws StoreException if the database failed; batches committed before stay committed
   */
  public PruneReport prune() {
    if (retention == null) {
      throw new IllegalStateException(
          "Cannot prune "
              + description
              + ": no retention is configured (set one with JdbcStore.builder().retention(...),"
              + " or call prune(retention))");
    }
    return prune(retention);
  }

  /**
   * Prunes as {@link #prune()} does, with {@code retention} instead of the configured one.
   *
   * @throws IllegalStateException if the store is closed
   * @throws StoreException if the database failed; batches committed before stay committed
   */
  public PruneReport prune(Retention retention) {
    return pruning.run(requireNonNull(retention, "retention is null"));
  }

  /** The retention {@link #prune()} uses, if one is configured. */
  public Optional<Retention> retention() {
    return Optional.ofNullable(retention);
  }

  /** True once the background pruning has stopped for good (or was never started); for tests. */
  boolean backgroundPruningStopped() {
    return pruner == null || pruner.isTerminated();
  }

  boolean isClosed() {
    return closed;
  }

  /**
   * Marks the store closed and stops the background pruning, waiting for a run in progress to
   * finish its current batch. Connections are opened per call, so nothing else is held; a data
   * source passed in stays open (it belongs to the caller).
   */
  @Override
  public void close() {
    closed = true;
    if (pruner != null) {
      pruner.shutdown();
      try {
        if (!pruner.awaitTermination(lockTimeout.toMillis() * 2, TimeUnit.MILLISECONDS)) {
          LOG.log(
              System.Logger.Level.WARNING,
              "The background pruning of "
                  + description
                  + " did not stop in time; it stops"
                  + " after its current batch");
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
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
   * is only logged. On PostgreSQL the transaction's lock and statement timeouts are set by one
   * statement before the work.
   */
  <T> T inTransaction(String action, TransactionWork<T> work) {
    return transaction(
        action,
        true,
        connection -> {
          T value = work.run(connection);
          return Finish.of(value);
        });
  }

  /**
   * Runs fenced {@code work} in one transaction, as {@link #inTransaction}, except that the work's
   * first statement sets the timeouts ({@link FencedWrite}'s control-row step does), and that its
   * {@linkplain Finish last statement}, if it names one, is sent together with the {@code COMMIT}
   * on PostgreSQL. That combined statement failing with an answer from the server committed nothing
   * (known failure); failing without one, or with one that ended the connection ({@code 08} states
   * in the exception chain, socket timeout), may have committed ({@code outcomeUnknown=true}).
   */
  <T> T inFencedTransaction(String action, FencedWork<T> work) {
    return transaction(action, false, work);
  }

  private <T> T transaction(String action, boolean setTimeouts, FencedWork<T> work) {
    return transaction(action, setTimeouts, connection -> {}, work);
  }

  /** Before the transaction begins: changes to the connection's settings for it. */
  @FunctionalInterface
  private interface BeforeBegin {
    void run(Connection connection) throws SQLException;
  }

  private <T> T transaction(
      String action, boolean setTimeouts, BeforeBegin beforeBegin, FencedWork<T> work) {
    Connection connection = open(action);
    try {
      Finish<T> finish;
      try {
        beforeBegin.run(connection);
        begin(connection, setTimeouts);
        finish = work.run(connection);
      } catch (SQLException e) {
        rollbackQuietly(connection, e);
        throw failure(action, e, false);
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
          throw failure(action, e, false);
        }
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
      return finish.value();
    } finally {
      closeAfter(action, connection);
    }
  }

  /** PostgreSQL: the last statement and the COMMIT in one round trip. */
  private void commitWith(String action, Connection connection, Finish<?> finish) {
    try (PreparedStatement last = connection.prepareStatement(finish.lastSql() + "; COMMIT")) {
      finish.binder().bind(last);
      last.execute();
      SynchronousReplication.refuseCancelledWait(last.getWarnings());
    } catch (SQLException e) {
      StoreException failure = failure(action, e, noAnswer(e));
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
            // What the PostgreSQL functions check first: no step on a newer schema.
            Schema.checkVersion(connection);
            return Finish.of(work.run(connection));
          });
    }
    Connection connection = open(action);
    try {
      if (dialect == Dialect.POSTGRESQL && !firstStatementPrefix.isEmpty()) {
        // pgjdbc sends BEGIN with the statement, which ends with its own COMMIT (oneStatement).
        connection.setAutoCommit(false);
      }
      return work.run(connection);
    } catch (SQLException e) {
      StoreException failure = failure(action, e, noAnswer(e));
      rollbackQuietly(connection, failure);
      throw failure;
    } catch (Throwable e) {
      rollbackQuietly(connection, e);
      throw e;
    } finally {
      closeAfter(action, connection);
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
   * #inOneStatement}; read its rows with {@link #rows}. Without a {@linkplain #firstStatementPrefix
   * prefix} that is {@code sql} alone on an auto-commit connection.
   */
  String oneStatement(String sql) {
    return firstStatementPrefix.isEmpty() ? sql : firstStatementPrefix + sql + "; COMMIT";
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

  private static final String READ_COMMITTED = "SET TRANSACTION ISOLATION LEVEL READ COMMITTED; ";

  /**
   * Executes {@code statement} and returns its first result set, skipping the update counts of
   * statements sent before it ({@link #firstStatement}, {@link #oneStatement}). A statement that
   * carried its {@code COMMIT} ({@link #oneStatement}) and was answered with PostgreSQL's warning
   * that the wait for synchronous replication was cancelled throws {@link
   * SynchronousReplication.WaitCancelledException}: committed on the primary, perhaps not on the
   * standby, an unknown outcome ({@link #failure}).
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
   * Whether a failed statement that carried a commit may have been committed: it got no answer from
   * the server, or the connection ended with the answer (pgjdbc reports a FATAL or PANIC error
   * first and the lost connection, {@code 08006}, as its next exception; a PANIC while flushing the
   * commit record can still be replayed by crash recovery).
   */
  private boolean noAnswer(SQLException e) {
    if (dialect != Dialect.POSTGRESQL) {
      return false;
    }
    for (Throwable failure : e) {
      if (failure instanceof SocketTimeoutException
          || (failure instanceof SQLException sql
              && sql.getSQLState() != null
              && sql.getSQLState().startsWith("08"))) {
        return true;
      }
    }
    return false;
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
              + " ("
              + unreachableHint
              + ")",
          e);
    }
    try {
      configure(connection);
      if (dialect == Dialect.POSTGRESQL) {
        checkPostgresSession(action, connection);
      }
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
      waitForLocks(connection);
      checkSqliteDurability(connection);
    }
  }

  /** SQLite: wait up to the lock timeout for another connection's lock instead of failing. */
  private void waitForLocks(Connection connection) throws SQLException {
    setBusyTimeout(connection, lockTimeout);
  }

  /** SQLite: wait up to {@code timeout} for another connection's lock. */
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
        LockWaitNotice.around(waitedFor(), () -> statement.execute("BEGIN IMMEDIATE"));
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

  StoreException failure(String action, SQLException e, boolean outcomeUnknown) {
    String hint;
    String state = e.getSQLState() == null ? "" : e.getSQLState();
    String text = String.valueOf(e.getMessage());
    boolean noAnswer = causedBy(e, SocketTimeoutException.class);
    if (e instanceof SynchronousReplication.WaitCancelledException) {
      outcomeUnknown = true;
      hint =
          "the outcome is unknown: the change is committed on the primary, but the synchronous"
              + " standby has not confirmed it and a failover to that standby would lose it, an"
              + " epoch included; a cancel request ended the wait (pg_cancel_backend, or a"
              + " client's query timeout); look the operation up or retry it with the same"
              + " operation ID once the standby has caught up, and check the standby and its link";
    } else if (outcomeUnknown) {
      hint =
          (noAnswer ? "the database did not answer the commit within the socket timeout; " : "")
              + "the commit may or may not have happened; look the operation up or retry it with"
              + " the same operation ID";
    } else if (noAnswer) {
      hint =
          "the database did not answer within the socket timeout"
              + (socketTimeout == null ? "" : " of " + socketTimeout)
              + "; nothing was committed, retrying is safe";
    } else if (state.equals("57014") && statementTimeout != null) {
      hint =
          "a statement ran longer than the statement timeout of "
              + statementTimeout
              + "; nothing was committed (raise the statement timeout, or make the change smaller)";
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

  private static boolean causedBy(Throwable failure, Class<? extends Throwable> type) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (type.isInstance(cause)) {
        return true;
      }
    }
    return false;
  }

  /** What a SQLite lock wait is for, as the notice says it. */
  private String waitedFor() {
    return "the SQLite write lock on "
        + (sqliteFile == null ? description : sqliteFile.toString())
        + " (held by another connection or process; lock-timeout "
        + LockWaitNotice.format(lockTimeout)
        + ")";
  }

  private void refuseInMemorySqlite(Connection connection) throws SQLException {
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

  private void enableWal(Connection connection) throws SQLException {
    String mode =
        LockWaitNotice.around(
            waitedFor(), () -> queryString(connection, "PRAGMA journal_mode = WAL"));
    if (!"wal".equalsIgnoreCase(mode)) {
      LOG.log(
          System.Logger.Level.WARNING,
          "SQLite database " + description + " stays in journal mode " + mode + " (not WAL)");
    }
  }

  private void checkSqliteDurability(Connection connection) throws SQLException {
    String synchronous;
    String journal;
    // One statement for both settings: this check runs on every connection.
    try (Statement statement = connection.createStatement();
        ResultSet rows =
            statement.executeQuery(
                "SELECT s.synchronous, j.journal_mode"
                    + " FROM pragma_synchronous AS s, pragma_journal_mode AS j")) {
      rows.next();
      synchronous = rows.getString(1);
      journal = rows.getString(2).toLowerCase(Locale.ROOT);
    }
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

  /**
   * PostgreSQL, once per physical connection (a pool's connections are checked once each; a
   * connection per step is checked every step, one round trip): the server behind it is a primary
   * and its session commits durably. A session can differ from the one checked when the store
   * opened: {@code synchronous_commit} set per role, per database, in the URL's {@code options} or
   * by a pool's connection init SQL, or a multi-host URL that reached another server. A session
   * changed later on a connection already checked (a {@code SET} by other code sharing the pool) is
   * not seen.
   */
  private void checkPostgresSession(String action, Connection connection) throws SQLException {
    Connection physical = physical(connection);
    if (checkedConnections.contains(physical)) {
      return;
    }
    String inRecovery;
    String fsync;
    String synchronousCommit;
    try (Statement statement = connection.createStatement();
        ResultSet rows =
            statement.executeQuery(
                "SELECT pg_is_in_recovery(), current_setting('fsync'),"
                    + " current_setting('synchronous_commit')")) {
      rows.next();
      inRecovery = rows.getString(1);
      fsync = rows.getString(2);
      synchronousCommit = rows.getString(3);
    }
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

  /** The replication warning logged when the store opened (PostgreSQL), for tests. */
  Optional<String> replicationWarning() {
    return replicationWarning;
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
    private DataSource dataSource;
    private String description;
    private String url;
    private Path sqliteFile;
    private final Properties properties = new Properties();
    private Duration lockTimeout = DEFAULT_LOCK_TIMEOUT;
    private Duration statementTimeout = DEFAULT_STATEMENT_TIMEOUT;
    private Duration connectTimeout = DEFAULT_CONNECT_TIMEOUT;
    private Duration loginTimeout = DEFAULT_LOGIN_TIMEOUT;
    private Duration socketTimeout = DEFAULT_SOCKET_TIMEOUT;
    private Duration migrationTimeout = DEFAULT_MIGRATION_TIMEOUT;
    private boolean unsafeAllowEpochRollbackOnCrash;
    private boolean readOnly;
    private TokenKeys tokenKeys;
    private Retention retention;
    private Duration pruneEvery;
    private Pruning.Clock pruneClock;
    private int pruneBatchSize = Pruning.DEFAULT_BATCH_SIZE;
    private Pruning.Listener pruneListener = Pruning.Listener.NONE;

    private Builder() {}

    /**
     * Connects through {@link DriverManager} with this JDBC URL, e.g. {@code
     * jdbc:sqlite:/var/lib/fenceline/fenceline.db} or {@code
     * jdbc:postgresql://db-primary:5432/app}.
     *
     * <p>For PostgreSQL the builder's connect, login and socket timeouts are passed to the driver
     * as the connection properties {@code connectTimeout}, {@code loginTimeout} and {@code
     * socketTimeout}, except those the URL's query sets itself: a value in the URL wins. A {@code
     * statement_timeout} in the URL's {@code options} parameter likewise wins over {@link
     * #statementTimeout}. SQLite's file name is passed on as written; use {@link
     * JdbcStore#sqlite(Path)} for a file name that contains {@code ?}.
     *
     * <p>Every call opens a new connection. For PostgreSQL that is a new server process per step
     * (about 10 ms measured locally, against a fraction of a millisecond for the step itself on a
     * pooled connection): under load, pass a pool with {@link #dataSource} instead (the {@code
     * jdbc} adapter of the YAML configuration does, with HikariCP).
     *
     * @throws ConfigurationException if the URL is not a SQLite or PostgreSQL URL
     */
    public Builder url(String url) {
      requireNonNull(url, "url is null");
      if (!url.startsWith(SQLITE_PREFIX) && !url.startsWith(POSTGRESQL_PREFIX)) {
        throw new ConfigurationException(
            "Cannot use JDBC URL \""
                + withoutQuery(url)
                + "\": it must start with jdbc:sqlite: or jdbc:postgresql:"
                + " (e.g. jdbc:sqlite:fenceline.db)");
      }
      this.url = url;
      this.description = withoutQuery(url);
      this.sqliteFile = url.startsWith(SQLITE_PREFIX) ? sqlitePlainFile(url) : null;
      this.dataSource = null;
      return this;
    }

    /**
     * Opens the SQLite file {@code file} whatever characters its name holds: the path goes to the
     * driver as a percent-encoded {@code file:} URI, because a plain {@code jdbc:sqlite:} URL is
     * cut at {@code ?} and the rest read as parameters.
     */
    Builder sqliteFile(Path file) {
      requireNonNull(file, "file is null");
      Path absolute = file.toAbsolutePath();
      url(SQLITE_PREFIX + absolute.toUri().toASCIIString());
      this.description = SQLITE_PREFIX + absolute;
      this.sqliteFile = absolute;
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
     *
     * <p>The connect, login and socket timeouts of this builder do not apply: the data source's own
     * settings bound connecting and waiting for answers, so set them there (with pgjdbc, its {@code
     * connectTimeout}, {@code loginTimeout} and {@code socketTimeout}; with a pool, also its
     * connection timeout). The lock and statement timeouts do apply (see {@link JdbcStore}).
     */
    public Builder dataSource(DataSource dataSource, String description) {
      this.dataSource = requireNonNull(dataSource, "dataSource is null");
      this.description = requireNonNull(description, "description is null");
      this.url = null;
      this.sqliteFile = null;
      return this;
    }

    /**
     * How long a step waits for another writer's lock (default 8 s): SQLite's {@code busy_timeout},
     * PostgreSQL's {@code lock_timeout}. Keep it below the statement timeout so a lock wait ends
     * with the lock timeout's clearer message.
     *
     * @throws ConfigurationException if it is not positive
     */
    public Builder lockTimeout(Duration lockTimeout) {
      this.lockTimeout = positive("lock timeout", lockTimeout, "PT8S");
      return this;
    }

    /**
     * How long one SQL statement of a step may run on PostgreSQL before the server cancels it and
     * the step rolls back (default 10 s): {@code statement_timeout}, set transaction-locally in
     * each of the store's transactions. Covers the statements of a {@link JdbcChange} too. A
     * cancelled statement is reported as a {@link StoreException} with nothing committed. It does
     * not bound a commit's wait for a synchronous standby: PostgreSQL stops the timer before it
     * commits, so the socket timeout ends that wait (an unknown outcome). Not used on SQLite, which
     * runs in the process (its waits are bounded by the lock timeout).
     *
     * @throws ConfigurationException if it is not positive
     */
    public Builder statementTimeout(Duration statementTimeout) {
      this.statementTimeout = positive("statement timeout", statementTimeout, "PT10S");
      return this;
    }

    /**
     * How long opening a TCP connection to PostgreSQL may take (default 5 s; pgjdbc's {@code
     * connectTimeout}, in whole seconds, rounded up). For {@link #url} connections only.
     *
     * @throws ConfigurationException if it is not positive
     */
    public Builder connectTimeout(Duration connectTimeout) {
      this.connectTimeout = positive("connect timeout", connectTimeout, "PT5S");
      return this;
    }

    /**
     * How long connecting and logging in to PostgreSQL may take in all (default 8 s; pgjdbc's
     * {@code loginTimeout}, in whole seconds, rounded up). Bounds {@link #build()} against a server
     * that accepts connections but does not answer. For {@link #url} connections only.
     *
     * @throws ConfigurationException if it is not positive
     */
    public Builder loginTimeout(Duration loginTimeout) {
      this.loginTimeout = positive("login timeout", loginTimeout, "PT8S");
      return this;
    }

    /**
     * How long to wait for any answer from PostgreSQL on an open connection (default 12 s; pgjdbc's
     * {@code socketTimeout}, in whole seconds, rounded up). Bounds every step against a server that
     * stops answering; the connection is then dropped, so the server rolls back what was not
     * committed. Keep it above the statement timeout, so a slow statement is cancelled by the
     * server with a clear message before the client gives up on the connection, and keep login
     * timeout + socket timeout below the lease ttl, so a worker learns of a frozen server before
     * its lease runs out (the defaults: 8 s + 12 s against a 30 s ttl). For {@link #url}
     * connections only.
     *
     * @throws ConfigurationException if it is not positive
     */
    public Builder socketTimeout(Duration socketTimeout) {
      this.socketTimeout = positive("socket timeout", socketTimeout, "PT12S");
      return this;
    }

    /**
     * How long {@link #build()} may spend creating or migrating Fenceline's tables (default 10
     * min), in place of the step timeouts above: a migration may build an index over every receipt
     * ({@code fenceline_operation}) or wait for another process's migration, and an open is not a
     * step under a lease, so the lease ttl does not bound it. PostgreSQL: the migration
     * transaction's {@code lock_timeout} and {@code statement_timeout}, and that connection's
     * network timeout ({@link Connection#setNetworkTimeout}, overriding the socket timeout; 10 s
     * longer, so the server's cancellation is answered) until the migration's statements are done;
     * then the connection's own again. Not used on SQLite (the migration runs in the process; its
     * wait for another process's write lock stays the lock timeout). The open's other checks
     * (primary, durability, replication) and every later step keep the step timeouts.
     *
     * @throws ConfigurationException if it is not positive
     */
    public Builder migrationTimeout(Duration migrationTimeout) {
      this.migrationTimeout = positive("migration timeout", migrationTimeout, "PT10M");
      return this;
    }

    /**
     * Signs every token this store's lease issuer hands out with {@code keys}, and makes this
     * store's destinations and pointer stores refuse unsigned tokens and tokens whose signature
     * does not verify ({@link dev.fenceline.spi.UntrustedTokenException}). Default: tokens are
     * unsigned and not checked (only their issuer identity is). Use the same keys on the issuer's
     * and the destinations' stores.
     */
    public Builder tokenKeys(TokenKeys keys) {
      this.tokenKeys = requireNonNull(keys, "keys is null");
      return this;
    }

    /**
     * Opens the store for looking only, as {@code fenceline status} does: {@link #build()} creates
     * no tables, migrates nothing, does not switch a SQLite file to WAL mode and never takes the
     * database's write lock, so it answers while another process holds that lock; a SQLite file
     * that does not exist is not created. With no tables yet ({@link JdbcStore#tablesPresent()}
     * false) the issuer's {@link JdbcLeaseIssuer#status status} says that no lease was ever handed
     * out. Only reads are meant for such a store: steps that write fail. Default: off.
     */
    public Builder readOnly(boolean readOnly) {
      this.readOnly = readOnly;
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
     * What {@link JdbcStore#prune()} deletes and keeps (see {@link Retention}). Default: none,
     * nothing is ever deleted and the tables grow with every publish.
     */
    public Builder retention(Retention retention) {
      this.retention = requireNonNull(retention, "retention is null");
      return this;
    }

    /**
     * Runs {@link JdbcStore#prune()} every {@code every} on a daemon thread of the store, first
     * {@code every} after the store opens, until {@link JdbcStore#close()}. A failed run is logged
     * (WARNING) and the next one runs as scheduled. Several processes may prune the same database;
     * one of them is enough. Default: off. Needs a {@link #retention}.
     *
     * @throws ConfigurationException if it is not positive
     */
    public Builder pruneEvery(Duration every) {
      this.pruneEvery = positive("prune interval", every, "PT1H");
      return this;
    }

    /** The clock pruning computes its cutoff from, instead of the database's (tests). */
    Builder pruneClock(Pruning.Clock clock) {
      this.pruneClock = requireNonNull(clock, "clock is null");
      return this;
    }

    /** Rows one pruning transaction deletes at most (tests; default 500). */
    Builder pruneBatchSize(int rows) {
      this.pruneBatchSize = rows;
      return this;
    }

    /** Hears every background prune (tests). */
    Builder pruneListener(Pruning.Listener listener) {
      this.pruneListener = requireNonNull(listener, "listener is null");
      return this;
    }

    /**
     * Connects, checks the database (see {@link JdbcStore}) and creates the tables.
     *
     * @throws ConfigurationException if no URL or data source was given, or the URL names an
     *     in-memory or temporary SQLite database (each connection would see its own empty one), or
     *     {@link #pruneEvery} is set without a {@link #retention}
     * @throws UnsafeStoreException if the database cannot keep the guarantees
     * @throws StoreException if the database cannot be reached, or does not answer in time
     */
    public JdbcStore build() {
      if (url == null && dataSource == null) {
        throw new ConfigurationException(
            "Cannot open a JDBC store: no url(...) or dataSource(...) given"
                + " (e.g. url(\"jdbc:sqlite:fenceline.db\"))");
      }
      if (pruneEvery != null && retention == null) {
        throw new ConfigurationException(
            "Cannot prune "
                + description
                + " every "
                + pruneEvery
                + ": no retention(...) is given, so nothing may be deleted (add"
                + " retention(new Retention(Duration.ofDays(7), 16)), or remove pruneEvery)");
      }
      if (dataSource != null) {
        return new JdbcStore(this, dataSource::getConnection);
      }
      String driverUrl = url;
      Properties connectionProperties = new Properties();
      connectionProperties.putAll(properties);
      if (isPostgresUrl()) {
        Set<String> inUrl = queryKeys(url);
        putSeconds(connectionProperties, inUrl, "connectTimeout", connectTimeout);
        putSeconds(connectionProperties, inUrl, "loginTimeout", loginTimeout);
        putSeconds(connectionProperties, inUrl, "socketTimeout", socketTimeout);
      }
      return new JdbcStore(
          this, () -> DriverManager.getConnection(driverUrl, connectionProperties));
    }

    private boolean isPostgresUrl() {
      return url != null && url.startsWith(POSTGRESQL_PREFIX);
    }

    /** The statement timeout to set in each transaction, or null if the URL sets its own. */
    private Duration statementTimeoutApplied() {
      if (isPostgresUrl()
          && queryValues(url).stream().anyMatch(v -> v.contains("statement_timeout"))) {
        return null;
      }
      return statementTimeout;
    }

    /** The socket timeout in force, or null if the store does not know it (data source, URL). */
    private Duration socketTimeoutApplied() {
      return isPostgresUrl() && !queryKeys(url).contains("socketTimeout") ? socketTimeout : null;
    }

    private String unreachableHint() {
      if (url != null && url.startsWith(SQLITE_PREFIX)) {
        Path directory = sqliteFile == null ? null : sqliteFile.getParent();
        if (directory != null && !Files.isDirectory(directory)) {
          return "the directory "
              + directory
              + " does not exist; create it, or point the URL at a file in an existing directory";
        }
        return "check that the file's directory exists and this process may read and write it";
      }
      if (isPostgresUrl()) {
        return "check that the database is running and answers, and that the URL and credentials"
            + " are right; connect timeout "
            + connectTimeout
            + ", login timeout "
            + loginTimeout
            + " unless the URL sets them";
      }
      return "check that the database is running and answers, and the data source's settings";
    }

    private static void putSeconds(
        Properties target, Set<String> inUrl, String key, Duration timeout) {
      if (!inUrl.contains(key)) {
        // pgjdbc takes whole seconds; round up so a short timeout never becomes 0 (= none).
        long seconds = timeout.toSeconds() + (timeout.getNano() > 0 ? 1 : 0);
        target.setProperty(key, Long.toString(Math.min(seconds, Integer.MAX_VALUE)));
      }
    }

    private static Duration positive(String name, Duration value, String example) {
      requireNonNull(value, name + " is null");
      if (value.isNegative() || value.isZero()) {
        throw new ConfigurationException(
            "Cannot use " + name + " " + value + ": it must be positive (e.g. " + example + ")");
      }
      return value;
    }

    private static Set<String> queryKeys(String url) {
      Set<String> keys = new HashSet<>();
      for (String parameter : queryParameters(url)) {
        int equals = parameter.indexOf('=');
        keys.add(equals < 0 ? parameter : parameter.substring(0, equals));
      }
      return keys;
    }

    private static List<String> queryValues(String url) {
      List<String> values = new ArrayList<>();
      for (String parameter : queryParameters(url)) {
        int equals = parameter.indexOf('=');
        if (equals >= 0) {
          values.add(URLDecoder.decode(parameter.substring(equals + 1), StandardCharsets.UTF_8));
        }
      }
      return values;
    }

    private static List<String> queryParameters(String url) {
      int query = url.indexOf('?');
      if (query < 0) {
        return List.of();
      }
      return List.of(url.substring(query + 1).split("&"));
    }

    /** The file a plain {@code jdbc:sqlite:} URL names, if it names one (for hints only). */
    private static Path sqlitePlainFile(String url) {
      String name = url.substring(SQLITE_PREFIX.length());
      try {
        if (name.startsWith("file:")) {
          String uri = name;
          int end = indexOfAny(uri, '?', '#');
          return Path.of(URI.create(end < 0 ? uri : uri.substring(0, end)));
        }
        int query = name.indexOf('?');
        name = query < 0 ? name : name.substring(0, query);
        return name.isEmpty() || name.equals(":memory:") ? null : Path.of(name).toAbsolutePath();
      } catch (IllegalArgumentException | java.nio.file.FileSystemNotFoundException e) {
        return null; // not a path we can reason about; the hint stays general
      }
    }

    private static int indexOfAny(String text, char first, char second) {
      int a = text.indexOf(first);
      int b = text.indexOf(second);
      return a < 0 ? b : b < 0 ? a : Math.min(a, b);
    }

    private static String withoutQuery(String url) {
      int query = url.indexOf('?');
      return query < 0 ? url : url.substring(0, query);
    }
  }
}
