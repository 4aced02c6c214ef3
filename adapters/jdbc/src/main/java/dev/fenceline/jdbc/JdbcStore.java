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

import dev.fenceline.jdbc.Transactions.ConnectionSource;
import dev.fenceline.spi.ConfigurationException;
import dev.fenceline.spi.IntentStore;
import dev.fenceline.spi.StepListener;
import dev.fenceline.spi.StoreException;
import dev.fenceline.spi.TokenKeys;
import dev.fenceline.spi.UnsafeStoreException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import javax.sql.DataSource;

/**
 * One SQLite or PostgreSQL database that holds Fenceline's tables, and the components built on it:
 * a {@link JdbcLeaseIssuer}, {@link JdbcDestination}s, {@link JdbcPointerStore}s and {@link
 * IntentStore}s. Open one with {@link #sqlite(Path)} or {@link #builder()}. Thread-safe; every call
 * takes its own connection (for PostgreSQL under load, pass a pool with {@link
 * Builder#dataSource}).
 *
 * <p>Opening checks that the database is safe to decide ownership on and refuses it otherwise with
 * an {@link UnsafeStoreException}: PostgreSQL must be a primary, not a server in recovery (R5), and
 * commits must survive a crash (R1), so no {@code fsync=off} or {@code synchronous_commit=off}, and
 * on SQLite {@code synchronous} at least {@code FULL} with a journal on disk ({@link
 * Builder#unsafeAllowEpochRollbackOnCrash} accepts that risk). Standbys that are not synchronous
 * are logged as a warning. The store then creates or migrates its tables (schema version {@value
 * Schema#VERSION}).
 *
 * <p>Every fenced step is one transaction on the resource's control row. No call waits forever:
 * with the defaults ({@code DEFAULT_*}) no step waits longer than the default lease ttl (30 s)
 * allows; with a shorter ttl, keep the builder's login timeout + socket timeout below it. A failed
 * step throws {@link StoreException}; {@link StoreException#outcomeUnknown()} is true when it may
 * have committed (look the operation up, or retry it with the same operation ID). Nothing is
 * deleted unless a {@link Builder#retention retention} is configured and {@link #prune()} runs.
 *
 * <p>The rest is in {@code docs/jdbc.md} in the repository: each check at open and per connection,
 * transactions and isolation, round trips per step, every timeout and what a frozen server does,
 * synchronous replication and unknown outcomes, and retention.
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
   * The destination name that operation records of schema version 1 (before destinations had names)
   * belong to after the migration, except those that set a publish pointer.
   */
  public static final String SCHEMA_1_DESTINATION = "default";

  /**
   * The pointer store name that publish pointers of schema version 1, and the operations that set
   * them, belong to after the migration.
   */
  public static final String SCHEMA_1_POINTER_STORE = "pointers";

  private static final System.Logger LOG = System.getLogger(JdbcStore.class.getName());

  private final String description;
  private final Duration lockTimeout;
  private final boolean readOnly;
  private final Path sqliteFile;
  private final SafetyChecks checks;
  private final Transactions transactions;
  private final StoreIdentity identity;
  private final Migration.Found tables;
  private final Retention retention;
  private final Pruning pruning;

  private JdbcStore(Builder builder, ConnectionSource connections) {
    this.description = builder.description;
    this.lockTimeout = builder.lockTimeout;
    this.readOnly = builder.readOnly;
    this.sqliteFile = builder.sqliteFile;
    this.retention = builder.retention;
    this.checks = new SafetyChecks(description, builder.unsafeAllowEpochRollbackOnCrash);
    Transactions.Settings settings = builder.transactionSettings();
    if (readOnly && sqliteFile != null && !Files.exists(sqliteFile)) {
      // Nothing to read, and opening a connection would create the file.
      this.transactions = Transactions.sqliteNotOpened(connections, settings, checks);
      this.tables = new Migration.Found(0, null);
      this.identity = new StoreIdentity(null, description, builder.tokenKeys);
      this.pruning = null;
      return;
    }
    this.transactions = Transactions.open(connections, settings, checks, readOnly);
    this.tables = Migration.open(transactions, readOnly, builder.migrationTimeout);
    this.identity = new StoreIdentity(tables.id(), description, builder.tokenKeys);
    Dialect dialect = transactions.dialect();
    this.pruning =
        new Pruning(
            transactions,
            builder.pruneClock == null ? Pruning.databaseClock(dialect) : builder.pruneClock,
            builder.pruneBatchSize);
    if (builder.pruneEvery != null && !readOnly) {
      pruning.startBackground(builder.pruneEvery, retention, builder.pruneListener);
    }
  }

  /** Starts a configuration. */
  public static Builder builder() {
    return new Builder();
  }

  /** The file a {@code jdbc:sqlite:} URL names, if any ({@link JdbcUrl#sqliteFileOf}). */
  static Optional<Path> sqliteFileOf(String url) {
    return JdbcUrl.sqliteFileOf(url);
  }

  /**
   * True if Fenceline's tables are there. Always true for a store opened for writing (it created
   * them); a {@linkplain Builder#readOnly read-only} store on a database where no process has
   * written yet has none.
   */
  public boolean tablesPresent() {
    return identity.tablesPresent();
  }

  /**
   * For a {@linkplain Builder#readOnly read-only} store: what opening it for writing would still do
   * to the database, each a phrase that follows "would": {@code create Fenceline's tables (schema
   * v5)}, or {@code migrate Fenceline's schema from v4 to v5}; empty if the tables are there at
   * this build's version, and always empty for a store opened for writing (it did it).
   */
  public List<String> wouldChange() {
    return readOnly ? tables.wouldChange(sqliteFile) : List.of();
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
    return new JdbcLeaseIssuer(transactions, identity);
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
    return new JdbcDestination(fencedWrite(name, steps));
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
    return new JdbcPointerStore(fencedWrite(name, steps));
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
    return new JdbcIntentStore(fencedWrite(name, steps));
  }

  private FencedWrite fencedWrite(String name, StepListener steps) {
    return new FencedWrite(transactions, identity, name, steps);
  }

  /**
   * This database's identity: the issuer identity in the tokens its lease issuer hands out, and the
   * store identity of its pointer stores. Created with the tables, the same for every process.
   *
   * @throws IllegalStateException if a {@linkplain Builder#readOnly read-only} store found no
   *     tables
   */
  public String id() {
    return identity.id();
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
   * @throws IllegalStateException if no retention is configured, the store was opened {@linkplain
   *     Builder#readOnly read-only}, or it is closed
   * @throws StoreException if the database failed; batches committed before stay committed
   */
  public PruneReport prune() {
    refuseIfReadOnly();
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
   * @throws IllegalStateException if the store was opened {@linkplain Builder#readOnly read-only}
   *     or is closed
   * @throws StoreException if the database failed; batches committed before stay committed
   */
  public PruneReport prune(Retention retention) {
    requireNonNull(retention, "retention is null");
    refuseIfReadOnly();
    return pruning.run(retention);
  }

  private void refuseIfReadOnly() {
    if (readOnly) {
      throw new IllegalStateException(
          "Cannot prune "
              + description
              + ": the store was opened read-only, and pruning deletes rows (open it without"
              + " readOnly(true) to prune)");
    }
  }

  /** The retention {@link #prune()} uses, if one is configured. */
  public Optional<Retention> retention() {
    return Optional.ofNullable(retention);
  }

  /** True once the background pruning has stopped for good (or was never started); for tests. */
  boolean backgroundPruningStopped() {
    return pruning == null || pruning.backgroundStopped();
  }

  /** The replication warning logged when the store opened (PostgreSQL), for tests. */
  Optional<String> replicationWarning() {
    return checks.replicationWarning();
  }

  /** The transactions every step runs in, for tests. */
  Transactions transactions() {
    return transactions;
  }

  /**
   * Marks the store closed and stops the background pruning, waiting for a run in progress to
   * finish its current batch. Connections are opened per call, so nothing else is held; a data
   * source passed in stays open (it belongs to the caller).
   */
  @Override
  public void close() {
    transactions.close();
    if (pruning != null && !pruning.stopBackground(lockTimeout.toMillis() * 2)) {
      LOG.log(
          System.Logger.Level.WARNING,
          "The background pruning of "
              + description
              + " did not stop in time; it stops"
              + " after its current batch");
    }
  }

  /** Validating builder for {@link JdbcStore}. */
  public static final class Builder {
    private DataSource dataSource;
    private String description;
    private JdbcUrl url;
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
     * Connects through {@link java.sql.DriverManager} with this JDBC URL, e.g. {@code
     * jdbc:sqlite:/var/lib/fenceline/fenceline.db} or {@code
     * jdbc:postgresql://db-primary:5432/app}.
     *
     * <p>For PostgreSQL the builder's connect, login and socket timeouts are passed to the driver
     * as the connection properties {@code connectTimeout}, {@code loginTimeout} and {@code
     * socketTimeout}, except those the URL's query sets itself: a value in the URL wins. A {@code
     * statement_timeout} in the URL's {@code options} parameter likewise wins over {@link
     * #statementTimeout}. SQLite's file name is passed on as written; use {@link
     * JdbcStore#sqlite(Path)} for a file name that contains {@code ?}. Every call opens a new
     * connection (for PostgreSQL a new server process per step): under load, pass a pool with
     * {@link #dataSource} instead.
     *
     * @throws ConfigurationException if the URL is not a SQLite or PostgreSQL URL
     */
    public Builder url(String url) {
      this.url = new JdbcUrl(url);
      this.description = this.url.description();
      this.sqliteFile = this.url.sqliteFile();
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
      url(JdbcUrl.SQLITE_PREFIX + absolute.toUri().toASCIIString());
      this.description = JdbcUrl.SQLITE_PREFIX + absolute;
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
     * cancelled statement is reported as a {@link StoreException} with nothing committed. Not used
     * on SQLite, which runs in the process (its waits are bounded by the lock timeout).
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
     * How long {@link #build()} may spend creating or migrating Fenceline's tables on PostgreSQL
     * (default 10 min), in place of the lock, statement and socket timeouts: a migration may build
     * an index over every receipt, and an open is not a step under a lease. Not used on SQLite. The
     * open's other checks and every later step keep the step timeouts.
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
      return new JdbcStore(
          this,
          url.connections(
              properties,
              connectTimeout,
              loginTimeout,
              socketTimeout,
              lockTimeout,
              url.setsStatementTimeout() ? null : statementTimeout));
    }

    private Transactions.Settings transactionSettings() {
      return new Transactions.Settings(
          description,
          lockTimeout,
          // null: the URL sets its own, or the store does not know it (a data source)
          url != null && url.setsStatementTimeout() ? null : statementTimeout,
          url != null && url.postgres() && !url.setsParameter("socketTimeout")
              ? socketTimeout
              : null,
          url == null
              ? "check that the database is running and answers, and the data source's settings"
              : url.unreachableHint(sqliteFile, connectTimeout, loginTimeout),
          sqliteFile);
    }

    private static Duration positive(String name, Duration value, String example) {
      requireNonNull(value, name + " is null");
      if (value.isNegative() || value.isZero()) {
        throw new ConfigurationException(
            "Cannot use " + name + " " + value + ": it must be positive (e.g. " + example + ")");
      }
      return value;
    }
  }
}
