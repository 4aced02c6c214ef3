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
package dev.fenceline.cli;

import java.io.PrintStream;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * The command's logging: the notices a user waiting at a terminal needs (a wait for a SQLite lock
 * that another process holds) become {@code fenceline: ...} lines on standard error, in the same
 * form as the command's own messages. Everything else the library logs stays as {@link Main} sets
 * it up (off unless {@code FENCELINE_DEBUG} is set); libraries that log through SLF4J are silenced
 * by {@code slf4j-nop} on the class path.
 */
final class CliLogging {

  /** The logger of the SQLite lock-wait notices (the JDBC adapter's {@code LockWaitNotice}). */
  static final String LOCK_WAIT = "dev.fenceline.jdbc.lock-wait";

  /** Kept strongly reachable: JUL holds loggers weakly, and their settings with them. */
  private static final Logger LOCK_WAIT_LOG = Logger.getLogger(LOCK_WAIT);

  private CliLogging() {}

  /** Prints the lock-wait notices on {@code err}, one line each. */
  static void install(PrintStream err) {
    LOCK_WAIT_LOG.setUseParentHandlers(false);
    LOCK_WAIT_LOG.setLevel(Level.INFO);
    for (Handler old : LOCK_WAIT_LOG.getHandlers()) {
      LOCK_WAIT_LOG.removeHandler(old);
    }
    LOCK_WAIT_LOG.addHandler(
        new Handler() {
          @Override
          public void publish(LogRecord record) {
            if (isLoggable(record)) {
              err.println("fenceline: " + ConfiguredCommand.oneLine(record.getMessage()));
              err.flush();
            }
          }

          @Override
          public void flush() {
            err.flush();
          }

          @Override
          public void close() {}
        });
  }
}
