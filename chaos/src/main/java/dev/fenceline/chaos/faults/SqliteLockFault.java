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
package dev.fenceline.chaos.faults;

import static java.util.Objects.requireNonNull;

import dev.fenceline.chaos.StoreFaults;
import java.net.URI;
import java.nio.file.FileSystemNotFoundException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Store fault {@code store-lock} for a SQLite database file: takes the database's exclusive lock
 * ({@code BEGIN EXCLUSIVE} on a connection of its own) and holds it for a random 1 to 3 s, or until
 * {@link #heal()}, then rolls back (it wrote nothing). Meanwhile every writer, and in
 * rollback-journal mode every reader, waits up to its busy timeout ({@code lock-timeout} of the
 * store, default 8s) and fails with SQLITE_BUSY after it.
 *
 * <p>Plain JDBC through {@link DriverManager}: the SQLite driver ({@code org.xerial:sqlite-jdbc})
 * is needed at run time only, and is there wherever a {@code jdbc:sqlite:} store can be opened at
 * all (the jdbc adapter depends on it).
 */
public final class SqliteLockFault implements StoreFaults {

  /** The kind: hold the database's exclusive lock. */
  public static final String KIND = "store-lock";

  private static final String SQLITE_PREFIX = "jdbc:sqlite:";
  private static final long MIN_HOLD_MILLIS = 1_000;
  private static final long MAX_HOLD_MILLIS = 3_000;

  private final Path file;
  private final Duration acquireWait;
  private final ScheduledExecutorService timer;
  private Connection holder; // guarded by this
  private ScheduledFuture<?> release; // guarded by this
  private boolean closed; // guarded by this

  /**
   * A lock fault on the SQLite database {@code file}, waiting up to {@code acquireWait} for writers
   * to let go when it takes the lock.
   */
  public SqliteLockFault(Path file, Duration acquireWait) {
    this.file = requireNonNull(file, "file is null").toAbsolutePath().normalize();
    this.acquireWait = requireNonNull(acquireWait, "acquireWait is null");
    this.timer =
        Executors.newSingleThreadScheduledExecutor(
            task -> {
              Thread thread = new Thread(task, "sqlite-lock-fault-" + this.file.getFileName());
              thread.setDaemon(true);
              return thread;
            });
  }

  /**
   * A lock fault on {@code file}, waiting up to 1 s for the lock: a worker paused inside a
   * transaction holds it for seconds, and the fault is then skipped rather than holding up the
   * run's schedule.
   */
  public SqliteLockFault(Path file) {
    this(file, Duration.ofSeconds(1));
  }

  /**
   * The database file a {@code jdbc:sqlite:} URL names, as the driver reads it (a relative name
   * against the working directory, a {@code file:} URI without its query); empty for other URLs,
   * in-memory databases and {@code file:} URIs that are no absolute path.
   */
  public static Optional<Path> sqliteFileOf(String url) {
    requireNonNull(url, "url is null");
    if (!url.startsWith(SQLITE_PREFIX)) {
      return Optional.empty();
    }
    String name = url.substring(SQLITE_PREFIX.length());
    try {
      if (name.startsWith("file:")) {
        int end = indexOfAny(name, '?', '#');
        return Optional.of(Path.of(URI.create(end < 0 ? name : name.substring(0, end))));
      }
      int query = name.indexOf('?');
      name = query < 0 ? name : name.substring(0, query);
      return name.isEmpty() || name.equals(":memory:")
          ? Optional.empty()
          : Optional.of(Path.of(name).toAbsolutePath().normalize());
    } catch (IllegalArgumentException | FileSystemNotFoundException e) {
      return Optional.empty();
    }
  }

  /** {@return the locked database file} */
  public Path file() {
    return file;
  }

  @Override
  public List<String> kinds() {
    return List.of(KIND);
  }

  /**
   * Takes the exclusive lock and schedules its release after 1 to 3 s (chosen with {@code random}).
   *
   * @throws SQLException if the lock cannot be taken within the acquire wait
   * @throws IllegalStateException if the lock is held already (heal first) or this is closed
   */
  @Override
  public synchronized String inject(String kind, Random random) throws SQLException {
    requireNonNull(kind, "kind is null");
    requireNonNull(random, "random is null");
    if (!KIND.equals(kind)) {
      throw new IllegalArgumentException(
          "Cannot inject store fault \"" + kind + "\" into SQLite file " + file + ": use " + KIND);
    }
    if (closed) {
      throw new IllegalStateException("Cannot lock " + file + ": the fault is closed");
    }
    if (holder != null) {
      throw new IllegalStateException(
          "Cannot lock " + file + " again: it is locked already (call heal() first)");
    }
    long millis = MIN_HOLD_MILLIS + random.nextInt((int) (MAX_HOLD_MILLIS - MIN_HOLD_MILLIS + 1));
    // A percent-encoded file: URI, as the jdbc adapter opens it: '?' or '#' in a plain path would
    // start the driver's options.
    String url = SQLITE_PREFIX + file.toUri().toASCIIString();
    Connection connection = DriverManager.getConnection(url);
    try (Statement statement = connection.createStatement()) {
      statement.execute("PRAGMA busy_timeout = " + acquireWait.toMillis());
      statement.execute("BEGIN EXCLUSIVE");
    } catch (SQLException e) {
      closeQuietly(connection);
      throw new SQLException(
          "Cannot take the exclusive lock of SQLite file "
              + file
              + " within "
              + acquireWait.toMillis()
              + " ms: "
              + e.getMessage()
              + " (is another process holding it, or the file not a database?)",
          e.getSQLState(),
          e.getErrorCode(),
          e);
    }
    holder = connection;
    release = timer.schedule(this::heal, millis, TimeUnit.MILLISECONDS);
    return "locked SQLite file " + file + " exclusively for " + millis + " ms";
  }

  /** {@return whether this holds the lock now} */
  public synchronized boolean locked() {
    return holder != null;
  }

  /** Rolls back and closes the locking connection, if any: the database is writable again. */
  @Override
  public synchronized void heal() {
    if (release != null) {
      release.cancel(false);
      release = null;
    }
    if (holder == null) {
      return;
    }
    try (Statement statement = holder.createStatement()) {
      statement.execute("ROLLBACK");
    } catch (SQLException e) {
      // closing the connection below ends the transaction as well
    } finally {
      closeQuietly(holder);
      holder = null;
    }
  }

  @Override
  public void close() {
    synchronized (this) {
      closed = true;
    }
    heal();
    timer.shutdownNow();
  }

  @Override
  public String toString() {
    return "SqliteLockFault[" + file + "]";
  }

  private static int indexOfAny(String text, char first, char second) {
    int a = text.indexOf(first);
    int b = text.indexOf(second);
    return a < 0 ? b : b < 0 ? a : Math.min(a, b);
  }

  private static void closeQuietly(Connection connection) {
    try {
      connection.close();
    } catch (SQLException ignored) {
      // the connection is gone either way
    }
  }
}
