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
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.sql.DataSource;
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

  /**
   * PostgreSQL only (on SQLite a second writer waits for the file's lock): history pruning selects
   * the old versions, and before it retires those whose receipt is still kept, another process's
   * receipt pass (a later clock, so a later cutoff) nulls one of those receipts. The retire must
   * not apply to that row: a retired row without a receipt is out of the history and out of the
   * receipt pass, and would stay for ever. The next prune deletes it.
   */
  @Test
  void aReceiptPrunedBetweenTheHistorySelectAndTheRetireLeavesNoRowBehind() throws Exception {
    ResourceId report = ResourceId.of("raced-report");
    String url;
    try (Connection connection = database().connect()) {
      url = connection.getMetaData().getURL();
    }
    org.postgresql.ds.PGSimpleDataSource target = new org.postgresql.ds.PGSimpleDataSource();
    target.setURL(url);
    AtomicBoolean raced = new AtomicBoolean();
    DataSource racing =
        Intercepted.wrap(
            DataSource.class,
            target,
            (source, call, args) -> {
              Object result = Intercepted.invoke(call, source, args);
              return call.getName().equals("getConnection")
                  ? nullingTheReceiptBeforeTheRetire((Connection) result, raced)
                  : result;
            });
    try (JdbcStore store = JdbcStore.builder().dataSource(racing, "racing prune").build()) {
      JdbcPointerStore reports = store.pointerStore("reports");
      for (int version = 1; version <= 5; version++) {
        reports.write(
            new FencingToken(store.id(), report, Epoch.of(1), "worker"),
            OperationId.of("publish-" + version),
            Pointer.to("v" + version));
      }
      Retention retention = new Retention(Duration.ofDays(1), 3);

      PruneReport first = store.prune(retention);

      assertThat(raced).isTrue();
      assertThat(first.pointerVersionsDeleted())
          .as("only publish-2's version left the history; publish-1's stays until the next prune")
          .isEqualTo(1);
      assertThat(orphans()).as("retired rows without a receipt").isZero();
      assertThat(reports.history(report, 10)).hasSize(4);

      PruneReport second = store.prune(retention);

      assertThat(second.pointerVersionsDeleted()).isEqualTo(1);
      assertThat(orphans()).isZero();
      assertThat(reports.history(report, 10)).hasSize(3);
      try (Connection connection = database().connect();
          PreparedStatement rows =
              connection.prepareStatement(
                  "SELECT COUNT(*) FROM fenceline_pointer WHERE operation = 'publish-1'");
          java.sql.ResultSet count = rows.executeQuery()) {
        count.next();
        assertThat(count.getLong(1)).as("publish-1's row").isZero();
      }
      assertThat(reports.lookup(report, OperationId.of("publish-2"))).isPresent();
    }
  }

  /**
   * {@code real}, whose history pruning, just before it retires versions, has a receipt pass of
   * another process null the receipt of {@code publish-1} and commit (once).
   */
  private Connection nullingTheReceiptBeforeTheRetire(Connection real, AtomicBoolean raced) {
    return Intercepted.wrap(
        Connection.class,
        real,
        (connection, call, args) -> {
          Object result = Intercepted.invoke(call, connection, args);
          if (!call.getName().equals("prepareStatement")
              || !((String) args[0]).startsWith("UPDATE fenceline_pointer SET retired = 1")) {
            return result;
          }
          return Intercepted.wrap(
              PreparedStatement.class,
              (PreparedStatement) result,
              (statement, method, arguments) -> {
                if (method.getName().equals("executeBatch") && raced.compareAndSet(false, true)) {
                  try (Connection other = database().connect();
                      PreparedStatement prune =
                          other.prepareStatement(
                              "UPDATE fenceline_pointer SET recorded_at_ms = NULL,"
                                  + " receipt_attributes = NULL, fingerprint = NULL"
                                  + " WHERE operation = 'publish-1'")) {
                    assertThat(prune.executeUpdate()).isEqualTo(1);
                  }
                }
                return Intercepted.invoke(method, statement, arguments);
              });
        });
  }

  private long orphans() throws SQLException {
    try (Connection connection = database().connect();
        PreparedStatement select =
            connection.prepareStatement(
                "SELECT COUNT(*) FROM fenceline_pointer"
                    + " WHERE retired = 1 AND recorded_at_ms IS NULL");
        java.sql.ResultSet rows = select.executeQuery()) {
      rows.next();
      return rows.getLong(1);
    }
  }
}
