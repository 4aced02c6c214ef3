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
package dev.fenceline.benchmarks;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.fenceline.benchmarks.Options.StoreKind;
import dev.fenceline.jdbc.JdbcStore;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.sql.DataSource;
import net.javacrumbs.shedlock.provider.jdbc.JdbcLockProvider;

/**
 * One database under test with the single HikariCP pool that every row uses: the {@link JdbcStore}
 * (through {@code builder().dataSource(pool, ...)}), ShedLock's {@link JdbcLockProvider} and the
 * raw upsert all take their connections from it, so pooling costs the same on every row.
 */
final class Database implements AutoCloseable {

  /** The benchmark table of the raw upsert and of the fenced write's change. */
  static final String UPSERT =
      "INSERT INTO bench_kv (k, v) VALUES (?, ?) ON CONFLICT (k) DO UPDATE SET v = excluded.v";

  private final StoreKind kind;
  private final HikariDataSource pool;
  private final EmbeddedPostgres server;
  private final JdbcStore store;
  private final JdbcLockProvider shedLock;
  private final Map<String, String> settings;

  private Database(StoreKind kind, HikariDataSource pool, EmbeddedPostgres server) {
    this.kind = kind;
    this.pool = pool;
    this.server = server;
    try {
      createBenchmarkTables(pool);
      this.settings = readSettings(kind, pool);
    } catch (SQLException e) {
      throw new IllegalStateException(
          "Cannot prepare the benchmark tables on " + kind.shown() + ": " + e.getMessage(), e);
    }
    // Refuses a database that can lose commits (fsync or synchronous_commit off, SQLite
    // synchronous below FULL): the numbers are those of a durable setup or none.
    this.store = JdbcStore.builder().dataSource(pool, kind.shown() + " (benchmark pool)").build();
    // shedlock-provider-jdbc 6.9.2 has no configuration object: usingDbTime() belongs to the
    // Spring JdbcTemplateLockProvider. JdbcLockProvider(dataSource) uses the table "shedlock" and
    // the JVM's clock; each lock and each unlock is one auto-commit UPDATE (an INSERT the first
    // time a name is used).
    this.shedLock = new JdbcLockProvider(pool);
  }

  /**
   * Starts embedded PostgreSQL 17 in {@code directory} with durable settings. The embedded default
   * runs with {@code fsync=off} ({@code -F}) and {@code synchronous_commit=off}; both are set back
   * to on here, and {@code full_page_writes} too, and checked after the start.
   */
  static Database postgres(Path directory, int poolSize) throws IOException {
    EmbeddedPostgres server =
        EmbeddedPostgres.builder()
            .setDataDirectory(directory)
            .setCleanDataDirectory(true)
            .setServerConfig("fsync", "on")
            .setServerConfig("synchronous_commit", "on")
            .setServerConfig("full_page_writes", "on")
            .start();
    try {
      HikariConfig config = new HikariConfig();
      config.setPoolName("bench-postgresql");
      config.setJdbcUrl(server.getJdbcUrl("postgres", "postgres"));
      config.setMaximumPoolSize(poolSize);
      config.setMinimumIdle(poolSize);
      config.setConnectionTimeout(30_000);
      config.addDataSourceProperty("socketTimeout", "90");
      // The store's default lock and statement timeouts as the sessions' own, as docs/jdbc.md
      // recommends for a pool of your own: the one-statement steps are then sent bare. The other
      // rows (raw upsert, ShedLock) share the pool and pay nothing for it.
      config.addDataSourceProperty("options", SESSION_OPTIONS);
      return open(StoreKind.POSTGRESQL, config, server);
    } catch (RuntimeException e) {
      server.close();
      throw e;
    }
  }

  /** pgjdbc {@code options} with JdbcStore's default lock and statement timeouts. */
  static final String SESSION_OPTIONS =
      "-c lock_timeout="
          + JdbcStore.DEFAULT_LOCK_TIMEOUT.toMillis()
          + " -c statement_timeout="
          + JdbcStore.DEFAULT_STATEMENT_TIMEOUT.toMillis();

  private static Database open(StoreKind kind, HikariConfig config, EmbeddedPostgres server) {
    HikariDataSource pool = new HikariDataSource(config);
    try {
      return new Database(kind, pool, server);
    } catch (RuntimeException e) {
      pool.close();
      throw e;
    }
  }

  /**
   * Opens the SQLite file {@code file} in WAL mode with {@code synchronous=FULL} (JdbcStore's
   * requirement) and a 30 s busy timeout on every pooled connection.
   */
  static Database sqlite(Path file, int poolSize) {
    HikariConfig config = new HikariConfig();
    config.setPoolName("bench-sqlite");
    config.setJdbcUrl("jdbc:sqlite:" + file.toAbsolutePath());
    config.setMaximumPoolSize(poolSize);
    config.setMinimumIdle(poolSize);
    config.setConnectionTimeout(30_000);
    // sqlite-jdbc applies these pragmas to every connection it opens.
    config.addDataSourceProperty("journal_mode", "WAL");
    config.addDataSourceProperty("synchronous", "FULL");
    config.addDataSourceProperty("busy_timeout", "30000");
    return open(StoreKind.SQLITE, config, null);
  }

  StoreKind kind() {
    return kind;
  }

  DataSource pool() {
    return pool;
  }

  JdbcStore store() {
    return store;
  }

  JdbcLockProvider shedLock() {
    return shedLock;
  }

  /** The durability settings in force and the versions, for the report. */
  Map<String, String> settings() {
    return settings;
  }

  /**
   * Runs the raw upsert of row 1 on {@code connection} (auto-commit or the caller's transaction).
   */
  static void upsert(Connection connection, String key, long value) throws SQLException {
    try (var statement = connection.prepareStatement(UPSERT)) {
      statement.setString(1, key);
      statement.setLong(2, value);
      statement.executeUpdate();
    }
  }

  private static void createBenchmarkTables(DataSource pool) throws SQLException {
    try (Connection connection = pool.getConnection();
        Statement statement = connection.createStatement()) {
      statement.execute(
          "CREATE TABLE IF NOT EXISTS bench_kv (k VARCHAR(200) NOT NULL PRIMARY KEY,"
              + " v BIGINT NOT NULL)");
      // ShedLock's documented table.
      statement.execute(
          "CREATE TABLE IF NOT EXISTS shedlock (name VARCHAR(64) NOT NULL,"
              + " lock_until TIMESTAMP NOT NULL, locked_at TIMESTAMP NOT NULL,"
              + " locked_by VARCHAR(255) NOT NULL, PRIMARY KEY (name))");
    }
  }

  private static Map<String, String> readSettings(StoreKind kind, DataSource pool)
      throws SQLException {
    Map<String, String> settings = new LinkedHashMap<>();
    try (Connection connection = pool.getConnection()) {
      if (kind == StoreKind.POSTGRESQL) {
        settings.put("version", query(connection, "SHOW server_version"));
        for (String name :
            new String[] {
              "fsync", "synchronous_commit", "full_page_writes", "wal_sync_method", "shared_buffers"
            }) {
          settings.put(name, query(connection, "SHOW " + name));
        }
      } else {
        settings.put("version", query(connection, "SELECT sqlite_version()"));
        settings.put("journal_mode", query(connection, "PRAGMA journal_mode"));
        String synchronous = query(connection, "PRAGMA synchronous");
        settings.put(
            "synchronous",
            synchronous
                + switch (synchronous) {
                  case "0" -> " (OFF)";
                  case "1" -> " (NORMAL)";
                  case "2" -> " (FULL)";
                  case "3" -> " (EXTRA)";
                  default -> "";
                });
        settings.put("busy_timeout", query(connection, "PRAGMA busy_timeout") + " ms");
      }
    }
    return settings;
  }

  private static String query(Connection connection, String sql) throws SQLException {
    try (Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery(sql)) {
      rows.next();
      return rows.getString(1);
    }
  }

  @Override
  public void close() throws IOException {
    try {
      store.close();
      pool.close();
    } finally {
      if (server != null) {
        server.close();
      }
    }
  }

  /** Deletes {@code directory} and everything below it (best effort). */
  static void deleteTree(Path directory) {
    if (!Files.exists(directory)) {
      return;
    }
    try (var paths = Files.walk(directory)) {
      paths
          .sorted(java.util.Comparator.reverseOrder())
          .forEach(
              path -> {
                try {
                  Files.deleteIfExists(path);
                } catch (IOException e) {
                  System.err.println("Cannot delete " + path + ": " + e.getMessage());
                }
              });
    } catch (IOException e) {
      System.err.println("Cannot delete " + directory + ": " + e.getMessage());
    }
  }
}
