package dev.fenceline.config;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A store of {@code type: jdbc}: SQLite or PostgreSQL, offering the lease issuer, pointer stores
 * and intent stores. Keys are the {@code jdbc} adapter's ({@code
 * dev.fenceline.jdbc.JdbcAdapterFactory}) plus {@code pool-size}; a {@code jdbc:sqlite:} store
 * refuses the PostgreSQL-only ones ({@code user}, {@code password}, {@code pool-size}, the
 * statement, connect, login, socket and migration timeouts) rather than ignore them:
 *
 * <table>
 *   <caption>jdbc keys</caption>
 *   <tr><th>key</th><th>meaning</th><th>default</th></tr>
 *   <tr><td>{@code url}</td><td>{@code jdbc:sqlite:/path/file.db} or {@code
 *       jdbc:postgresql://host:5432/db}</td><td>required</td></tr>
 *   <tr><td>{@code user}, {@code password}</td><td>PostgreSQL credentials (the password is masked
 *       everywhere); PostgreSQL only</td><td>none</td></tr>
 *   <tr><td>{@code pool-size}</td><td>PostgreSQL connection pool (HikariCP) size; not for
 *       SQLite</td><td>{@code 10} on PostgreSQL</td></tr>
 *   <tr><td>{@code lock-timeout}</td><td>wait for another writer's lock</td><td>{@code 8s}</td></tr>
 *   <tr><td>{@code statement-timeout}</td><td>PostgreSQL statement limit</td><td>{@code 10s}</td></tr>
 *   <tr><td>{@code connect-timeout}</td><td>PostgreSQL TCP connect</td><td>{@code 5s}</td></tr>
 *   <tr><td>{@code login-timeout}</td><td>PostgreSQL connect and log in (also the pool's wait for
 *       a connection)</td><td>{@code 8s}</td></tr>
 *   <tr><td>{@code socket-timeout}</td><td>wait for PostgreSQL's answers</td><td>{@code 12s}</td></tr>
 *   <tr><td>{@code migration-timeout}</td><td>creating or migrating the tables when the store
 *       opens, in place of the lock, statement and socket timeouts (an open is not a step under a
 *       lease; a migration may build an index over every receipt)</td><td>{@code 10m}</td></tr>
 *   <tr><td>{@code unsafe-allow-epoch-rollback-on-crash}</td><td>accept a database that can lose
 *       commits on a crash (test databases only)</td><td>{@code false}</td></tr>
 *   <tr><td>{@code receipt-retention}</td><td>how long operation records (receipts) are kept, at
 *       least as long as callers may retry an operation (a retry after its receipt was pruned is
 *       applied again); set together with {@code pointer-versions}</td><td>none: nothing is
 *       deleted</td></tr>
 *   <tr><td>{@code pointer-versions}</td><td>publish-pointer versions kept per pointer store and
 *       resource (the current one always), at least the {@code keep-versions} of every staged
 *       destination publishing through this store</td><td>none: nothing is deleted</td></tr>
 *   <tr><td>{@code prune-every}</td><td>prune in the background this often; needs the two keys
 *       above</td><td>off</td></tr>
 * </table>
 *
 * @param url the JDBC URL
 * @param user the database user
 * @param password the database password
 * @param poolSize the pool size; present for PostgreSQL only
 * @param lockTimeout see the table
 * @param statementTimeout see the table
 * @param connectTimeout see the table
 * @param loginTimeout see the table
 * @param socketTimeout see the table
 * @param migrationTimeout see the table
 * @param unsafeAllowEpochRollbackOnCrash see the table
 * @param receiptRetention see the table; present exactly when {@code pointerVersions} is
 * @param pointerVersions see the table
 * @param pruneEvery see the table; needs the retention
 */
public record JdbcStoreConfig(
    String url,
    Optional<String> user,
    Optional<Secret> password,
    Optional<Integer> poolSize,
    Duration lockTimeout,
    Duration statementTimeout,
    Duration connectTimeout,
    Duration loginTimeout,
    Duration socketTimeout,
    Duration migrationTimeout,
    boolean unsafeAllowEpochRollbackOnCrash,
    Optional<Duration> receiptRetention,
    Optional<Integer> pointerVersions,
    Optional<Duration> pruneEvery) {

  // The same values as JdbcStore's DEFAULT_* constants (config compiles without the jdbc adapter,
  // which is a runtime dependency only); JdbcStoreConfigDefaultsTest keeps the two equal.
  static final Duration DEFAULT_LOCK_TIMEOUT = Duration.ofSeconds(8);
  static final Duration DEFAULT_STATEMENT_TIMEOUT = Duration.ofSeconds(10);
  static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(5);
  static final Duration DEFAULT_LOGIN_TIMEOUT = Duration.ofSeconds(8);
  static final Duration DEFAULT_SOCKET_TIMEOUT = Duration.ofSeconds(12);
  static final Duration DEFAULT_MIGRATION_TIMEOUT = Duration.ofMinutes(10);

  static final Set<String> KEYS =
      Set.of(
          "type",
          "url",
          "user",
          "password",
          "pool-size",
          "lock-timeout",
          "statement-timeout",
          "connect-timeout",
          "login-timeout",
          "socket-timeout",
          "migration-timeout",
          "unsafe-allow-epoch-rollback-on-crash",
          "receipt-retention",
          "pointer-versions",
          "prune-every");

  /**
   * The keys that apply to a {@code jdbc:sqlite:} store: SQLite runs in the process, so it has no
   * users, passwords, pools or network timeouts, and its migration waits with the lock timeout (as
   * {@code JdbcStore.Builder} documents). The other keys of {@link #KEYS} are PostgreSQL's.
   */
  static final Set<String> SQLITE_KEYS =
      Set.of(
          "type",
          "url",
          "lock-timeout",
          "unsafe-allow-epoch-rollback-on-crash",
          "receipt-retention",
          "pointer-versions",
          "prune-every");

  /** The pool size of a PostgreSQL store that does not set {@code pool-size}. */
  public static final int DEFAULT_POOL_SIZE = 10;

  /** Validates the settings. */
  public JdbcStoreConfig {
    requireNonNull(url, "url is null");
    requireNonNull(user, "user is null");
    requireNonNull(password, "password is null");
    requireNonNull(poolSize, "poolSize is null");
    requireNonNull(lockTimeout, "lockTimeout is null");
    requireNonNull(statementTimeout, "statementTimeout is null");
    requireNonNull(connectTimeout, "connectTimeout is null");
    requireNonNull(loginTimeout, "loginTimeout is null");
    requireNonNull(socketTimeout, "socketTimeout is null");
    requireNonNull(migrationTimeout, "migrationTimeout is null");
    requireNonNull(receiptRetention, "receiptRetention is null");
    requireNonNull(pointerVersions, "pointerVersions is null");
    requireNonNull(pruneEvery, "pruneEvery is null");
    if (receiptRetention.isPresent() != pointerVersions.isPresent()) {
      throw new IllegalArgumentException(
          "Cannot configure retention: receipt retention and pointer versions go together");
    }
    if (pruneEvery.isPresent() && receiptRetention.isEmpty()) {
      throw new IllegalArgumentException(
          "Cannot prune every " + pruneEvery.get() + ": no retention is configured");
    }
    if (poolSize.isPresent() && !isPostgres(url)) {
      throw new IllegalArgumentException(
          "Cannot pool " + Secrets.redactUrls(url) + ": pools are for PostgreSQL only");
    }
  }

  /** Whether the URL names a PostgreSQL database. */
  public boolean postgres() {
    return isPostgres(url);
  }

  /** The flat keys the {@code jdbc} adapter factory takes. */
  public Map<String, String> adapterKeys() {
    Map<String, String> keys = new LinkedHashMap<>();
    keys.put("url", url);
    user.ifPresent(value -> keys.put("user", value));
    password.ifPresent(value -> keys.put("password", value.value()));
    poolSize.ifPresent(value -> keys.put("pool-size", Integer.toString(value)));
    keys.put("lock-timeout", Durations.format(lockTimeout));
    keys.put("statement-timeout", Durations.format(statementTimeout));
    keys.put("connect-timeout", Durations.format(connectTimeout));
    keys.put("login-timeout", Durations.format(loginTimeout));
    keys.put("socket-timeout", Durations.format(socketTimeout));
    keys.put("migration-timeout", Durations.format(migrationTimeout));
    keys.put(
        "unsafe-allow-epoch-rollback-on-crash", Boolean.toString(unsafeAllowEpochRollbackOnCrash));
    receiptRetention.ifPresent(value -> keys.put("receipt-retention", Durations.format(value)));
    pointerVersions.ifPresent(value -> keys.put("pointer-versions", Integer.toString(value)));
    pruneEvery.ifPresent(value -> keys.put("prune-every", Durations.format(value)));
    return keys;
  }

  /** Shows the settings with the password and any password inside the URL masked. */
  @Override
  public String toString() {
    return "JdbcStoreConfig[url="
        + Secrets.redactUrls(url)
        + ", user="
        + user.orElse("-")
        + ", password="
        + password.map(Secret::toString).orElse("-")
        + ", poolSize="
        + poolSize.map(String::valueOf).orElse("-")
        + ", lockTimeout="
        + lockTimeout
        + ", statementTimeout="
        + statementTimeout
        + ", connectTimeout="
        + connectTimeout
        + ", loginTimeout="
        + loginTimeout
        + ", socketTimeout="
        + socketTimeout
        + ", migrationTimeout="
        + migrationTimeout
        + ", unsafeAllowEpochRollbackOnCrash="
        + unsafeAllowEpochRollbackOnCrash
        + ", receiptRetention="
        + receiptRetention.map(String::valueOf).orElse("-")
        + ", pointerVersions="
        + pointerVersions.map(String::valueOf).orElse("-")
        + ", pruneEvery="
        + pruneEvery.map(String::valueOf).orElse("-")
        + "]";
  }

  private static boolean isPostgres(String url) {
    return url.startsWith("jdbc:postgresql:");
  }

  static JdbcStoreConfig from(Section section) {
    section.allowOnly(KEYS);
    String url = section.requiredString("url", "jdbc:sqlite:/var/lib/fenceline/fenceline.db");
    if (!url.startsWith("jdbc:sqlite:") && !isPostgres(url)) {
      throw section.valueError(
          "url",
          "\"" + section.shown("url", url) + "\" is neither a SQLite nor a PostgreSQL URL",
          "write jdbc:sqlite:/path/fenceline.db or jdbc:postgresql://host:5432/db");
    }
    Optional<Integer> poolSize = section.integer("pool-size", 1, 1000);
    if (!isPostgres(url)) {
      for (String key : section.keys()) {
        if (!SQLITE_KEYS.contains(key) && !key.equals("pool-size") && section.has(key)) {
          throw section.keyError(
              key,
              key
                  + " does not apply to a jdbc:sqlite store: SQLite runs in this process, without"
                  + " users, passwords, pools or network timeouts, so the key would be ignored",
              "remove it, or point url at PostgreSQL (jdbc:postgresql://host:5432/db); keys for"
                  + " jdbc:sqlite: "
                  + String.join(", ", new java.util.TreeSet<>(SQLITE_KEYS)));
        }
      }
    }
    if (poolSize.isPresent() && !isPostgres(url)) {
      throw section.keyError(
          "pool-size",
          "pools are for PostgreSQL only; SQLite opens a connection per step",
          "remove pool-size here");
    }
    if (poolSize.isEmpty() && isPostgres(url)) {
      poolSize = Optional.of(DEFAULT_POOL_SIZE);
    }
    Optional<Duration> receiptRetention = section.positiveDuration("receipt-retention");
    Optional<Integer> pointerVersions = section.integer("pointer-versions", 1, 1_000_000);
    Optional<Duration> pruneEvery = section.positiveDuration("prune-every");
    if (receiptRetention.isPresent() && pointerVersions.isEmpty()) {
      throw section.keyError(
          "pointer-versions",
          "receipt-retention is set, and pointer-versions goes with it",
          "add pointer-versions, at least the keep-versions of every staged destination on this"
              + " store, e.g. pointer-versions: 16");
    }
    if (pointerVersions.isPresent() && receiptRetention.isEmpty()) {
      throw section.keyError(
          "receipt-retention",
          "pointer-versions is set, and receipt-retention goes with it",
          "add receipt-retention, at least as long as callers may retry an operation, e.g."
              + " receipt-retention: 7d");
    }
    if (pruneEvery.isPresent() && receiptRetention.isEmpty()) {
      throw section.keyError(
          "prune-every",
          "there is nothing to prune without receipt-retention and pointer-versions",
          "add them, e.g. receipt-retention: 7d and pointer-versions: 16, or remove prune-every");
    }
    return new JdbcStoreConfig(
        url,
        section.string("user"),
        section.string("password").map(Secret::new),
        poolSize,
        section.positiveDuration("lock-timeout").orElse(DEFAULT_LOCK_TIMEOUT),
        section.positiveDuration("statement-timeout").orElse(DEFAULT_STATEMENT_TIMEOUT),
        section.positiveDuration("connect-timeout").orElse(DEFAULT_CONNECT_TIMEOUT),
        section.positiveDuration("login-timeout").orElse(DEFAULT_LOGIN_TIMEOUT),
        section.positiveDuration("socket-timeout").orElse(DEFAULT_SOCKET_TIMEOUT),
        section.positiveDuration("migration-timeout").orElse(DEFAULT_MIGRATION_TIMEOUT),
        section.bool("unsafe-allow-epoch-rollback-on-crash").orElse(false),
        receiptRetention,
        pointerVersions,
        pruneEvery);
  }
}
