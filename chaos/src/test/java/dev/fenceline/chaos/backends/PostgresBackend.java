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
package dev.fenceline.chaos.backends;

import dev.fenceline.chaos.StoreFaults;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * An embedded PostgreSQL 17 server (zonky binaries) with {@code fsync} and {@code
 * synchronous_commit} on, on a data directory and a port that stay the same across restarts and
 * crashes. The YAML has a {@code jdbc} store on it (issuer and pointer store), a {@code vfs}
 * directory and the staged destination {@code files} (blobs in the directory, pointers in
 * PostgreSQL). (No {@code type: fenced} destination: no adapter offers one to the YAML yet.)
 *
 * <p>Store faults: {@code store-restart} stops the server the fast way ({@code pg_ctl stop -m
 * fast}: open transactions roll back, connections are cut) and {@link StoreFaults#heal} starts it
 * again on the same data directory; {@code store-kill} SIGKILLs the postmaster and every process it
 * started (a crash: no shutdown checkpoint), and heal starts it again, which runs crash recovery
 * from the WAL. The server is down from {@code inject} until {@code heal}.
 */
public final class PostgresBackend implements ChaosBackend {

  /** The faults this backend injects. */
  public static final List<String> FAULTS = List.of("store-restart", "store-kill");

  private final Path workDir;
  private final Path dataDirectory;
  private final Path files;
  private int port;
  private EmbeddedPostgres server;
  private final Faults faults = new Faults();

  private PostgresBackend(Path workDir) {
    this.workDir = workDir;
    this.dataDirectory = workDir.resolve("pgdata");
    this.files = workDir.resolve("files");
  }

  /**
   * Starts a server whose data and published files live under {@code workDir} (created if missing).
   *
   * @throws IllegalStateException if the server cannot start (the message carries the cause)
   */
  public static PostgresBackend start(Path workDir) {
    PostgresBackend backend = new PostgresBackend(workDir.toAbsolutePath());
    try {
      Files.createDirectories(backend.dataDirectory);
      Files.createDirectories(backend.files);
      backend.startServer();
      return backend;
    } catch (IOException | RuntimeException e) {
      backend.close();
      throw new IllegalStateException("Cannot start PostgreSQL in " + workDir + ": " + e, e);
    }
  }

  @Override
  public String name() {
    return "postgres";
  }

  @Override
  public String destination() {
    return "files";
  }

  /** {@return the JDBC URL of the server (the same after every restart)} */
  public String jdbcUrl() {
    return "jdbc:postgresql://127.0.0.1:" + port + "/postgres";
  }

  /** {@return true if the server runs (between a fault and its heal it does not)} */
  public synchronized boolean running() {
    return server != null;
  }

  @Override
  public Path writeConfig(Path dir) {
    String yaml =
        String.join(
            "\n",
            "# PostgreSQL "
                + jdbcUrl()
                + " (data "
                + dataDirectory
                + "), written by PostgresBackend",
            "stores:",
            "  main:",
            "    type: jdbc",
            "    url: " + jdbcUrl(),
            "    user: postgres",
            "    pool-size: 4",
            "    lock-timeout: 2s",
            "    statement-timeout: 3s",
            // Opening a pool in a cold worker JVM on a loaded 2-core machine took over 2 s.
            "    connect-timeout: 2s",
            "    login-timeout: 5s",
            "    socket-timeout: 4s",
            "  dir:",
            "    type: vfs",
            "    uri: " + Yaml.quote(files.toString()),
            "issuer: main",
            "lease:",
            "  ttl: 5s",
            "destinations:",
            "  files:",
            "    store: dir",
            "    pointer-store: main",
            "");
    return Yaml.write(dir, yaml);
  }

  @Override
  public StoreFaults storeFaults() {
    return faults;
  }

  @Override
  public Map<String, String> endpoints() {
    Map<String, String> endpoints = new LinkedHashMap<>();
    endpoints.put("jdbc", jdbcUrl());
    endpoints.put("data", dataDirectory.toString());
    endpoints.put("files", files.toString());
    return endpoints;
  }

  @Override
  public synchronized void close() {
    if (server != null) {
      stopServer();
    }
  }

  private synchronized void startServer() throws IOException {
    if (server != null) {
      return;
    }
    server =
        EmbeddedPostgres.builder()
            .setDataDirectory(dataDirectory)
            .setCleanDataDirectory(false)
            // The library's 10 s wait gave up on a loaded 2-core machine (see PostgresDatabase).
            .setPGStartupWait(Duration.ofSeconds(60))
            .setPort(port)
            .setServerConfig("fsync", "on")
            .setServerConfig("synchronous_commit", "on")
            .setServerConfig("listen_addresses", "127.0.0.1")
            .start();
    port = server.getPort();
  }

  /** {@code pg_ctl stop -m fast}; also releases the embedded wrapper's lock after a kill. */
  private synchronized void stopServer() {
    EmbeddedPostgres stopping = server;
    server = null;
    try {
      stopping.close();
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot stop PostgreSQL on port " + port, e);
    }
  }

  /** SIGKILL to the postmaster and every process it started, then waits until all are gone. */
  private synchronized String killServer() throws Exception {
    long pid = Long.parseLong(Files.readAllLines(dataDirectory.resolve("postmaster.pid")).get(0));
    ProcessHandle postmaster =
        ProcessHandle.of(pid)
            .orElseThrow(() -> new IllegalStateException("postmaster " + pid + " is not running"));
    List<ProcessHandle> all = new ArrayList<>();
    all.add(postmaster);
    postmaster.descendants().forEach(all::add);
    Processes.signal("-KILL", all.stream().map(ProcessHandle::pid).toList());
    for (ProcessHandle process : all) {
      process.onExit().get(30, TimeUnit.SECONDS);
    }
    stopServer(); // pg_ctl finds no server; the wrapper's lock file is released
    return "SIGKILL postmaster " + pid + " and its " + (all.size() - 1) + " processes";
  }

  private final class Faults implements StoreFaults {

    @Override
    public List<String> kinds() {
      return FAULTS;
    }

    @Override
    public String inject(String kind, Random random) throws Exception {
      synchronized (PostgresBackend.this) {
        if (server == null) {
          throw new IllegalStateException(
              "Cannot inject " + kind + ": PostgreSQL is already down (call heal() first)");
        }
        switch (kind) {
          case "store-restart" -> {
            stopServer();
            return "stopped PostgreSQL on port " + port + " (fast shutdown)";
          }
          case "store-kill" -> {
            return killServer();
          }
          default ->
              throw new IllegalArgumentException(
                  "Cannot inject fault '" + kind + "' on PostgreSQL: the kinds are " + FAULTS);
        }
      }
    }

    @Override
    public void heal() throws Exception {
      startServer();
    }

    @Override
    public void close() {
      // The server belongs to the backend; its close() stops it.
    }
  }
}
