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

import static java.util.Objects.requireNonNull;

import dev.fenceline.spi.ResourceId;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Deletes what a {@link Retention} no longer keeps, in short transactions of at most {@code
 * batchSize} rows each, so no run holds locks for long: on PostgreSQL a batch locks only the rows
 * it deletes (never a resource's control row, so writers are not blocked), on SQLite it holds the
 * database's write lock for one batch, and writers get it between batches.
 *
 * <p>Receipts: a batch deletes the oldest operation records recorded before the cutoff (the
 * database's clock minus {@link Retention#receipts()}), except the one of a pointer store's current
 * pointer, and, in the same transaction, raises the watermark ({@code fenceline_pruned}) of every
 * destination and resource it deleted from to the cutoff, so a lookup never sees a receipt gone
 * without the watermark that explains it.
 *
 * <p>Pointers: for each pointer store and resource with more than {@link
 * Retention#pointerVersions()} versions, the versions up to the newest minus that many are deleted.
 * Versions only grow and the newest is the current pointer, so the current pointer is never
 * deleted; a pointer swapped in during the run only makes the run keep one more version.
 */
final class Pruning {

  private static final System.Logger LOG = System.getLogger(Pruning.class.getName());

  /** Rows one transaction deletes at most, unless the builder says otherwise (tests). */
  static final int DEFAULT_BATCH_SIZE = 500;

  /** The clock the cutoff is computed from: the database's, except in tests. */
  @FunctionalInterface
  interface Clock {
    long nowMillis(Connection connection) throws SQLException;
  }

  /** Hears the outcome of every background run (tests). */
  interface Listener {
    Listener NONE =
        new Listener() {
          @Override
          public void pruned(PruneReport report) {}

          @Override
          public void failed(RuntimeException failure) {}
        };

    void pruned(PruneReport report);

    void failed(RuntimeException failure);
  }

  private record Group(String destination, String resource, long deleteUpTo) {}

  private final Transactions transactions;
  private final Clock clock;
  private final int batchSize;
  private volatile long lastBatchNanos;
  private volatile ScheduledExecutorService background;

  Pruning(Transactions transactions, Clock clock, int batchSize) {
    this.transactions = requireNonNull(transactions, "transactions is null");
    this.clock = requireNonNull(clock, "clock is null");
    if (batchSize < 1) {
      throw new IllegalArgumentException(
          "Cannot prune in batches of " + batchSize + " rows (use 1 or more)");
    }
    this.batchSize = batchSize;
  }

  /** The database's own clock, as every fenced step reads it. */
  static Clock databaseClock(Dialect dialect) {
    return connection -> {
      try (Statement statement = connection.createStatement();
          ResultSet rows = statement.executeQuery("SELECT " + dialect.nowMillis)) {
        rows.next();
        return rows.getLong(1);
      }
    };
  }

  /**
   * The watermark of {@code destination} and {@code resource}, if any of its receipts were pruned.
   * Read it after looking for the receipt: it commits together with the deletes and never goes
   * down, so a receipt not found by an earlier read is covered by the watermark a later read sees.
   */
  static Optional<Instant> prunedBefore(
      Connection connection, String destination, ResourceId resource) throws SQLException {
    try (PreparedStatement select =
        connection.prepareStatement(
            "SELECT pruned_before_ms FROM fenceline_pruned WHERE destination = ? AND resource = ?")) {
      select.setString(1, destination);
      select.setString(2, resource.value());
      try (ResultSet rows = select.executeQuery()) {
        return rows.next() ? Optional.of(Instant.ofEpochMilli(rows.getLong(1))) : Optional.empty();
      }
    }
  }

  /**
   * Runs {@link #run} with {@code retention} every {@code every} on a daemon thread, first {@code
   * every} from now, until {@link #stopBackground}. A failed run is logged and the next one runs as
   * planned; a run that fails because the store was closed is not a failure. Call it once.
   */
  void startBackground(Duration every, Retention retention, Listener listener) {
    requireNonNull(retention, "retention is null");
    ScheduledExecutorService executor =
        Executors.newSingleThreadScheduledExecutor(
            task -> {
              Thread thread = new Thread(task, "fenceline-prune " + transactions.description());
              thread.setDaemon(true);
              return thread;
            });
    long millis = Math.max(1, every.toMillis());
    executor.scheduleWithFixedDelay(
        () -> runInBackground(retention, listener), millis, millis, TimeUnit.MILLISECONDS);
    background = executor;
  }

  /**
   * Stops the background runs, waiting up to {@code waitMillis} for a run in progress to finish its
   * current batch.
   *
   * @return false if that run did not finish in time (it stops after its current batch)
   */
  boolean stopBackground(long waitMillis) {
    ScheduledExecutorService executor = background;
    if (executor == null) {
      return true;
    }
    executor.shutdown();
    try {
      return executor.awaitTermination(waitMillis, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return true;
    }
  }

  /** True once the background runs have stopped for good (or were never started). */
  boolean backgroundStopped() {
    ScheduledExecutorService executor = background;
    return executor == null || executor.isTerminated();
  }

  private void runInBackground(Retention retention, Listener listener) {
    PruneReport report;
    try {
      report = run(retention);
    } catch (RuntimeException e) {
      if (transactions.isClosed()) {
        return;
      }
      LOG.log(
          System.Logger.Level.WARNING,
          "Cannot prune "
              + transactions.description()
              + " in the background (the next run retries; batches committed stay deleted): "
              + e.getMessage(),
          e);
      listener.failed(e);
      return;
    }
    listener.pruned(report);
  }

  /** Runs once; stops early, with what was deleted so far, once the store is closed. */
  PruneReport run(Retention retention) {
    requireNonNull(retention, "retention is null");
    long now = transactions.read("read the database's clock to prune", clock::nowMillis);
    long cutoff = Math.max(0, now - millis(retention));
    String receiptsAction =
        "prune receipts recorded before " + Instant.ofEpochMilli(cutoff) + " (" + retention + ")";
    long receipts = 0;
    int batches = 0;
    int selected = batchSize;
    while (selected == batchSize && !transactions.isClosed()) {
      if (batches > 0) {
        letWritersIn();
      }
      long[] counts =
          timed(() -> transactions.inTransaction(receiptsAction, tx -> deleteReceipts(tx, cutoff)));
      selected = (int) counts[0];
      receipts += counts[1];
      batches++;
    }
    long pointers = 0;
    List<Group> groups =
        transactions.read(
            "find pointer histories longer than " + retention.pointerVersions() + " versions",
            tx -> overlongHistories(tx, retention.pointerVersions()));
    int next = 0;
    while (next < groups.size() && !transactions.isClosed()) {
      if (batches > 0) {
        letWritersIn();
      }
      int from = next;
      long[] counts =
          timed(
              () ->
                  transactions.inTransaction(
                      "prune pointer versions beyond the newest " + retention.pointerVersions(),
                      tx -> deletePointers(tx, groups, from)));
      next = (int) counts[0];
      pointers += counts[1];
      batches++;
    }
    PruneReport report = new PruneReport(receipts, pointers, Instant.ofEpochMilli(cutoff), batches);
    LOG.log(
        System.Logger.Level.DEBUG,
        () ->
            "Pruned "
                + transactions.description()
                + ": "
                + report.receiptsDeleted()
                + " receipts recorded before "
                + report.prunedBefore()
                + ", "
                + report.pointerVersionsDeleted()
                + " pointer versions, in "
                + report.batches()
                + " transactions");
    return report;
  }

  private long[] timed(java.util.function.Supplier<long[]> batch) {
    long start = System.nanoTime();
    try {
      return batch.get();
    } finally {
      lastBatchNanos = System.nanoTime() - start;
    }
  }

  /**
   * SQLite: a batch holds the file's write lock, and SQLite's lock is not fair: a writer waiting in
   * its busy handler polls with growing pauses and may miss the moment between two batches. Pausing
   * as long as the last batch took (at most 100 ms) gives waiting writers the lock at least half of
   * the time. PostgreSQL needs no pause: a batch locks only the rows it deletes.
   */
  private void letWritersIn() {
    if (transactions.dialect() == Dialect.SQLITE) {
      java.util.concurrent.locks.LockSupport.parkNanos(
          Math.min(lastBatchNanos, java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(100)));
    }
  }

  private static long millis(Retention retention) {
    try {
      return retention.receipts().toMillis();
    } catch (ArithmeticException e) {
      return Long.MAX_VALUE; // longer than the clock goes back: nothing is old enough
    }
  }

  /**
   * Deletes one batch of old receipts: rows of {@code fenceline_operation}, then the receipts held
   * by pointer versions that are not current (a version still in the history keeps its row, with
   * the receipt's columns set to NULL; a retired version's row is deleted); returns {receipts
   * selected, receipts deleted}.
   */
  private long[] deleteReceipts(Connection connection, long cutoff) throws SQLException {
    // A newer schema may keep its watermark elsewhere: deleting without it would lie.
    Schema.checkVersion(connection);
    List<String[]> records =
        select(
            connection,
            "SELECT o.destination, o.resource, o.operation FROM fenceline_operation o"
                + " WHERE o.recorded_at_ms < ?"
                // The receipt of the current pointer stays while it is current. A newer swap only
                // makes another operation current, so a row selected here stays deletable.
                + " AND NOT EXISTS (SELECT 1 FROM fenceline_pointer p"
                + " WHERE p.destination = o.destination AND p.resource = o.resource"
                + " AND p.operation = o.operation AND p.version = (SELECT MAX(v.version)"
                + " FROM fenceline_pointer v"
                + " WHERE v.destination = o.destination AND v.resource = o.resource))"
                + " ORDER BY o.recorded_at_ms, o.destination, o.resource, o.operation LIMIT ?",
            cutoff,
            batchSize);
    List<String[]> held =
        records.size() == batchSize
            ? List.of()
            : select(
                connection,
                "SELECT p.destination, p.resource, p.operation FROM fenceline_pointer p"
                    + " WHERE p.recorded_at_ms < ? AND p.recorded_at_ms IS NOT NULL"
                    // As above: the current version keeps its receipt.
                    + " AND p.version < (SELECT MAX(v.version) FROM fenceline_pointer v"
                    + " WHERE v.destination = p.destination AND v.resource = p.resource)"
                    + " ORDER BY p.recorded_at_ms, p.destination, p.resource, p.operation LIMIT ?",
                cutoff,
                batchSize - records.size());
    long deleted =
        update(
                connection,
                "DELETE FROM fenceline_operation WHERE destination = ? AND resource = ?"
                    + " AND operation = ? AND recorded_at_ms < ?",
                records,
                cutoff)
            + update(
                connection,
                "UPDATE fenceline_pointer SET recorded_at_ms = NULL, receipt_attributes = NULL,"
                    + " fingerprint = NULL WHERE destination = ? AND resource = ? AND operation = ?"
                    + " AND recorded_at_ms < ? AND recorded_at_ms IS NOT NULL AND retired = 0",
                held,
                cutoff)
            + update(
                connection,
                "DELETE FROM fenceline_pointer WHERE destination = ? AND resource = ?"
                    + " AND operation = ? AND recorded_at_ms < ? AND recorded_at_ms IS NOT NULL"
                    + " AND retired = 1",
                held,
                cutoff);
    List<String[]> keys = new ArrayList<>(records);
    keys.addAll(held);
    if (!keys.isEmpty()) {
      raiseWatermarks(connection, keys, cutoff);
    }
    return new long[] {keys.size(), deleted};
  }

  /** The (destination, resource, operation) keys {@code sql} selects with its two parameters. */
  private static List<String[]> select(Connection connection, String sql, long cutoff, int limit)
      throws SQLException {
    List<String[]> keys = new ArrayList<>();
    try (PreparedStatement select = connection.prepareStatement(sql)) {
      select.setLong(1, cutoff);
      select.setInt(2, limit);
      try (ResultSet rows = select.executeQuery()) {
        while (rows.next()) {
          keys.add(new String[] {rows.getString(1), rows.getString(2), rows.getString(3)});
        }
      }
    }
    return keys;
  }

  /** Runs {@code sql} once per key (and the cutoff) in one batch; returns the rows it changed. */
  private static long update(Connection connection, String sql, List<String[]> keys, long cutoff)
      throws SQLException {
    if (keys.isEmpty()) {
      return 0;
    }
    long changed = 0;
    try (PreparedStatement statement = connection.prepareStatement(sql)) {
      for (String[] key : keys) {
        statement.setString(1, key[0]);
        statement.setString(2, key[1]);
        statement.setString(3, key[2]);
        statement.setLong(4, cutoff);
        statement.addBatch();
      }
      for (int count : statement.executeBatch()) {
        changed += Math.max(count, 0);
      }
    }
    return changed;
  }

  /**
   * Raises the watermark of every destination and resource in {@code keys} to {@code cutoff}, in
   * the transaction that deleted their receipts.
   */
  private static void raiseWatermarks(Connection connection, List<String[]> keys, long cutoff)
      throws SQLException {
    // Sorted, so two concurrent prunes take the watermark rows' locks in the same order.
    TreeSet<String> scopes = new TreeSet<>();
    for (String[] key : keys) {
      scopes.add(key[0] + '\n' + key[1]);
    }
    try (PreparedStatement upsert =
        connection.prepareStatement(
            "INSERT INTO fenceline_pruned (destination, resource, pruned_before_ms)"
                + " VALUES (?, ?, ?) ON CONFLICT (destination, resource) DO UPDATE SET"
                + " pruned_before_ms = CASE"
                + " WHEN fenceline_pruned.pruned_before_ms > excluded.pruned_before_ms"
                + " THEN fenceline_pruned.pruned_before_ms ELSE excluded.pruned_before_ms END")) {
      for (String scope : scopes) {
        int newline = scope.indexOf('\n');
        upsert.setString(1, scope.substring(0, newline));
        upsert.setString(2, scope.substring(newline + 1));
        upsert.setLong(3, cutoff);
        upsert.addBatch();
      }
      upsert.executeBatch();
    }
  }

  private static List<Group> overlongHistories(Connection connection, int keep)
      throws SQLException {
    List<Group> groups = new ArrayList<>();
    try (PreparedStatement select =
        connection.prepareStatement(
            "SELECT destination, resource, MAX(version) FROM fenceline_pointer WHERE retired = 0"
                + " GROUP BY destination, resource HAVING COUNT(*) > ?"
                + " ORDER BY destination, resource")) {
      select.setInt(1, keep);
      try (ResultSet rows = select.executeQuery()) {
        while (rows.next()) {
          // The newest version is the current pointer; keep >= 1 keeps it.
          groups.add(new Group(rows.getString(1), rows.getString(2), rows.getLong(3) - keep));
        }
      }
    }
    return groups;
  }

  /**
   * Takes old pointer versions of {@code groups} out of the history, starting at index {@code
   * from}, until a batch is full: deletes a version's row, or retires it while it holds a receipt
   * that is still kept; returns {index of the first group not finished, versions taken out}.
   */
  private long[] deletePointers(Connection connection, List<Group> groups, int from)
      throws SQLException {
    Schema.checkVersion(connection);
    long budget = batchSize;
    long deleted = 0;
    int next = from;
    try (PreparedStatement select =
            connection.prepareStatement(
                "SELECT version, recorded_at_ms FROM fenceline_pointer"
                    + " WHERE destination = ? AND resource = ? AND version <= ? AND retired = 0"
                    + " ORDER BY version LIMIT ?");
        PreparedStatement delete =
            connection.prepareStatement(
                "DELETE FROM fenceline_pointer WHERE destination = ? AND resource = ?"
                    + " AND version = ? AND recorded_at_ms IS NULL");
        // A version whose receipt is still kept leaves the history, but its row, which holds the
        // receipt, stays until the receipt is pruned: a receipt never moves to another row. Both
        // statements check again what the select read: if another process's receipt pass nulled
        // the receipt in between, neither applies and the next pass deletes the row (a retired
        // row without a receipt would never be deleted).
        PreparedStatement retire =
            connection.prepareStatement(
                "UPDATE fenceline_pointer SET retired = 1 WHERE destination = ? AND resource = ?"
                    + " AND version = ? AND recorded_at_ms IS NOT NULL")) {
      while (next < groups.size() && budget > 0) {
        Group group = groups.get(next);
        select.setString(1, group.destination());
        select.setString(2, group.resource());
        select.setLong(3, group.deleteUpTo());
        select.setLong(4, budget);
        int count = 0;
        try (ResultSet rows = select.executeQuery()) {
          while (rows.next()) {
            long version = rows.getLong(1);
            rows.getLong(2);
            PreparedStatement change = rows.wasNull() ? delete : retire;
            change.setString(1, group.destination());
            change.setString(2, group.resource());
            change.setLong(3, version);
            change.addBatch();
            count++;
          }
        }
        for (PreparedStatement change : List.of(delete, retire)) {
          for (int changed : change.executeBatch()) {
            deleted += Math.max(changed, 0);
          }
        }
        if (count < budget) {
          next++; // fewer than asked for: this group is done
        }
        budget -= count;
      }
    }
    return new long[] {next, deleted};
  }
}
