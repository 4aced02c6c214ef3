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

import dev.fenceline.spi.AlreadyApplied;
import dev.fenceline.spi.Applied;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Pointer;
import dev.fenceline.spi.PointerState;
import dev.fenceline.spi.Receipt;
import dev.fenceline.spi.RejectedStale;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.WriteOutcome;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The pointer publish's plain statement ({@link PostgresPublish}) decides from one snapshot, taken
 * before it waits for the control row's lock. Each test holds that lock in another transaction,
 * lets a publish wait for it, commits something the snapshot cannot see, and checks the publish
 * answers as if it had started after: a registration made meanwhile makes it stale, a version taken
 * meanwhile puts it after that version, its own first attempt committed meanwhile makes it a
 * replay. The publish is known to be waiting when PostgreSQL shows its backend waiting for a lock.
 */
class PostgresPublishWaitTest {

  private static final AtomicLong COUNTER = new AtomicLong();

  private JdbcStore store;
  private JdbcPointerStore pointers;
  private ResourceId resource;

  @BeforeEach
  void open() {
    store = PostgresDatabase.shared().storeBuilder().build();
    pointers = store.pointerStore("site");
    resource = ResourceId.of("publish-wait/" + System.nanoTime() + "-" + COUNTER.incrementAndGet());
  }

  @AfterEach
  void close() {
    store.close();
  }

  private FencingToken token(long epoch) {
    return new FencingToken(store.id(), resource, Epoch.of(epoch), "worker-" + epoch);
  }

  private WriteOutcome publish(long epoch, String operation) {
    Pointer pointer = Pointer.to("blob-" + operation);
    return pointers.write(
        token(epoch),
        OperationId.of(operation),
        pointer,
        dev.fenceline.spi.RequestFingerprint.of(pointer));
  }

  @Test
  void aPublishThatWaitedWhileANewerEpochWasRegisteredIsStaleAndWritesNothing() throws Exception {
    pointers.register(token(1));
    assertThat(publish(1, "v1")).isInstanceOf(Applied.class);

    WriteOutcome outcome =
        whileTheControlRowIsHeld(
            () -> publish(1, "v2"),
            holder ->
                execute(holder, "UPDATE fenceline_resource SET epoch = 2 WHERE resource = ?"));

    assertThat(outcome).isEqualTo(new RejectedStale(resource, Epoch.of(1), Epoch.of(2)));
    assertThat(pointers.current(resource).map(PointerState::operation))
        .contains(OperationId.of("v1"));
    assertThat(pointers.lookup(resource, OperationId.of("v2"))).isEmpty();
  }

  @Test
  void aPublishThatWaitedWhileAnotherTookTheNextVersionAppliesAfterIt() throws Exception {
    pointers.register(token(1));
    assertThat(publish(1, "v1")).isInstanceOf(Applied.class);

    WriteOutcome outcome =
        whileTheControlRowIsHeld(() -> publish(1, "v3"), holder -> insertVersion(holder, 2, "v2"));

    assertThat(outcome).isInstanceOf(Applied.class);
    assertThat(pointers.history(resource, 10))
        .extracting(state -> state.version() + ":" + state.operation().value())
        .containsExactly("3:v3", "2:v2", "1:v1");
  }

  @Test
  void aRetryThatWaitedWhileItsFirstAttemptCommittedReplaysTheFirstReceipt() throws Exception {
    pointers.register(token(1));
    assertThat(publish(1, "v1")).isInstanceOf(Applied.class);

    // At version 5, not 2: only the unique index of kept receipts, not the primary key of the
    // versions, can tell the statement that its operation committed meanwhile.
    WriteOutcome outcome =
        whileTheControlRowIsHeld(() -> publish(1, "v2"), holder -> insertVersion(holder, 5, "v2"));

    Receipt first = pointers.lookup(resource, OperationId.of("v2")).orElseThrow();
    assertThat(first.recordedAt()).isEqualTo(Instant.ofEpochMilli(1234));
    assertThat(outcome).isEqualTo(new AlreadyApplied(first));
    assertThat(pointers.history(resource, 10))
        .extracting(state -> state.version() + ":" + state.operation().value())
        .containsExactly("5:v2", "1:v1");
  }

  /** What the holder does inside its transaction before it commits. */
  @FunctionalInterface
  private interface Holder {
    void run(Connection holder) throws SQLException;
  }

  /**
   * Locks the resource's control row in another transaction, starts {@code publish}, waits until
   * its backend waits for a lock, runs {@code meanwhile} and commits; returns the publish's
   * outcome.
   */
  private WriteOutcome whileTheControlRowIsHeld(
      java.util.function.Supplier<WriteOutcome> publish, Holder meanwhile) throws Exception {
    try (Connection holder = PostgresDatabase.shared().connect();
        Connection watcher = PostgresDatabase.shared().connect()) {
      holder.setAutoCommit(false);
      execute(holder, "SELECT epoch FROM fenceline_resource WHERE resource = ? FOR UPDATE");
      CompletableFuture<WriteOutcome> outcome = CompletableFuture.supplyAsync(publish);
      awaitBlocked(watcher, backendPid(holder), outcome);
      meanwhile.run(holder);
      holder.commit();
      return outcome.get(30, TimeUnit.SECONDS);
    }
  }

  private void execute(Connection connection, String sql) throws SQLException {
    try (PreparedStatement statement = connection.prepareStatement(sql)) {
      statement.setString(1, resource.value());
      statement.execute();
    }
  }

  /**
   * A committed publish of {@code operation} at {@code version}, as another writer makes it: the
   * version's row, holding the receipt (recorded at 1234 ms).
   */
  private void insertVersion(Connection holder, long version, String operation)
      throws SQLException {
    try (PreparedStatement pointer =
        holder.prepareStatement(
            "INSERT INTO fenceline_pointer (destination, resource, version, target, attributes,"
                + " epoch, operation, recorded_at_ms, receipt_attributes, fingerprint)"
                + " VALUES ('site', ?, ?, ?, ?, 1, ?, 1234, ?, ?)")) {
      Pointer written = Pointer.to("blob-" + operation);
      pointer.setString(1, resource.value());
      pointer.setLong(2, version);
      pointer.setString(3, written.target());
      pointer.setString(4, ReceiptAttributes.encode(written.attributes()));
      pointer.setString(5, operation);
      pointer.setString(6, ReceiptAttributes.encode(written.receiptAttributes()));
      pointer.setString(7, dev.fenceline.spi.RequestFingerprint.of(written).value());
      pointer.executeUpdate();
    }
  }

  private static long backendPid(Connection connection) throws SQLException {
    try (PreparedStatement select = connection.prepareStatement("SELECT pg_backend_pid()");
        ResultSet rows = select.executeQuery()) {
      rows.next();
      return rows.getLong(1);
    }
  }

  /**
   * Backends waiting for a lock that backend {@code holder} holds, as {@code watcher} (outside any
   * transaction, so each query sees the server's state afresh) sees them.
   */
  private static long blockedBy(Connection watcher, long holder) throws SQLException {
    try (PreparedStatement select =
        watcher.prepareStatement(
            "SELECT COUNT(*) FROM pg_stat_activity WHERE ?::int = ANY (pg_blocking_pids(pid))")) {
      select.setLong(1, holder);
      try (ResultSet rows = select.executeQuery()) {
        rows.next();
        return rows.getLong(1);
      }
    }
  }

  /** Polls PostgreSQL's view of its backends until one waits for {@code holder}'s lock. */
  private static void awaitBlocked(Connection watcher, long holder, CompletableFuture<?> publish)
      throws SQLException {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (blockedBy(watcher, holder) < 1) {
      assertThat(publish).as("the publish must wait for the held control row").isNotDone();
      assertThat(System.nanoTime()).as("waited for the publish to block").isLessThan(deadline);
      // Polls the server's state; the order of the test does not depend on timing.
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
    }
  }
}
