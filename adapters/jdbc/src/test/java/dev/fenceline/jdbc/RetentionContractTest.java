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
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Pointer;
import dev.fenceline.spi.PointerState;
import dev.fenceline.spi.ReceiptPrunedException;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StoreException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Retention of the JDBC tables (receipts and pointer versions) on a real database: what is pruned,
 * what a lookup then answers, that the tables stop growing under a steady load, and the background
 * pruning's life cycle. Subclasses pick the database.
 */
abstract class RetentionContractTest {

  private static final long HOUR = Duration.ofHours(1).toMillis();
  private static final long DAY = Duration.ofDays(1).toMillis();
  private static final JdbcChange NOTHING = (connection, token, operation) -> Map.of();

  abstract TestDatabase database();

  /** A unique resource per test, so the shared PostgreSQL database needs no cleaning. */
  private final String run = Long.toHexString(System.nanoTime());

  private ResourceId resource(String name) {
    return ResourceId.of(name + "-" + run);
  }

  @Test
  void prunesExactlyTheReceiptsRecordedBeforeTheRetentionByTheStoresClock() throws SQLException {
    long now = 1_900_000_000_000L;
    ResourceId ledger = resource("ledger");
    ResourceId untouched = resource("untouched");
    try (JdbcStore store = database().storeBuilder().pruneClock(connection -> now).build()) {
      JdbcDestination ledgers = store.destination("ledgers");
      JdbcDestination audit = store.destination("audit");
      for (String op : List.of("old", "edge-old", "edge-kept", "new")) {
        write(store, ledgers, ledger, op);
      }
      write(store, audit, ledger, "old");
      write(store, ledgers, untouched, "new");
      Duration retention = Duration.ofDays(7);
      long cutoff = now - retention.toMillis();
      setRecordedAt(ledgers.name(), ledger, "old", cutoff - 3 * DAY);
      setRecordedAt(ledgers.name(), ledger, "edge-old", cutoff - 1);
      setRecordedAt(ledgers.name(), ledger, "edge-kept", cutoff);
      setRecordedAt(ledgers.name(), ledger, "new", now);
      setRecordedAt(audit.name(), ledger, "old", cutoff - DAY);
      setRecordedAt(ledgers.name(), untouched, "new", now);

      PruneReport report = store.prune(new Retention(retention, 3));

      assertThat(report.receiptsDeleted()).isEqualTo(3);
      assertThat(report.pointerVersionsDeleted()).isZero();
      assertThat(report.prunedBefore()).isEqualTo(Instant.ofEpochMilli(cutoff));
      assertThat(ledgers.lookup(ledger, OperationId.of("edge-kept"))).isPresent();
      assertThat(ledgers.lookup(ledger, OperationId.of("new"))).isPresent();
      for (String pruned : List.of("old", "edge-old")) {
        assertThatThrownBy(() -> ledgers.lookup(ledger, OperationId.of(pruned)))
            .isInstanceOfSatisfying(
                ReceiptPrunedException.class,
                e -> {
                  assertThat(e.outcomeUnknown()).isTrue();
                  assertThat(e.prunedBefore()).isEqualTo(Instant.ofEpochMilli(cutoff));
                  assertThat(e.destination()).isEqualTo("ledgers");
                  assertThat(e.resource()).isEqualTo(ledger);
                  assertThat(e.operation()).isEqualTo(OperationId.of(pruned));
                })
            .isInstanceOf(StoreException.class)
            .hasMessageContaining("unknown, older than retention")
            .hasMessageContaining("first attempted after " + Instant.ofEpochMilli(cutoff))
            .hasMessageContaining("it was not applied");
      }
      assertThatThrownBy(() -> audit.lookup(ledger, OperationId.of("old")))
          .as("the watermark is per destination name")
          .isInstanceOf(ReceiptPrunedException.class);
      assertThatThrownBy(() -> ledgers.lookup(ledger, OperationId.of("never-written")))
          .as("a pruned resource cannot tell a pruned receipt from a missing one")
          .isInstanceOf(ReceiptPrunedException.class);
      assertThat(ledgers.lookup(untouched, OperationId.of("never-written")))
          .as("never pruned: never applied")
          .isEmpty();
      assertThat(store.destination("other").lookup(ledger, OperationId.of("old")))
          .as("another destination of a pruned resource was never pruned")
          .isEmpty();
      assertThat(count("fenceline_pruned WHERE resource = '" + ledger.value() + "'")).isEqualTo(2);

      // A second run finds nothing more to delete and leaves the watermark where it is.
      assertThat(store.prune(new Retention(retention, 3)).receiptsDeleted()).isZero();
      assertThatThrownBy(() -> ledgers.lookup(ledger, OperationId.of("old")))
          .isInstanceOf(ReceiptPrunedException.class);
    }
  }

  @Test
  void aRetryAfterItsReceiptWasPrunedIsAppliedAgainAsDocumented() throws SQLException {
    ResourceId ledger = resource("retry");
    try (JdbcStore store = database().storeBuilder().pruneClock(connection -> 10 * DAY).build()) {
      JdbcDestination ledgers = store.destination("ledgers");
      write(store, ledgers, ledger, "op-1");
      setRecordedAt(ledgers.name(), ledger, "op-1", DAY);
      store.prune(new Retention(Duration.ofDays(1), 1));
      assertThat(
              ledgers.write(
                  new FencingToken(store.id(), ledger, Epoch.of(1), "worker"),
                  OperationId.of("op-1"),
                  NOTHING))
          .isInstanceOf(Applied.class);
    }
  }

  @Test
  void usesTheDatabasesClockByDefault() throws SQLException {
    ResourceId ledger = resource("clock");
    try (JdbcStore store = database().openStore()) {
      JdbcDestination ledgers = store.destination("ledgers");
      write(store, ledgers, ledger, "ancient");
      write(store, ledgers, ledger, "fresh");
      setRecordedAt(ledgers.name(), ledger, "ancient", 0);
      Instant before = Instant.now().minus(Duration.ofDays(1)).minusSeconds(60);

      PruneReport report = store.prune(new Retention(Duration.ofDays(1), 1));

      assertThat(report.prunedBefore()).isBetween(before, before.plusSeconds(180));
      assertThat(ledgers.lookup(ledger, OperationId.of("fresh"))).isPresent();
      assertThatThrownBy(() -> ledgers.lookup(ledger, OperationId.of("ancient")))
          .isInstanceOf(ReceiptPrunedException.class);
    }
  }

  @Test
  void keepsTheNewestPointerVersionsAndAlwaysTheCurrentOne() throws SQLException {
    ResourceId report = resource("report");
    ResourceId small = resource("small");
    try (JdbcStore store = database().storeBuilder().pruneBatchSize(4).build()) {
      JdbcPointerStore reports = store.pointerStore("reports");
      JdbcPointerStore other = store.pointerStore("other");
      publish(store, reports, report, 10);
      publish(store, reports, small, 2);
      publish(store, other, report, 5);

      PruneReport pruned = store.prune(new Retention(Duration.ofDays(365), 3));

      assertThat(pruned.pointerVersionsDeleted()).isEqualTo(7 + 2);
      assertThat(pruned.receiptsDeleted()).isZero();
      assertThat(versions(reports, report)).containsExactly(10L, 9L, 8L);
      assertThat(versions(reports, small)).containsExactly(2L, 1L);
      assertThat(versions(other, report)).containsExactly(5L, 4L, 3L);
      assertThat(reports.current(report).orElseThrow().pointer().target()).isEqualTo("v10");
      assertThat(reports.lookup(report, OperationId.of("publish-1")))
          .as("receipts are kept by time, not with their pointer version")
          .isPresent();

      // One version kept is the current one; numbering goes on after pruning.
      assertThat(store.prune(new Retention(Duration.ofDays(365), 1)).pointerVersionsDeleted())
          .isEqualTo(2 + 1 + 2);
      assertThat(versions(reports, report)).containsExactly(10L);
      assertThat(versions(reports, small)).containsExactly(2L);
      assertThat(versions(other, report)).containsExactly(5L);
      publishOne(store, reports, report, 11);
      assertThat(versions(reports, report)).containsExactly(11L, 10L);
    }
  }

  @Test
  void keepsTheReceiptOfTheCurrentPointerWhileItIsCurrent() throws SQLException {
    ResourceId report = resource("current-receipt");
    Retention retention = new Retention(Duration.ofDays(1), 10);
    try (JdbcStore store = database().openStore()) {
      JdbcPointerStore reports = store.pointerStore("reports");
      publish(store, reports, report, 3);
      ageReceipts(10 * DAY);

      assertThat(store.prune(retention).receiptsDeleted()).isEqualTo(2);

      assertThat(reports.lookup(report, OperationId.of("publish-3")))
          .as("the current pointer's receipt")
          .isPresent();
      assertThatThrownBy(() -> reports.lookup(report, OperationId.of("publish-2")))
          .isInstanceOf(ReceiptPrunedException.class);

      publishOne(store, reports, report, 4);
      ageReceipts(10 * DAY);
      assertThat(store.prune(retention).receiptsDeleted())
          .as("no longer current, then old enough")
          .isEqualTo(1);
      assertThatThrownBy(() -> reports.lookup(report, OperationId.of("publish-3")))
          .isInstanceOf(ReceiptPrunedException.class);
      assertThat(reports.lookup(report, OperationId.of("publish-4"))).isPresent();
      assertThat(versions(reports, report)).containsExactly(4L, 3L, 2L, 1L);
    }
  }

  /**
   * A steady publish load with pruning: the tables level off instead of growing with the number of
   * publishes. Time passes by ageing every receipt one hour per round (the store prunes by the
   * database's real clock), so nothing sleeps.
   */
  @Test
  void tableSizesLevelOffUnderASteadyPublishLoad() throws SQLException {
    int rounds = 120;
    int pruneEvery = 6;
    List<ResourceId> reportResources =
        List.of(resource("steady-a"), resource("steady-b"), resource("steady-c"));
    ResourceId ledger = resource("steady-ledger");
    String mine =
        " WHERE resource IN ('"
            + String.join("', '", reportResources.stream().map(ResourceId::value).toList())
            + "', '"
            + ledger.value()
            + "')";
    Retention retention = new Retention(Duration.ofHours(24), 4);
    List<Long> receiptsAfterPrune = new ArrayList<>();
    List<Long> pointersAfterPrune = new ArrayList<>();
    List<Long> pointerRowsAfterPrune = new ArrayList<>();
    long receiptsWritten = 0;
    try (JdbcStore store = database().storeBuilder().pruneBatchSize(7).build()) {
      JdbcPointerStore reports = store.pointerStore("reports");
      JdbcDestination ledgers = store.destination("ledgers");
      for (int round = 1; round <= rounds; round++) {
        for (ResourceId resource : reportResources) {
          publishOne(store, reports, resource, round);
          receiptsWritten++;
        }
        write(store, ledgers, ledger, "entry-" + round);
        receiptsWritten++;
        ageReceipts(HOUR);
        if (round % pruneEvery == 0) {
          store.prune(retention);
          receiptsAfterPrune.add(receipts(mine));
          pointersAfterPrune.add(count("fenceline_pointer" + mine + " AND retired = 0"));
          pointerRowsAfterPrune.add(count("fenceline_pointer" + mine));
        }
      }
      // 4 receipts per hour, kept for 24 hours: at most 4 * 24 after each prune.
      assertThat(receiptsWritten).isEqualTo(4L * rounds);
      List<Long> late =
          receiptsAfterPrune.subList(receiptsAfterPrune.size() / 2, receiptsAfterPrune.size());
      assertThat(late).allSatisfy(size -> assertThat(size).isBetween(4L * 23, 4L * 24));
      assertThat(receiptsAfterPrune.get(receiptsAfterPrune.size() - 1))
          .isLessThan(receiptsWritten / 4);
      assertThat(pointersAfterPrune).allSatisfy(size -> assertThat(size).isEqualTo(3L * 4));
      // Rows of retired versions stay while they hold a kept receipt (at most 24 per resource).
      assertThat(
              pointerRowsAfterPrune.subList(pointerRowsAfterPrune.size() / 2, rounds / pruneEvery))
          .allSatisfy(size -> assertThat(size).isBetween(3L * 23, 3L * 4 + 3L * 24));
      assertThat(count("fenceline_pruned" + mine)).as("one watermark per scope").isEqualTo(4);
      assertThat(reports.current(reportResources.get(0)).orElseThrow().version()).isEqualTo(rounds);
    }
  }

  @Test
  void twoPrunesAtOnceDeleteEverythingOnceBetweenThem() throws Exception {
    ResourceId ledger = resource("concurrent");
    int receipts = 60;
    try (JdbcStore first = database().storeBuilder().pruneBatchSize(5).build();
        JdbcStore second = database().storeBuilder().pruneBatchSize(5).build()) {
      JdbcDestination ledgers = first.destination("ledgers");
      for (int i = 0; i < receipts; i++) {
        write(first, ledgers, ledger, "op-" + i);
      }
      ageReceipts(10 * DAY);
      Retention retention = new Retention(Duration.ofDays(1), 1);
      CountDownLatch start = new CountDownLatch(1);
      java.util.concurrent.Callable<PruneReport> prune =
          () -> {
            start.await();
            return second.prune(retention);
          };
      java.util.concurrent.ExecutorService threads =
          java.util.concurrent.Executors.newFixedThreadPool(1);
      try {
        java.util.concurrent.Future<PruneReport> other = threads.submit(prune);
        start.countDown();
        PruneReport mine = first.prune(retention);
        PruneReport theirs = other.get(60, TimeUnit.SECONDS);
        assertThat(mine.receiptsDeleted() + theirs.receiptsDeleted()).isEqualTo(receipts);
      } finally {
        threads.shutdownNow();
      }
      assertThat(count("fenceline_operation WHERE resource = '" + ledger.value() + "'")).isZero();
      assertThatThrownBy(() -> ledgers.lookup(ledger, OperationId.of("op-0")))
          .isInstanceOf(ReceiptPrunedException.class);
    }
  }

  @Test
  void prunesInTheBackgroundAndStopsOnClose() throws Exception {
    ResourceId ledger = resource("background");
    CountDownLatch pruned = new CountDownLatch(3);
    AtomicLong deleted = new AtomicLong();
    JdbcStore store =
        database()
            .storeBuilder()
            .retention(new Retention(Duration.ofDays(1), 2))
            .pruneEvery(Duration.ofMillis(5))
            .pruneListener(
                new Pruning.Listener() {
                  @Override
                  public void pruned(PruneReport report) {
                    deleted.addAndGet(report.receiptsDeleted());
                    pruned.countDown();
                  }

                  @Override
                  public void failed(RuntimeException failure) {}
                })
            .build();
    try {
      JdbcDestination ledgers = store.destination("ledgers");
      write(store, ledgers, ledger, "ancient");
      setRecordedAt(ledgers.name(), ledger, "ancient", 0);
      assertThat(pruned.await(60, TimeUnit.SECONDS)).as("three background runs").isTrue();
      assertThat(deleted.get()).isGreaterThanOrEqualTo(1);
      assertThatThrownBy(() -> ledgers.lookup(ledger, OperationId.of("ancient")))
          .isInstanceOf(ReceiptPrunedException.class);
      assertThat(store.backgroundPruningStopped()).isFalse();
    } finally {
      store.close();
    }
    assertThat(store.backgroundPruningStopped()).as("close stops the background pruning").isTrue();
  }

  @Test
  void aFailedBackgroundRunIsNotFatal() throws Exception {
    AtomicInteger calls = new AtomicInteger();
    CountDownLatch failed = new CountDownLatch(1);
    CountDownLatch prunedAfterFailure = new CountDownLatch(1);
    JdbcStore store =
        database()
            .storeBuilder()
            .retention(new Retention(Duration.ofDays(1), 2))
            .pruneEvery(Duration.ofMillis(5))
            .pruneClock(
                connection -> {
                  if (calls.incrementAndGet() == 1) {
                    throw new SQLException("the clock is broken once");
                  }
                  return 10 * DAY;
                })
            .pruneListener(
                new Pruning.Listener() {
                  @Override
                  public void pruned(PruneReport report) {
                    if (failed.getCount() == 0) {
                      prunedAfterFailure.countDown();
                    }
                  }

                  @Override
                  public void failed(RuntimeException failure) {
                    assertThat(failure).hasMessageContaining("the clock is broken once");
                    failed.countDown();
                  }
                })
            .build();
    try {
      assertThat(failed.await(60, TimeUnit.SECONDS)).isTrue();
      assertThat(prunedAfterFailure.await(60, TimeUnit.SECONDS)).isTrue();
    } finally {
      store.close();
    }
    assertThat(store.backgroundPruningStopped()).isTrue();
  }

  @Test
  void pruneWithoutARetentionAndBackgroundWithoutOneAreRefused() {
    try (JdbcStore store = database().openStore()) {
      assertThat(store.retention()).isEmpty();
      assertThatThrownBy(store::prune)
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("no retention is configured")
          .hasMessageContaining("retention(...)");
    }
    assertThatThrownBy(() -> database().storeBuilder().pruneEvery(Duration.ofHours(1)).build())
        .isInstanceOf(dev.fenceline.spi.ConfigurationException.class)
        .hasMessageContaining("every PT1H")
        .hasMessageContaining("no retention(...) is given");
  }

  // --- helpers ---

  private static void write(
      JdbcStore store, JdbcDestination destination, ResourceId resource, String operation) {
    assertThat(
            destination.write(
                new FencingToken(store.id(), resource, Epoch.of(1), "worker"),
                OperationId.of(operation),
                NOTHING))
        .isInstanceOf(Applied.class);
  }

  private static void publish(
      JdbcStore store, JdbcPointerStore pointers, ResourceId resource, int versions) {
    for (int version = 1; version <= versions; version++) {
      publishOne(store, pointers, resource, version);
    }
  }

  private static void publishOne(
      JdbcStore store, JdbcPointerStore pointers, ResourceId resource, int version) {
    assertThat(
            pointers.write(
                new FencingToken(store.id(), resource, Epoch.of(1), "worker"),
                OperationId.of("publish-" + version),
                Pointer.to("v" + version)))
        .isInstanceOf(Applied.class);
  }

  private static List<Long> versions(JdbcPointerStore pointers, ResourceId resource) {
    return pointers.history(resource, 100).stream().map(PointerState::version).toList();
  }

  /** The tables that hold receipts: a destination's records, a pointer version's row. */
  private static final List<String> RECEIPT_TABLES =
      List.of("fenceline_operation", "fenceline_pointer");

  private void setRecordedAt(String destination, ResourceId resource, String operation, long millis)
      throws SQLException {
    int updated = 0;
    try (Connection connection = database().connect()) {
      for (String table : RECEIPT_TABLES) {
        try (PreparedStatement update =
            connection.prepareStatement(
                "UPDATE "
                    + table
                    + " SET recorded_at_ms = ? WHERE destination = ? AND resource = ?"
                    + " AND operation = ? AND recorded_at_ms IS NOT NULL")) {
          update.setLong(1, millis);
          update.setString(2, destination);
          update.setString(3, resource.value());
          update.setString(4, operation);
          updated += update.executeUpdate();
        }
      }
    }
    assertThat(updated).as("receipts of %s", operation).isEqualTo(1);
  }

  private void ageReceipts(long millis) throws SQLException {
    try (Connection connection = database().connect()) {
      for (String table : RECEIPT_TABLES) {
        try (PreparedStatement update =
            connection.prepareStatement(
                "UPDATE "
                    + table
                    + " SET recorded_at_ms = recorded_at_ms - ?"
                    + " WHERE resource LIKE ? AND recorded_at_ms IS NOT NULL")) {
          update.setLong(1, millis);
          update.setString(2, "%-" + run);
          update.executeUpdate();
        }
      }
    }
  }

  /** Receipts kept of the resources {@code where} selects, in both tables that hold them. */
  private long receipts(String where) throws SQLException {
    return count("fenceline_operation" + where)
        + count("fenceline_pointer" + where + " AND recorded_at_ms IS NOT NULL");
  }

  private long count(String fromWhere) throws SQLException {
    try (Connection connection = database().connect();
        Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery("SELECT COUNT(*) FROM " + fromWhere)) {
      rows.next();
      return rows.getLong(1);
    }
  }
}
