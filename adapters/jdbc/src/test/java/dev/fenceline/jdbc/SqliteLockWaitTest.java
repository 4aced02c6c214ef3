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
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.fenceline.spi.Applied;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StoreException;
import dev.fenceline.tck.TimedFailure;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SQLite has no server to freeze; the writer that never lets go is another connection holding the
 * database's write lock. Every call waits at most the lock timeout, then fails with nothing
 * committed.
 */
class SqliteLockWaitTest {

  private static final Duration WITHIN = Duration.ofSeconds(8);
  private static final FencingToken TOKEN =
      new FencingToken("test-issuer", ResourceId.of("ledger/acct-42"), Epoch.of(1), "worker-a");

  @TempDir Path directory;

  private String url() {
    return "jdbc:sqlite:" + directory.resolve("fenceline.db");
  }

  @Test
  void aWriteBlockedByAStuckWriterFailsWithinTheLockTimeoutWithNothingCommitted() throws Exception {
    try (JdbcStore store =
            JdbcStore.builder().url(url()).lockTimeout(Duration.ofSeconds(1)).build();
        Connection stuck = DriverManager.getConnection(url());
        Statement lock = stuck.createStatement()) {
      lock.execute("BEGIN IMMEDIATE");

      StoreException failure =
          TimedFailure.within(
                  WITHIN,
                  StoreException.class,
                  () -> store.destination("reports").write(TOKEN, OperationId.of("op"), noChange()))
              .thrown();

      assertThat(failure).isNotNull();
      assertThat(failure.outcomeUnknown()).isFalse();
      assertThat(failure).hasMessageContaining("longer than the lock timeout of PT1S");
      lock.execute("ROLLBACK");
      assertThat(store.destination("reports").write(TOKEN, OperationId.of("op"), noChange()))
          .isInstanceOf(Applied.class);
    }
  }

  @Test
  void buildOnCurrentTablesWhileAStuckWriterHoldsTheLockDoesNotWaitForIt() throws Exception {
    JdbcStore.builder().url(url()).build().close();
    try (Connection stuck = DriverManager.getConnection(url());
        Statement lock = stuck.createStatement()) {
      lock.execute("BEGIN IMMEDIATE");

      // The tables are there at this version: the open reads them, no write transaction.
      try (JdbcStore store =
          assertTimeoutPreemptively(
              Duration.ofSeconds(5),
              () -> JdbcStore.builder().url(url()).lockTimeout(Duration.ofSeconds(30)).build())) {
        assertThat(store.tablesPresent()).isTrue();
        assertThat(store.leaseIssuer().status(ResourceId.of("ledger/acct-42")).held()).isFalse();
      }
      lock.execute("ROLLBACK");
    }
  }

  @Test
  void buildOfNewTablesWhileAStuckWriterHoldsTheLockFailsWithinTheLockTimeout() throws Exception {
    try (Connection stuck = DriverManager.getConnection(url());
        Statement lock = stuck.createStatement()) {
      lock.execute("PRAGMA journal_mode = WAL");
      lock.execute("BEGIN IMMEDIATE");

      StoreException failure =
          TimedFailure.within(
                  WITHIN,
                  StoreException.class,
                  () -> JdbcStore.builder().url(url()).lockTimeout(Duration.ofSeconds(1)).build())
              .thrown();

      assertThat(failure).isNotNull();
      assertThat(failure.outcomeUnknown()).isFalse();
      assertThat(failure).hasMessageContaining("lock timeout of PT1S");
      lock.execute("ROLLBACK");
    }
  }

  private static JdbcChange noChange() {
    return (connection, token, operation) -> Map.of();
  }
}
