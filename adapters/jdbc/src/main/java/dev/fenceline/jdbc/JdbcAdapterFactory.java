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

import dev.fenceline.spi.Adapter;
import dev.fenceline.spi.AdapterConfig;
import dev.fenceline.spi.AdapterFactory;
import dev.fenceline.spi.ConfigKey;
import dev.fenceline.spi.LocalWriteProblem;
import dev.fenceline.spi.StoreException;
import dev.fenceline.spi.StorePreflight;
import dev.fenceline.spi.StoreRole;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The {@code jdbc} adapter: a lease issuer, pointer stores and intent stores on one SQLite or
 * PostgreSQL database ({@link JdbcStore}). Its keys are declared in {@link #configKeys()} (listed
 * in {@code docs/configuration-reference.md}); the PostgreSQL-only ones say so, and {@link
 * #validate} refuses them for a SQLite database, where they would be ignored.
 */
public final class JdbcAdapterFactory implements AdapterFactory {

  /** The largest {@code pointer-versions} accepted. */
  public static final int MAX_POINTER_VERSIONS = 1_000_000;

  /** The pool size of a PostgreSQL store when HikariCP is on the class path. */
  public static final int DEFAULT_POOL_SIZE = 10;

  private static final String POSTGRES_ONLY = "PostgreSQL only: ";

  private static final List<ConfigKey> KEYS =
      List.of(
          ConfigKey.string("url")
              .required()
              .example("jdbc:sqlite:/var/lib/fenceline/fenceline.db")
              .description(
                  "The database: jdbc:sqlite:/path/fenceline.db or"
                      + " jdbc:postgresql://host:5432/db.")
              .build(),
          ConfigKey.string("user").description(POSTGRES_ONLY + "the database user.").build(),
          ConfigKey.string("password")
              .secret()
              .description(POSTGRES_ONLY + "the database password.")
              .build(),
          ConfigKey.integer("pool-size", 1, 1000)
              .description(
                  POSTGRES_ONLY
                      + "connections in the HikariCP pool (with com.zaxxer:HikariCP on the class"
                      + " path; default "
                      + DEFAULT_POOL_SIZE
                      + " there, else a connection per step).")
              .build(),
          ConfigKey.duration("lock-timeout")
              .defaultValue(JdbcStore.DEFAULT_LOCK_TIMEOUT)
              .description("How long a step waits for another writer's lock.")
              .build(),
          ConfigKey.duration("statement-timeout")
              .defaultValue(JdbcStore.DEFAULT_STATEMENT_TIMEOUT)
              .description(POSTGRES_ONLY + "how long one statement may run.")
              .build(),
          ConfigKey.duration("connect-timeout")
              .defaultValue(JdbcStore.DEFAULT_CONNECT_TIMEOUT)
              .description(POSTGRES_ONLY + "the TCP connect.")
              .build(),
          ConfigKey.duration("login-timeout")
              .defaultValue(JdbcStore.DEFAULT_LOGIN_TIMEOUT)
              .description(
                  POSTGRES_ONLY + "connecting and logging in, also the wait for a pooled one.")
              .build(),
          ConfigKey.duration("socket-timeout")
              .defaultValue(JdbcStore.DEFAULT_SOCKET_TIMEOUT)
              .description(POSTGRES_ONLY + "the wait for PostgreSQL's answers.")
              .build(),
          ConfigKey.duration("migration-timeout")
              .defaultValue(JdbcStore.DEFAULT_MIGRATION_TIMEOUT)
              .description(
                  POSTGRES_ONLY
                      + "creating or migrating the tables when the store opens, in place of the"
                      + " lock, statement and socket timeouts.")
              .build(),
          ConfigKey.bool("unsafe-allow-epoch-rollback-on-crash")
              .defaultValue(false)
              .description("Accept a database that can lose commits on a crash (tests only).")
              .build(),
          ConfigKey.duration("receipt-retention")
              .description(
                  "How long operation records (receipts) are kept, at least as long as callers"
                      + " may retry an operation; goes with pointer-versions; unset: kept forever.")
              .build(),
          ConfigKey.integer("pointer-versions", 1, MAX_POINTER_VERSIONS)
              .description(
                  "Publish-pointer versions kept per pointer store and resource, at least the"
                      + " keep-versions of every staged destination on this store; goes with"
                      + " receipt-retention; unset: kept forever.")
              .build(),
          ConfigKey.duration("prune-every")
              .description(
                  "Prune in the background this often (needs receipt-retention and"
                      + " pointer-versions); unset: only JdbcStore.prune() or fenceline prune.")
              .build());

  /** The keys a {@code jdbc:sqlite:} database ignores: SQLite runs in the process. */
  private static final List<String> POSTGRES_KEYS =
      KEYS.stream()
          .filter(key -> key.description().startsWith(POSTGRES_ONLY))
          .map(ConfigKey::name)
          .toList();

  @Override
  public String name() {
    return "jdbc";
  }

  @Override
  public List<ConfigKey> configKeys() {
    return KEYS;
  }

  @Override
  public Set<StoreRole> roles() {
    return Set.of(StoreRole.LEASE_ISSUER, StoreRole.POINTER_STORE, StoreRole.INTENT_STORE);
  }

  @Override
  public Optional<String> pointerVersionsKey() {
    return Optional.of("pointer-versions");
  }

  /**
   * Checks the keys as {@link #create} does, and also refuses a URL that is neither SQLite nor
   * PostgreSQL and the PostgreSQL-only keys on SQLite, which {@link #create} would ignore.
   */
  @Override
  public void validate(String instanceName, Map<String, String> values) {
    AdapterConfig config = configuration(instanceName, values);
    String url = config.required("url");
    if (!url.startsWith("jdbc:sqlite:") && !postgres(url)) {
      throw config.error(
          "url",
          "key \"url\" is neither a SQLite nor a PostgreSQL URL (write"
              + " jdbc:sqlite:/path/fenceline.db or jdbc:postgresql://host:5432/db)");
    }
    if (!postgres(url)) {
      refusePostgresKeys(config);
    }
    checkRules(config);
  }

  private static void refusePostgresKeys(AdapterConfig config) {
    for (String key : POSTGRES_KEYS) {
      if (!config.isSet(key)) {
        continue;
      }
      if (key.equals("pool-size")) {
        throw config.error(
            key,
            "pools are for PostgreSQL only; SQLite opens a connection per step (remove pool-size"
                + " here)");
      }
      TreeSet<String> sqliteKeys = new TreeSet<>();
      KEYS.forEach(declared -> sqliteKeys.add(declared.name()));
      sqliteKeys.removeAll(POSTGRES_KEYS);
      throw config.error(
          key,
          key
              + " does not apply to a jdbc:sqlite store: SQLite runs in this process, without"
              + " users, passwords, pools or network timeouts, so the key would be ignored (remove"
              + " it, or point url at PostgreSQL (jdbc:postgresql://host:5432/db); keys for"
              + " jdbc:sqlite: "
              + String.join(", ", sqliteKeys)
              + ")");
    }
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
    AdapterConfig config = configuration(instanceName, values);
    checkRules(config);
    String url = config.required("url");
    JdbcStore.Builder builder = JdbcStore.builder().url(url).readOnly(readOnly);
    config.optional("user").ifPresent(builder::user);
    config.optional("password").ifPresent(builder::password);
    builder
        .lockTimeout(config.duration("lock-timeout").orElseThrow())
        .statementTimeout(config.duration("statement-timeout").orElseThrow())
        .connectTimeout(config.duration("connect-timeout").orElseThrow())
        .loginTimeout(config.duration("login-timeout").orElseThrow())
        .socketTimeout(config.duration("socket-timeout").orElseThrow())
        .migrationTimeout(config.duration("migration-timeout").orElseThrow())
        .unsafeAllowEpochRollbackOnCrash(
            config.bool("unsafe-allow-epoch-rollback-on-crash").orElseThrow());
    Optional<Duration> receipts = config.duration("receipt-retention");
    if (receipts.isPresent()) {
      int versions = (int) (long) config.number("pointer-versions").orElseThrow();
      builder.retention(new Retention(receipts.get(), versions));
    }
    config.duration("prune-every").ifPresent(builder::pruneEvery);
    Optional<Integer> poolSize = poolSize(config, url);
    if (poolSize.isEmpty()) {
      if (!readOnly) {
        createSqliteDirectory(url);
      }
      return new JdbcAdapter(builder.build(), null);
    }
    return pooled(instanceName, config, builder, poolSize.get());
  }

  /** A PostgreSQL store on a HikariCP pool of {@code size} connections, closed with it. */
  private static Adapter pooled(
      String instanceName, AdapterConfig config, JdbcStore.Builder builder, int size) {
    String url = config.required("url");
    String shownUrl = withoutQuery(url);
    com.zaxxer.hikari.HikariDataSource dataSource;
    try {
      dataSource =
          PostgresPool.open(
              instanceName,
              url,
              config.optional("user"),
              config.optional("password"),
              size,
              config.duration("connect-timeout").orElseThrow(),
              config.duration("login-timeout").orElseThrow(),
              config.duration("socket-timeout").orElseThrow(),
              config.duration("lock-timeout").orElseThrow(),
              config.duration("statement-timeout").orElseThrow());
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
    try {
      return new JdbcAdapter(
          builder.dataSource(dataSource, shownUrl + " (pool of " + size + ")").build(), dataSource);
    } catch (RuntimeException e) {
      dataSource.close();
      throw e;
    }
  }

  /**
   * The keys checked against their declarations, after the two values this adapter explains in its
   * own words: a pool size that is no number from 1 to 1000, and a retention that is not positive
   * (receipts are pruned after it, so it must outlast every retry).
   */
  private AdapterConfig configuration(String instanceName, Map<String, String> values) {
    AdapterConfig config = AdapterConfig.unchecked(this, instanceName, values);
    Optional<String> poolSize = config.optional("pool-size");
    if (poolSize.isPresent() && declared("pool-size").problemWith(poolSize.get()).isPresent()) {
      throw config.error(
          "pool-size",
          "key \"pool-size\" has value "
              + config.shown("pool-size", poolSize.get())
              + " (write a whole number from 1 to 1000)");
    }
    Optional<Duration> receipts =
        config.optional("receipt-retention").flatMap(ConfigKey::parseDuration);
    if (receipts.isPresent() && (receipts.get().isNegative() || receipts.get().isZero())) {
      throw config.error(
          "receipt-retention",
          "key \"receipt-retention\" has value "
              + config.shown("receipt-retention", config.optional("receipt-retention").get())
              + " (write a positive duration at least as long as callers may retry an"
              + " operation, e.g. PT168H or 604800s)");
    }
    return config.checkValues();
  }

  private static ConfigKey declared(String name) {
    return KEYS.stream().filter(key -> key.name().equals(name)).findFirst().orElseThrow();
  }

  /** The rules between keys that {@link #create} applies too. */
  private static void checkRules(AdapterConfig config) {
    if (config.isSet("pool-size") && !postgres(config.required("url"))) {
      throw config.error(
          "pool-size",
          "key \"pool-size\" is for PostgreSQL only (remove it; SQLite opens a connection per"
              + " step)");
    }
    boolean receipts = config.isSet("receipt-retention");
    boolean versions = config.isSet("pointer-versions");
    if (versions && !receipts) {
      throw config.error(
          "receipt-retention",
          "key \"pointer-versions\" needs \"receipt-retention\" (pointer-versions is set, and"
              + " receipt-retention goes with it: add it, at least as long as callers may retry an"
              + " operation, e.g. receipt-retention: PT168H)");
    }
    if (receipts && !versions) {
      throw config.error(
          "pointer-versions",
          "key \"receipt-retention\" needs \"pointer-versions\" (receipt-retention is set, and"
              + " pointer-versions goes with it: add it, at least the keep-versions of every"
              + " staged destination on this store, e.g. pointer-versions: 16)");
    }
    if (config.isSet("prune-every") && !receipts) {
      throw config.error(
          "prune-every",
          "key \"prune-every\" needs \"receipt-retention\" and \"pointer-versions\": there is"
              + " nothing to prune without receipt-retention and pointer-versions (add them, e.g."
              + " receipt-retention: PT168H and pointer-versions: 16, or remove prune-every)");
    }
  }

  private static boolean postgres(String url) {
    return url.startsWith("jdbc:postgresql:");
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
      throw new StoreException(
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
    AdapterConfig config = configuration(instanceName, values);
    checkRules(config);
    Optional<Path> file = JdbcStore.sqliteFileOf(config.required("url"));
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
    List<String> problems = new ArrayList<>();
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
    List<String> created = new ArrayList<>();
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

  /** The pool size for a PostgreSQL URL, if pooled: the key, else the default with HikariCP. */
  private static Optional<Integer> poolSize(AdapterConfig config, String url) {
    Optional<Long> size = config.number("pool-size");
    if (size.isPresent()) {
      if (!PostgresPool.available()) {
        throw config.error(
            "pool-size",
            "key \"pool-size\" needs HikariCP on the class path (add com.zaxxer:HikariCP)");
      }
      return Optional.of(size.get().intValue());
    }
    return postgres(url) && PostgresPool.available()
        ? Optional.of(DEFAULT_POOL_SIZE)
        : Optional.empty();
  }
}
