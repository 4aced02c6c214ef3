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

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

/**
 * Probes whether some connection holds the write lock of a SQLite file, by taking it ({@code BEGIN
 * IMMEDIATE}) and rolling back at once. The demo uses it to tell whether a stopped worker was
 * frozen inside a transaction.
 */
final class SqliteWriteLock {

  /** SQLite's primary result code SQLITE_BUSY; extended codes keep it in the low byte. */
  private static final int SQLITE_BUSY = 5;

  private SqliteWriteLock() {}

  /**
   * True if the write lock of {@code db} stays taken for longer than {@code wait}.
   *
   * @throws DemoFailure if the file cannot be opened or queried
   */
  static boolean isHeld(Path db, Duration wait) {
    // A percent-encoded file: URI, as JdbcStore opens it: a plain jdbc:sqlite: URL would read
    // '?' or '#' in the path as the start of options.
    String url = "jdbc:sqlite:" + db.toAbsolutePath().normalize().toUri().toASCIIString();
    try (Connection connection = DriverManager.getConnection(url);
        Statement statement = connection.createStatement()) {
      statement.execute("PRAGMA busy_timeout = " + wait.toMillis());
      try {
        statement.execute("BEGIN IMMEDIATE");
      } catch (SQLException e) {
        if ((e.getErrorCode() & 0xff) == SQLITE_BUSY
            || String.valueOf(e.getMessage()).contains("SQLITE_BUSY")) {
          return true;
        }
        throw e;
      }
      statement.execute("ROLLBACK");
      return false;
    } catch (SQLException e) {
      throw new DemoFailure(
          "Cannot check the write lock of " + db + ": " + e.getMessage() + " (is the file intact?)",
          e);
    }
  }
}
