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
package dev.fenceline.chaos.planted;

import dev.fenceline.spi.StoreException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * A SQLite file shared by the worker processes of one run: a connection per call, transactions with
 * {@code BEGIN IMMEDIATE} (the database's write lock, so a second writer waits), WAL mode.
 */
final class SqliteFile {

  /** What runs inside one transaction or one read. */
  interface Work<T> {
    T run(Connection connection) throws SQLException;
  }

  /** Longer than any pause of a chaos run or of the TCK, so a waiting writer never gives up. */
  private static final int BUSY_TIMEOUT_MILLIS = 60_000;

  private final Path file;

  SqliteFile(Path file, String... schema) {
    this.file = file;
    try (Connection connection = connect();
        Statement statement = connection.createStatement()) {
      statement.execute("PRAGMA journal_mode = WAL");
      for (String ddl : schema) {
        statement.execute(ddl);
      }
    } catch (SQLException e) {
      throw new StoreException("Cannot open " + file + ": " + e.getMessage(), e);
    }
  }

  Path file() {
    return file;
  }

  Connection connect() throws SQLException {
    Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file);
    try (Statement statement = connection.createStatement()) {
      statement.execute("PRAGMA busy_timeout = " + BUSY_TIMEOUT_MILLIS);
    } catch (SQLException e) {
      connection.close();
      throw e;
    }
    return connection;
  }

  /**
   * Runs {@code work} inside {@code BEGIN IMMEDIATE} ... {@code COMMIT}; anything {@code work}
   * throws rolls it back. A failing {@code COMMIT} is an unknown outcome.
   */
  <T> T inTransaction(String action, Work<T> work) {
    boolean committing = false;
    try (Connection connection = connect()) {
      try (Statement begin = connection.createStatement()) {
        begin.execute("BEGIN IMMEDIATE");
      }
      boolean committed = false;
      try {
        T result = work.run(connection);
        committing = true;
        try (Statement commit = connection.createStatement()) {
          commit.execute("COMMIT");
        }
        committed = true;
        return result;
      } finally {
        if (!committed) {
          rollbackQuietly(connection);
        }
      }
    } catch (SQLException e) {
      throw new StoreException(
          "Cannot " + action + " in " + file + ": " + e.getMessage(), e, committing);
    }
  }

  /** Runs read-only {@code work} on an auto-commit connection. */
  <T> T read(String action, Work<T> work) {
    try (Connection connection = connect()) {
      return work.run(connection);
    } catch (SQLException e) {
      throw new StoreException("Cannot " + action + " in " + file + ": " + e.getMessage(), e);
    }
  }

  private static void rollbackQuietly(Connection connection) {
    try (Statement rollback = connection.createStatement()) {
      rollback.execute("ROLLBACK");
    } catch (SQLException e) {
      // Closing the connection rolls back as well.
    }
  }
}
