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

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Random;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SqliteLockFaultTest {

  @TempDir Path dir;
  private Path db;

  @BeforeEach
  void createDatabase() throws SQLException {
    db = dir.resolve("fenceline.db");
    try (Connection connection = open();
        Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE t (v INTEGER)");
    }
  }

  @Test
  void writersHitBusyWhileLockedAndWriteAfterHeal() throws Exception {
    try (SqliteLockFault fault = new SqliteLockFault(db);
        Connection writer = open()) {
      String what = fault.inject(SqliteLockFault.KIND, new Random(3));
      assertThat(what).startsWith("locked SQLite file " + db + " exclusively for ");
      assertThat(fault.locked()).isTrue();

      assertThatThrownBy(() -> insert(writer))
          .isInstanceOf(SQLException.class)
          .satisfies(e -> assertThat(busy((SQLException) e)).as(e.getMessage()).isTrue());

      fault.heal();
      assertThat(fault.locked()).isFalse();
      insert(writer);
    }
  }

  @Test
  void releasesTheLockByItselfWithinThreeSeconds() throws Exception {
    try (SqliteLockFault fault = new SqliteLockFault(db);
        Connection writer = open()) {
      fault.inject(SqliteLockFault.KIND, new Random(5));
      long deadline = System.nanoTime() + Duration.ofSeconds(6).toNanos();
      while (fault.locked() && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      assertThat(fault.locked()).isFalse();
      insert(writer);
    }
  }

  @Test
  void refusesOtherKindsAndASecondLock() throws Exception {
    try (SqliteLockFault fault = new SqliteLockFault(db)) {
      assertThatThrownBy(() -> fault.inject("proxy-cut", new Random(1)))
          .hasMessageContaining("proxy-cut")
          .hasMessageContaining("store-lock");
      fault.inject(SqliteLockFault.KIND, new Random(1));
      assertThatThrownBy(() -> fault.inject(SqliteLockFault.KIND, new Random(1)))
          .hasMessageContaining("heal()");
    }
  }

  @Test
  void readsTheFileOfSqliteUrls() {
    assertThat(SqliteLockFault.sqliteFileOf("jdbc:sqlite:" + db + "?journal_mode=WAL"))
        .contains(db);
    assertThat(SqliteLockFault.sqliteFileOf("jdbc:sqlite:" + db.toUri())).contains(db);
    assertThat(SqliteLockFault.sqliteFileOf("jdbc:sqlite::memory:")).isEmpty();
    assertThat(SqliteLockFault.sqliteFileOf("jdbc:postgresql://db/x")).isEmpty();
  }

  private Connection open() throws SQLException {
    return DriverManager.getConnection("jdbc:sqlite:" + db.toUri());
  }

  private static void insert(Connection connection) throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute("PRAGMA busy_timeout = 200");
      statement.execute("INSERT INTO t VALUES (1)");
    }
  }

  private static boolean busy(SQLException e) {
    return (e.getErrorCode() & 0xff) == 5 || String.valueOf(e.getMessage()).contains("SQLITE_BUSY");
  }
}
