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

import static org.assertj.core.api.Assertions.assertThat;

import dev.fenceline.jdbc.JdbcStore;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The probe the demo uses to notice a worker frozen inside a database transaction. */
class SqliteWriteLockTest {

  private static final Duration WAIT = Duration.ofMillis(50);

  @TempDir Path dir;

  @Test
  void seesAWriteLockHeldByAnotherConnectionAndNothingOnceItIsGone() throws Exception {
    seesTheLockOf(dir.resolve("probe.db"));
  }

  @Test
  void aPathWithUrlCharactersIsTheSameFileJdbcStoreOpens() throws Exception {
    // A plain "jdbc:sqlite:" + path would cut this path at '?' and probe another file.
    java.nio.file.Files.createDirectories(dir.resolve("a?b#c"));
    seesTheLockOf(dir.resolve("a?b#c").resolve("probe 1.db"));
  }

  private void seesTheLockOf(Path db) throws Exception {
    try (JdbcStore store = JdbcStore.sqlite(db)) {
      assertThat(SqliteWriteLock.isHeld(db, WAIT)).isFalse();

      try (Connection holder =
              DriverManager.getConnection("jdbc:sqlite:" + db.toUri().toASCIIString());
          Statement statement = holder.createStatement()) {
        statement.execute("BEGIN IMMEDIATE");
        assertThat(SqliteWriteLock.isHeld(db, WAIT)).isTrue();
        statement.execute("ROLLBACK");
      }

      assertThat(SqliteWriteLock.isHeld(db, WAIT)).isFalse();
      assertThat(store.leaseIssuer().status(Worker.RESOURCE).held())
          .as("the probe changed nothing")
          .isFalse();
    }
  }
}
