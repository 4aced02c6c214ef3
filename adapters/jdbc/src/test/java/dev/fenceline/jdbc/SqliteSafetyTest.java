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

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fenceline.spi.ConfigurationException;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StoreException;
import dev.fenceline.spi.UnsafeStoreException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SqliteSafetyTest {

  @TempDir Path directory;

  @Test
  void theEmbeddedDefaultIsDurableAndInWalMode() throws Exception {
    Path file = directory.resolve("fenceline.db");
    try (JdbcStore store = JdbcStore.sqlite(file)) {
      assertThat(store.leaseIssuer().tryAcquire(ResourceId.of("r"), "a", Duration.ofSeconds(9)))
          .isPresent();
    }
    try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file);
        Statement statement = connection.createStatement()) {
      try (ResultSet rows = statement.executeQuery("PRAGMA journal_mode")) {
        rows.next();
        assertThat(rows.getString(1)).isEqualToIgnoringCase("wal");
      }
      try (ResultSet rows = statement.executeQuery("SELECT version FROM fenceline_schema")) {
        rows.next();
        assertThat(rows.getInt(1)).isEqualTo(Schema.VERSION);
      }
    }
  }

  @Test
  void refusesSynchronousBelowFullUnlessTheRiskIsAcceptedByName() {
    String url = "jdbc:sqlite:" + directory.resolve("fast.db") + "?synchronous=NORMAL";

    assertThatThrownBy(() -> JdbcStore.builder().url(url).build())
        .isInstanceOf(UnsafeStoreException.class)
        .hasMessageContaining("PRAGMA synchronous is 1 (below FULL = 2)")
        .hasMessageContaining("unsafeAllowEpochRollbackOnCrash(true)")
        .hasMessageNotContaining("?synchronous");
    assertThat(directory.resolve("fast.db"))
        .satisfiesAnyOf(
            path -> assertThat(Files.exists(path)).isFalse(),
            path -> assertThat(tables(path)).isZero());

    try (JdbcStore store =
        JdbcStore.builder().url(url).unsafeAllowEpochRollbackOnCrash(true).build()) {
      assertThat(store.leaseIssuer().status(ResourceId.of("r")).held()).isFalse();
    }
  }

  @Test
  void refusesAJournalThatACrashCanLose() {
    String url = "jdbc:sqlite:" + directory.resolve("memory-journal.db") + "?journal_mode=MEMORY";

    assertThatThrownBy(() -> JdbcStore.builder().url(url).build())
        .isInstanceOf(UnsafeStoreException.class)
        .hasMessageContaining("journal_mode is memory");
  }

  @Test
  void badUrlsAndMissingFilesGetClearErrors() {
    assertThatThrownBy(() -> JdbcStore.builder().url("jdbc:mysql://db/app?password=secret"))
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("jdbc:mysql://db/app")
        .hasMessageNotContaining("secret");
    assertThatThrownBy(() -> JdbcStore.builder().build())
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("no url(...) or dataSource(...)");
    Path missing = directory.resolve("no-such-dir/fenceline.db");
    assertThatThrownBy(() -> JdbcStore.sqlite(missing))
        .isInstanceOf(StoreException.class)
        .hasMessageContaining("Cannot open jdbc:sqlite:" + missing);
    assertThatThrownBy(() -> JdbcStore.builder().lockTimeout(Duration.ZERO))
        .hasMessageContaining("PT0S");
  }

  private static int tables(Path file) {
    try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file);
        Statement statement = connection.createStatement();
        ResultSet rows =
            statement.executeQuery("SELECT COUNT(*) FROM sqlite_master WHERE type = 'table'")) {
      rows.next();
      return rows.getInt(1);
    } catch (java.sql.SQLException e) {
      throw new IllegalStateException(e);
    }
  }
}
