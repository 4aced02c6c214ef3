package dev.fenceline.jdbc;

import dev.fenceline.spi.Adapter;
import dev.fenceline.spi.AdapterConfig;
import dev.fenceline.spi.AdapterFactory;
import dev.fenceline.spi.IntentStore;
import dev.fenceline.spi.LeaseIssuer;
import dev.fenceline.spi.PointerStore;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The {@code jdbc} adapter: a lease issuer, pointer stores and intent stores on one SQLite or
 * PostgreSQL database. Keys:
 *
 * <table>
 *   <caption>jdbc adapter configuration</caption>
 *   <tr><th>key</th><th>meaning</th><th>default</th></tr>
 *   <tr><td>{@code url}</td><td>JDBC URL ({@code jdbc:sqlite:...} or {@code
 *       jdbc:postgresql://...})</td><td>required</td></tr>
 *   <tr><td>{@code user}</td><td>database user</td><td>none</td></tr>
 *   <tr><td>{@code password}</td><td>database password (never shown in messages)</td>
 *       <td>none</td></tr>
 *   <tr><td>{@code lock-timeout}</td><td>how long a step waits for another writer's lock, as
 *       {@code 30s}, {@code 500ms} or {@code PT30S}</td><td>{@code 30s}</td></tr>
 *   <tr><td>{@code statement-timeout}</td><td>how long one statement may run on PostgreSQL
 *       (see {@link JdbcStore.Builder#statementTimeout})</td><td>{@code 60s}</td></tr>
 *   <tr><td>{@code connect-timeout}</td><td>PostgreSQL TCP connect (see {@link
 *       JdbcStore.Builder#connectTimeout})</td><td>{@code 10s}</td></tr>
 *   <tr><td>{@code login-timeout}</td><td>PostgreSQL connect and log in (see {@link
 *       JdbcStore.Builder#loginTimeout})</td><td>{@code 30s}</td></tr>
 *   <tr><td>{@code socket-timeout}</td><td>wait for PostgreSQL's answers (see {@link
 *       JdbcStore.Builder#socketTimeout})</td><td>{@code 90s}</td></tr>
 *   <tr><td>{@code unsafe-allow-epoch-rollback-on-crash}</td><td>accept a database that can lose
 *       commits on a crash (see {@link JdbcStore})</td><td>{@code false}</td></tr>
 *   <tr><td>{@code pool-size}</td><td>PostgreSQL only: the size of the HikariCP connection pool
 *       (needs {@code com.zaxxer:HikariCP} on the class path); the login timeout also bounds the
 *       wait for a free connection</td><td>{@value #DEFAULT_POOL_SIZE} when HikariCP is on the
 *       class path, else a connection per step</td></tr>
 * </table>
 */
public final class JdbcAdapterFactory implements AdapterFactory {

  private static final Set<String> KEYS =
      Set.of(
          "url",
          "user",
          "password",
          "lock-timeout",
          "statement-timeout",
          "connect-timeout",
          "login-timeout",
          "socket-timeout",
          "unsafe-allow-epoch-rollback-on-crash",
          "pool-size");

  /** The pool size of a PostgreSQL store when HikariCP is on the class path. */
  public static final int DEFAULT_POOL_SIZE = 10;

  @Override
  public String name() {
    return "jdbc";
  }

  @Override
  public Adapter create(String instanceName, Map<String, String> values) {
    AdapterConfig config = AdapterConfig.of(name(), instanceName, values, KEYS);
    String url = config.required("url", "jdbc:sqlite:fenceline.db");
    JdbcStore.Builder builder = JdbcStore.builder().url(url);
    Optional<String> user = config.optional("user");
    Optional<String> password = config.optional("password");
    user.ifPresent(builder::user);
    password.ifPresent(builder::password);
    config.duration("lock-timeout").ifPresent(builder::lockTimeout);
    config.duration("statement-timeout").ifPresent(builder::statementTimeout);
    config.duration("connect-timeout").ifPresent(builder::connectTimeout);
    config.duration("login-timeout").ifPresent(builder::loginTimeout);
    config.duration("socket-timeout").ifPresent(builder::socketTimeout);
    config
        .bool("unsafe-allow-epoch-rollback-on-crash")
        .ifPresent(builder::unsafeAllowEpochRollbackOnCrash);
    Optional<Integer> poolSize = poolSize(config, url);
    AutoCloseable pool = null;
    JdbcStore store;
    if (poolSize.isPresent()) {
      int query = url.indexOf('?');
      String shownUrl = query < 0 ? url : url.substring(0, query);
      com.zaxxer.hikari.HikariDataSource dataSource;
      try {
        dataSource =
            PostgresPool.open(
                instanceName,
                url,
                user,
                password,
                poolSize.get(),
                config.duration("connect-timeout").orElse(Duration.ofSeconds(10)),
                config.duration("login-timeout").orElse(Duration.ofSeconds(30)),
                config.duration("socket-timeout").orElse(Duration.ofSeconds(90)));
      } catch (RuntimeException e) {
        // HikariCP's messages repeat the URL, query (and so any password in it) included: not
        // passed on.
        throw config.error(
            "cannot create a connection pool for "
                + shownUrl
                + ": "
                + e.getClass().getSimpleName()
                + " (check that the PostgreSQL driver org.postgresql:postgresql is on the class"
                + " path)");
      }
      pool = dataSource;
      try {
        store =
            builder.dataSource(dataSource, shownUrl + " (pool of " + poolSize.get() + ")").build();
      } catch (RuntimeException e) {
        dataSource.close();
        throw e;
      }
    } else {
      store = builder.build();
    }
    AutoCloseable openPool = pool;
    return new Adapter() {
      @Override
      public Optional<LeaseIssuer> leaseIssuer() {
        return Optional.of(store.leaseIssuer());
      }

      @Override
      public Optional<PointerStore> pointerStore(String name) {
        return Optional.of(store.pointerStore(name));
      }

      @Override
      public Optional<IntentStore> intentStore(String name) {
        return Optional.of(store.intentStore(name));
      }

      @Override
      public void close() {
        store.close();
        if (openPool != null) {
          try {
            openPool.close();
          } catch (Exception e) {
            throw new dev.fenceline.spi.StoreException(
                "Cannot close the connection pool of " + store.description() + ": " + e, e);
          }
        }
      }
    };
  }

  /** The pool size for a PostgreSQL URL, if pooled: the key, else the default with HikariCP. */
  private static Optional<Integer> poolSize(AdapterConfig config, String url) {
    Optional<String> value = config.optional("pool-size");
    boolean postgres = url.startsWith("jdbc:postgresql:");
    if (value.isPresent()) {
      if (!postgres) {
        throw config.error(
            "key \"pool-size\" is for PostgreSQL only (remove it; SQLite opens a connection per"
                + " step)");
      }
      int size;
      try {
        size = Integer.parseInt(value.get().trim());
      } catch (NumberFormatException e) {
        size = 0;
      }
      if (size < 1 || size > 1000) {
        throw config.error(
            "key \"pool-size\" has value \""
                + value.get()
                + "\" (write a whole number from 1 to 1000)");
      }
      if (!PostgresPool.available()) {
        throw config.error(
            "key \"pool-size\" needs HikariCP on the class path (add com.zaxxer:HikariCP)");
      }
      return Optional.of(size);
    }
    return postgres && PostgresPool.available() ? Optional.of(DEFAULT_POOL_SIZE) : Optional.empty();
  }
}
