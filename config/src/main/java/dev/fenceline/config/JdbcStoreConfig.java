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
 * dev.fenceline.jdbc.JdbcAdapterFactory}) plus {@code pool-size}:
 *
 * <table>
 *   <caption>jdbc keys</caption>
 *   <tr><th>key</th><th>meaning</th><th>default</th></tr>
 *   <tr><td>{@code url}</td><td>{@code jdbc:sqlite:/path/file.db} or {@code
 *       jdbc:postgresql://host:5432/db}</td><td>required</td></tr>
 *   <tr><td>{@code user}, {@code password}</td><td>PostgreSQL credentials (the password is masked
 *       everywhere)</td><td>none</td></tr>
 *   <tr><td>{@code pool-size}</td><td>PostgreSQL connection pool (HikariCP) size; not for
 *       SQLite</td><td>{@code 10} on PostgreSQL</td></tr>
 *   <tr><td>{@code lock-timeout}</td><td>wait for another writer's lock</td><td>{@code 30s}</td></tr>
 *   <tr><td>{@code statement-timeout}</td><td>PostgreSQL statement limit</td><td>{@code 60s}</td></tr>
 *   <tr><td>{@code connect-timeout}</td><td>PostgreSQL TCP connect</td><td>{@code 10s}</td></tr>
 *   <tr><td>{@code login-timeout}</td><td>PostgreSQL connect and log in (also the pool's wait for
 *       a connection)</td><td>{@code 30s}</td></tr>
 *   <tr><td>{@code socket-timeout}</td><td>wait for PostgreSQL's answers</td><td>{@code 90s}</td></tr>
 *   <tr><td>{@code unsafe-allow-epoch-rollback-on-crash}</td><td>accept a database that can lose
 *       commits on a crash (test databases only)</td><td>{@code false}</td></tr>
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
 * @param unsafeAllowEpochRollbackOnCrash see the table
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
    boolean unsafeAllowEpochRollbackOnCrash) {

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
          "unsafe-allow-epoch-rollback-on-crash");

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
    keys.put(
        "unsafe-allow-epoch-rollback-on-crash", Boolean.toString(unsafeAllowEpochRollbackOnCrash));
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
        + ", unsafeAllowEpochRollbackOnCrash="
        + unsafeAllowEpochRollbackOnCrash
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
    if (poolSize.isPresent() && !isPostgres(url)) {
      throw section.keyError(
          "pool-size",
          "pools are for PostgreSQL only; SQLite opens a connection per step",
          "remove pool-size here");
    }
    if (poolSize.isEmpty() && isPostgres(url)) {
      poolSize = Optional.of(DEFAULT_POOL_SIZE);
    }
    return new JdbcStoreConfig(
        url,
        section.string("user"),
        section.string("password").map(Secret::new),
        poolSize,
        section.positiveDuration("lock-timeout").orElse(Duration.ofSeconds(30)),
        section.positiveDuration("statement-timeout").orElse(Duration.ofSeconds(60)),
        section.positiveDuration("connect-timeout").orElse(Duration.ofSeconds(10)),
        section.positiveDuration("login-timeout").orElse(Duration.ofSeconds(30)),
        section.positiveDuration("socket-timeout").orElse(Duration.ofSeconds(90)),
        section.bool("unsafe-allow-epoch-rollback-on-crash").orElse(false));
  }
}
