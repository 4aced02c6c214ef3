package dev.fenceline.jdbc;

import dev.fenceline.spi.Adapter;
import dev.fenceline.spi.AdapterConfig;
import dev.fenceline.spi.AdapterFactory;
import dev.fenceline.spi.LocalWriteProblem;
import dev.fenceline.spi.StorePreflight;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
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
 *       {@code 8s}, {@code 500ms} or {@code PT8S}</td><td>{@code 8s}</td></tr>
 *   <tr><td>{@code statement-timeout}</td><td>how long one statement may run on PostgreSQL
 *       (see {@link JdbcStore.Builder#statementTimeout})</td><td>{@code 10s}</td></tr>
 *   <tr><td>{@code connect-timeout}</td><td>PostgreSQL TCP connect (see {@link
 *       JdbcStore.Builder#connectTimeout})</td><td>{@code 5s}</td></tr>
 *   <tr><td>{@code login-timeout}</td><td>PostgreSQL connect and log in (see {@link
 *       JdbcStore.Builder#loginTimeout})</td><td>{@code 8s}</td></tr>
 *   <tr><td>{@code socket-timeout}</td><td>wait for PostgreSQL's answers (see {@link
 *       JdbcStore.Builder#socketTimeout})</td><td>{@code 12s}</td></tr>
 *   <tr><td>{@code migration-timeout}</td><td>creating or migrating the tables when the store
 *       opens, in place of the lock, statement and socket timeouts (see {@link
 *       JdbcStore.Builder#migrationTimeout})</td><td>{@code 600s}</td></tr>
 *   <tr><td>{@code unsafe-allow-epoch-rollback-on-crash}</td><td>accept a database that can lose
 *       commits on a crash (see {@link JdbcStore})</td><td>{@code false}</td></tr>
 *   <tr><td>{@code pool-size}</td><td>PostgreSQL only: the size of the HikariCP connection pool
 *       (needs {@code com.zaxxer:HikariCP} on the class path); the login timeout also bounds the
 *       wait for a free connection</td><td>{@value #DEFAULT_POOL_SIZE} when HikariCP is on the
 *       class path, else a connection per step</td></tr>
 *   <tr><td>{@code receipt-retention}</td><td>how long operation records (receipts) are kept,
 *       as {@code 604800s} or {@code PT168H} (YAML also takes {@code 7d}); at least as long as
 *       callers may retry an operation (see {@link Retention}). Goes with {@code
 *       pointer-versions}</td><td>none: nothing is deleted</td></tr>
 *   <tr><td>{@code pointer-versions}</td><td>how many publish-pointer versions per pointer store
 *       and resource are kept, 1 to {@value #MAX_POINTER_VERSIONS}; at least the {@code
 *       keep-versions} of every staged destination publishing through this store. Goes with
 *       {@code receipt-retention}</td><td>none: nothing is deleted</td></tr>
 *   <tr><td>{@code prune-every}</td><td>prune in the background this often (see {@link
 *       JdbcStore.Builder#pruneEvery}); needs the two keys above. Without it, call {@link
 *       JdbcStore#prune()}</td><td>off</td></tr>
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
          "migration-timeout",
          "unsafe-allow-epoch-rollback-on-crash",
          "pool-size",
          "receipt-retention",
          "pointer-versions",
          "prune-every");

  /** The largest {@code pointer-versions} accepted. */
  public static final int MAX_POINTER_VERSIONS = 1_000_000;

  /** The pool size of a PostgreSQL store when HikariCP is on the class path. */
  public static final int DEFAULT_POOL_SIZE = 10;

  @Override
  public String name() {
    return "jdbc";
  }

  @Override
  public Adapter create(String instanceName, Map<String, String> values) {
    return create(instanceName, values, false);
  }

  /**
   * A store {@linkplain JdbcStore.Builder#readOnly opened read-only}: no tables created, no write
   * lock taken, a missing SQLite file not created.
   */
  @Override
  public Adapter createForReading(String instanceName, Map<String, String> values) {
    return create(instanceName, values, true);
  }

  private Adapter create(String instanceName, Map<String, String> values, boolean readOnly) {
    AdapterConfig config = AdapterConfig.of(name(), instanceName, values, KEYS);
    String url = config.required("url", "jdbc:sqlite:fenceline.db");
    JdbcStore.Builder builder = JdbcStore.builder().url(url).readOnly(readOnly);
    Optional<String> user = config.optional("user");
    Optional<String> password = config.optional("password");
    user.ifPresent(builder::user);
    password.ifPresent(builder::password);
    config.duration("lock-timeout").ifPresent(builder::lockTimeout);
    config.duration("statement-timeout").ifPresent(builder::statementTimeout);
    config.duration("connect-timeout").ifPresent(builder::connectTimeout);
    config.duration("login-timeout").ifPresent(builder::loginTimeout);
    config.duration("socket-timeout").ifPresent(builder::socketTimeout);
    config.duration("migration-timeout").ifPresent(builder::migrationTimeout);
    config
        .bool("unsafe-allow-epoch-rollback-on-crash")
        .ifPresent(builder::unsafeAllowEpochRollbackOnCrash);
    retention(config).ifPresent(builder::retention);
    Optional<Duration> pruneEvery = config.duration("prune-every");
    if (pruneEvery.isPresent()) {
      if (config.optional("receipt-retention").isEmpty()) {
        throw config.error(
            "key \"prune-every\" needs \"receipt-retention\" and \"pointer-versions\" (add"
                + " them, e.g. receipt-retention: PT168H and pointer-versions: 16, or remove"
                + " prune-every)");
      }
      if (pruneEvery.get().isNegative() || pruneEvery.get().isZero()) {
        throw config.error(
            "key \"prune-every\" has value \""
                + config.optional("prune-every").orElseThrow()
                + "\" (write a positive duration, e.g. PT1H or 3600s)");
      }
      builder.pruneEvery(pruneEvery.get());
    }
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
                config.duration("connect-timeout").orElse(JdbcStore.DEFAULT_CONNECT_TIMEOUT),
                config.duration("login-timeout").orElse(JdbcStore.DEFAULT_LOGIN_TIMEOUT),
                config.duration("socket-timeout").orElse(JdbcStore.DEFAULT_SOCKET_TIMEOUT));
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
      if (!readOnly) {
        createSqliteDirectory(url);
      }
      store = builder.build();
    }
    return new JdbcAdapter(store, pool);
  }

  /**
   * A SQLite file's directory is created as a {@code vfs} store's directory is (the driver creates
   * the file, not its directory), so that a fresh checkout's {@code ./fenceline-data} works. {@link
   * #preflight} reports it as "would create" instead.
   */
  private static void createSqliteDirectory(String url) {
    Optional<Path> directory = JdbcStore.sqliteFileOf(url).map(Path::getParent);
    if (directory.isEmpty() || Files.isDirectory(directory.get())) {
      return;
    }
    try {
      Files.createDirectories(directory.get());
    } catch (IOException e) {
      Optional<String> problem =
          LocalWriteProblem.of(directory.get()).map(LocalWriteProblem::describe);
      throw new dev.fenceline.spi.StoreException(
          "Cannot create directory "
              + directory.get()
              + " for SQLite database "
              + withoutQuery(url)
              + ": "
              + problem.orElse(String.valueOf(e))
              + " (create it, or point the url at a file in a writable directory)",
          e);
    }
  }

  /**
   * For a SQLite file: whether the file (or, if it is missing, its directory) exists and can be
   * written, creating nothing. Other databases are not checked (they are opened as before).
   */
  @Override
  public StorePreflight preflight(String instanceName, Map<String, String> values) {
    AdapterConfig config = AdapterConfig.of(name(), instanceName, values, KEYS);
    String url = config.required("url", "jdbc:sqlite:fenceline.db");
    Optional<Path> file = JdbcStore.sqliteFileOf(url);
    if (file.isEmpty()) {
      return StorePreflight.notChecked();
    }
    Path database = file.get();
    if (Files.isDirectory(database)) {
      return new StorePreflight(
          true,
          List.of(),
          List.of("not a file: " + database + " is a directory (point the url at a file)"));
    }
    Path nearest = LocalWriteProblem.nearestExisting(database);
    if (nearest != null && !nearest.equals(database) && !Files.isDirectory(nearest)) {
      return new StorePreflight(
          true, List.of(), List.of("not a directory: " + nearest + " (point the url elsewhere)"));
    }
    // WAL mode writes -wal and -shm files next to the database: its directory must be writable
    // too, not only the file.
    Path directory =
        nearest == null ? null : nearest.equals(database) ? database.getParent() : nearest;
    List<String> problems = new java.util.ArrayList<>();
    if (nearest != null && nearest.equals(database)) {
      LocalWriteProblem.of(database).ifPresent(problem -> problems.add(problem.finding()));
    }
    if (directory != null && problems.isEmpty()) {
      LocalWriteProblem.of(directory).ifPresent(problem -> problems.add(problem.finding()));
    }
    if (!problems.isEmpty()) {
      return new StorePreflight(true, List.of(), problems);
    }
    if (Files.exists(database)) {
      return StorePreflight.ready();
    }
    List<String> created = new java.util.ArrayList<>();
    if (!Files.isDirectory(database.getParent())) {
      created.add("directory " + database.getParent());
    }
    created.add("SQLite database " + database);
    return new StorePreflight(true, created, List.of());
  }

  private static String withoutQuery(String url) {
    int query = url.indexOf('?');
    return query < 0 ? url : url.substring(0, query);
  }

  /** The retention, if configured: both keys or neither. */
  private static Optional<Retention> retention(AdapterConfig config) {
    Optional<Duration> receipts = config.duration("receipt-retention");
    Optional<String> versions = config.optional("pointer-versions");
    if (receipts.isEmpty() && versions.isEmpty()) {
      return Optional.empty();
    }
    if (receipts.isEmpty()) {
      throw config.error(
          "key \"pointer-versions\" needs \"receipt-retention\" (add it, at least as long as"
              + " callers may retry an operation, e.g. receipt-retention: PT168H)");
    }
    if (versions.isEmpty()) {
      throw config.error(
          "key \"receipt-retention\" needs \"pointer-versions\" (add it, at least the"
              + " keep-versions of every staged destination on this store, e.g. pointer-versions:"
              + " 16)");
    }
    if (receipts.get().isNegative() || receipts.get().isZero()) {
      throw config.error(
          "key \"receipt-retention\" has value \""
              + config.optional("receipt-retention").orElseThrow()
              + "\" (write a positive duration at least as long as callers may retry an"
              + " operation, e.g. PT168H or 604800s)");
    }
    int count;
    try {
      count = Integer.parseInt(versions.get().trim());
    } catch (NumberFormatException e) {
      count = 0;
    }
    if (count < 1 || count > MAX_POINTER_VERSIONS) {
      throw config.error(
          "key \"pointer-versions\" has value \""
              + versions.get()
              + "\" (write a whole number from 1 to "
              + MAX_POINTER_VERSIONS
              + ", at least the keep-versions of every staged destination on this store)");
    }
    return Optional.of(new Retention(receipts.get(), count));
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
