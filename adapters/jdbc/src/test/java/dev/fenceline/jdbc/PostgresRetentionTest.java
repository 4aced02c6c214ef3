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

import dev.fenceline.spi.Applied;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingStep;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Pointer;
import dev.fenceline.spi.ReceiptPrunedException;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.WriteOutcome;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class PostgresRetentionTest extends RetentionContractTest {

  private TestDatabase database;

  /** A database of its own per test: pruning deletes old rows of every resource in it. */
  @Override
  TestDatabase database() {
    if (database == null) {
      database =
          PostgresDatabase.shared().newDatabase("retention_" + Long.toHexString(System.nanoTime()));
    }
    return database;
  }

  /**
   * PostgreSQL only (SQLite has one write lock for the whole file): pruning never waits for a
   * resource's control row. A writer holds the row's lock in the middle of a pointer swap while the
   * prune deletes that resource's old receipts and pointer versions; the prune finishes first, and
   * the writer then commits.
   */
  @Test
  void pruningDoesNotWaitForAWriterHoldingTheControlRow() throws Exception {
    ResourceId report = ResourceId.of("locked-report");
    CountDownLatch inside = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    try (JdbcStore store = database().storeBuilder().lockTimeout(Duration.ofSeconds(2)).build()) {
      JdbcPointerStore reports = store.pointerStore("reports");
      for (int version = 1; version <= 5; version++) {
        reports.write(
            new FencingToken(store.id(), report, Epoch.of(1), "worker"),
            OperationId.of("publish-" + version),
            Pointer.to("v" + version));
      }
      try (Connection connection = database().connect();
          PreparedStatement age =
              connection.prepareStatement(
                  // The receipts of pointer publishes are in the versions' rows (schema 5).
                  "UPDATE fenceline_pointer SET recorded_at_ms = 0 WHERE operation <> ?")) {
        age.setString(1, "publish-5");
        assertThat(age.executeUpdate()).isEqualTo(4);
      }
      JdbcPointerStore paused =
          store.pointerStore(
              "reports",
              (step, token, operation) -> {
                if (step == FencingStep.AFTER_EPOCH_CHECK) {
                  inside.countDown();
                  try {
                    release.await(60, TimeUnit.SECONDS);
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                  }
                }
              });
      CompletableFuture<WriteOutcome> writer =
          CompletableFuture.supplyAsync(
              () ->
                  paused.write(
                      new FencingToken(store.id(), report, Epoch.of(2), "worker"),
                      OperationId.of("publish-6"),
                      Pointer.to("v6")));
      try {
        assertThat(inside.await(60, TimeUnit.SECONDS)).isTrue();

        PruneReport pruned = store.prune(new Retention(Duration.ofDays(1), 2));

        assertThat(writer).as("the writer still holds the control row").isNotDone();
        assertThat(pruned.receiptsDeleted()).isEqualTo(4);
        assertThat(pruned.pointerVersionsDeleted()).isEqualTo(3);
      } finally {
        release.countDown();
      }
      assertThat(writer.get(60, TimeUnit.SECONDS)).isInstanceOf(Applied.class);
      assertThat(reports.history(report, 10)).hasSize(3);
      assertThat(reports.current(report).orElseThrow().pointer().target()).isEqualTo("v6");
      assertThatThrownBy(() -> reports.lookup(report, OperationId.of("publish-1")))
          .isInstanceOf(ReceiptPrunedException.class);
    }
  }
}
