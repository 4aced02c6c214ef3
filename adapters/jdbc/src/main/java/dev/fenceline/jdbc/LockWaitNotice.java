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

import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Says what a SQLite statement is waiting for once the wait passes {@link #AFTER}: SQLite waits for
 * another connection's write lock inside the driver (the busy timeout), in silence, so a command
 * blocked by another process would otherwise look hung until the lock timeout ends it.
 *
 * <p>The notice is logged at INFO on the logger {@value #LOGGER}; the {@code fenceline} command
 * prints it on standard error.
 */
final class LockWaitNotice {

  /** The logger of the notices. */
  static final String LOGGER = "dev.fenceline.jdbc.lock-wait";

  /** How long a statement may wait before the notice is logged. */
  static final Duration AFTER = Duration.ofSeconds(1);

  private static final System.Logger LOG = System.getLogger(LOGGER);

  /** One daemon thread for every store of the process; idle unless a statement waits. */
  private static final ScheduledExecutorService TIMER =
      Executors.newSingleThreadScheduledExecutor(
          task -> {
            Thread thread = new Thread(task, "fenceline-sqlite-lock-wait");
            thread.setDaemon(true);
            return thread;
          });

  /** A statement that may wait for a lock. */
  @FunctionalInterface
  interface Call<T> {
    T run() throws SQLException;
  }

  private LockWaitNotice() {}

  /**
   * Runs {@code call}; if it has not returned after {@link #AFTER}, logs "waiting for ...". Calls
   * on daemon threads (background work such as the lease renewals) get no notice: nobody waits for
   * them at a terminal, and a renewal that waits too long ends in a lost lease, reported as such.
   */
  static <T> T around(String waitedFor, Call<T> call) throws SQLException {
    if (Thread.currentThread().isDaemon()) {
      return call.run();
    }
    ScheduledFuture<?> notice =
        TIMER.schedule(
            () -> LOG.log(System.Logger.Level.INFO, "waiting for " + waitedFor),
            AFTER.toMillis(),
            TimeUnit.MILLISECONDS);
    try {
      return call.run();
    } finally {
      notice.cancel(false);
    }
  }

  /** {@code 8s}, {@code 500ms}: a duration as the YAML file writes it. */
  static String format(Duration duration) {
    long millis = duration.toMillis();
    return millis % 1000 == 0 ? millis / 1000 + "s" : millis + "ms";
  }
}
