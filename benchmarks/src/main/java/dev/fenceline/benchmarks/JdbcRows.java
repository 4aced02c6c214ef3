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
package dev.fenceline.benchmarks;

import dev.fenceline.benchmarks.Options.StoreKind;
import dev.fenceline.benchmarks.Row.Operation;
import dev.fenceline.core.Fenceline;
import dev.fenceline.core.HeldLease;
import dev.fenceline.jdbc.JdbcChange;
import dev.fenceline.jdbc.JdbcDestination;
import dev.fenceline.jdbc.JdbcLeaseIssuer;
import dev.fenceline.jdbc.JdbcPointerStore;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.Lease;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Pointer;
import dev.fenceline.spi.RegisterOutcome;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.WriteOutcome;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.sql.DataSource;
import net.javacrumbs.shedlock.core.ClockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.core.SimpleLock;

/**
 * The rows of the JDBC table, built on public API only: {@link dev.fenceline.jdbc.JdbcStore}'s
 * issuer, pointer store and destination, the {@link Fenceline} facade, ShedLock's lock provider and
 * a plain JDBC upsert. Every row and every worker thread uses its own key, lock name or resource,
 * so rows never disturb each other's epochs and threads only contend for the database itself.
 */
final class JdbcRows {

  static final String RAW_UPSERT = "raw upsert";
  static final String SHEDLOCK = "shedlock lock+unlock";
  static final String POINTER_PUBLISH = "pointer publish";
  static final String FENCED_WRITE = "fenced write";
  static final String SAME_ROWS = "same rows, no fencing";
  static final String ROUND_TRIP = "round trip (SELECT 1)";
  static final String ACQUIRE_RELEASE_ISSUER = "acquire+release (issuer)";
  static final String ACQUIRE_RELEASE_FACADE = "acquire+release (facade)";
  static final String SHEDLOCK_UPSERT = "shedlock lock+upsert+unlock";
  static final String FULL_CYCLE = "full cycle (facade)";

  /** The lease of the acquire rows, and ShedLock's lockAtMostFor. */
  static final Duration LEASE_TTL = Publishing.LEASE_TTL;

  private static final Duration LONG_LEASE = Publishing.LONG_LEASE;

  private JdbcRows() {}

  /**
   * The rows for one database and one group (a thread count). {@code prefix} makes every name of
   * the group unique, e.g. {@code r1a2b-g8}.
   */
  static List<Row> of(Database database, Fenceline fenceline, String holder, String prefix) {
    DataSource pool = database.pool();
    JdbcLeaseIssuer issuer = database.store().leaseIssuer();
    JdbcPointerStore pointers = database.store().pointerStore("bench-pointers");
    JdbcPointerStore cyclePointers = database.store().pointerStore("bench-cycle");
    JdbcDestination destination = database.store().destination("bench-fenced");
    LockProvider shedLock = database.shedLock();
    return List.of(
        new Row(
            RAW_UPSERT, Optional.empty(), thread -> rawUpsert(pool, prefix + "-upsert-" + thread)),
        new Row(
            SHEDLOCK, Optional.empty(), thread -> shedLock(shedLock, prefix + "-lock-" + thread)),
        new Row(
            POINTER_PUBLISH,
            Optional.of(RAW_UPSERT),
            thread ->
                Publishing.pointerPublish(
                    issuer, pointers, holder + "-t" + thread, resource(prefix, "pointer", thread))),
        new Row(
            FENCED_WRITE,
            Optional.of(RAW_UPSERT),
            thread ->
                fencedWrite(
                    issuer,
                    destination,
                    holder + "-t" + thread,
                    resource(prefix, "fenced", thread),
                    prefix + "-fenced-" + thread)),
        new Row(
            SAME_ROWS,
            Optional.of(RAW_UPSERT),
            thread ->
                sameRows(database.kind(), pool, resource(prefix, "rows", thread).value(), prefix)),
        new Row(ROUND_TRIP, Optional.of(RAW_UPSERT), thread -> roundTrip(pool)),
        new Row(
            ACQUIRE_RELEASE_ISSUER,
            Optional.of(SHEDLOCK),
            thread ->
                Publishing.acquireRelease(
                    issuer, holder + "-t" + thread, resource(prefix, "issuer", thread))),
        new Row(
            ACQUIRE_RELEASE_FACADE,
            Optional.of(SHEDLOCK),
            thread -> facadeAcquireRelease(fenceline, resource(prefix, "facade", thread))),
        new Row(
            SHEDLOCK_UPSERT,
            Optional.empty(),
            thread ->
                shedLockUpsert(
                    shedLock, pool, prefix + "-lockup-" + thread, prefix + "-lockup-" + thread)),
        new Row(
            FULL_CYCLE,
            Optional.of(SHEDLOCK_UPSERT),
            thread -> fullCycle(fenceline, cyclePointers, resource(prefix, "cycle", thread))));
  }

  private static ResourceId resource(String prefix, String row, int thread) {
    return Publishing.resource(prefix, row, thread);
  }

  /** Row 1: one auto-commit upsert. */
  static Operation rawUpsert(DataSource pool, String key) {
    long[] value = {0};
    return () -> {
      try (Connection connection = pool.getConnection()) {
        Database.upsert(connection, key, ++value[0]);
      }
    };
  }

  /**
   * Diagnostic row: the rows a pointer publish writes, without Fenceline's decisions: lock one
   * control row, insert a pointer version that holds the receipt (schema 5), commit. On PostgreSQL
   * one round trip (the statements sent together with the COMMIT); on SQLite inside {@code BEGIN
   * IMMEDIATE}. It shows how much of the pointer publish's ratio is the work itself (two rows
   * instead of one) and how much is Fenceline's logic (the PL/pgSQL function).
   */
  private static Operation sameRows(StoreKind kind, DataSource pool, String resource, String prefix)
      throws SQLException {
    String destination = "bench-plain";
    try (Connection connection = pool.getConnection();
        PreparedStatement insert =
            connection.prepareStatement(
                "INSERT INTO fenceline_resource (resource, epoch) VALUES (?, 1)"
                    + " ON CONFLICT (resource) DO NOTHING")) {
      insert.setString(1, resource);
      insert.executeUpdate();
    }
    String lock =
        "SELECT epoch FROM fenceline_resource WHERE resource = ?"
            + (kind == StoreKind.POSTGRESQL ? " FOR UPDATE" : "");
    String pointer =
        "INSERT INTO fenceline_pointer (destination, resource, version, target, attributes, epoch,"
            + " operation, recorded_at_ms, receipt_attributes, fingerprint)"
            + " VALUES (?, ?, ?, ?, '', 1, ?, 0, '', ?)";
    long[] count = {0};
    return () -> {
      long n = ++count[0];
      String operation = prefix + "-" + n;
      try (Connection connection = pool.getConnection()) {
        if (kind == StoreKind.POSTGRESQL) {
          connection.setAutoCommit(false);
          try (PreparedStatement all =
              connection.prepareStatement(lock + "; " + pointer + "; COMMIT")) {
            all.setString(1, resource);
            bindSameRows(all, 1, destination, resource, n, operation);
            all.execute();
          } finally {
            connection.setAutoCommit(true);
          }
          return;
        }
        try (Statement begin = connection.createStatement()) {
          begin.execute("BEGIN IMMEDIATE");
        }
        try (PreparedStatement select = connection.prepareStatement(lock);
            PreparedStatement insertPointer = connection.prepareStatement(pointer)) {
          select.setString(1, resource);
          select.executeQuery().close();
          bindSameRows(insertPointer, 0, destination, resource, n, operation);
          insertPointer.executeUpdate();
        }
        try (Statement commit = connection.createStatement()) {
          commit.execute("COMMIT");
        }
      }
    };
  }

  /** Binds the pointer insert of {@link #sameRows} after {@code before} parameters. */
  private static void bindSameRows(
      PreparedStatement statement,
      int before,
      String destination,
      String resource,
      long version,
      String operation)
      throws SQLException {
    statement.setString(before + 1, destination);
    statement.setString(before + 2, resource);
    statement.setLong(before + 3, version);
    statement.setString(before + 4, "value-" + version);
    statement.setString(before + 5, operation);
    statement.setString(before + 6, "fingerprint-" + version);
  }

  /** Diagnostic row: the cheapest round trip, {@code SELECT 1} (no commit, nothing written). */
  private static Operation roundTrip(DataSource pool) {
    return () -> {
      try (Connection connection = pool.getConnection();
          Statement statement = connection.createStatement()) {
        statement.executeQuery("SELECT 1").close();
      }
    };
  }

  /** Row 2: ShedLock lock (lockAtMostFor 30 s, lockAtLeastFor 0), then unlock. */
  private static Operation shedLock(LockProvider provider, String name) {
    return () -> lock(provider, name).unlock();
  }

  private static SimpleLock lock(LockProvider provider, String name) {
    // ShedLock's own clock (millisecond precision), as its LockingTaskExecutor uses: with
    // Instant.now() (microseconds) the unlock could set lock_until to the lock's createdAt, a
    // fraction of a millisecond after the next lock's "now", and that lock would fail.
    Optional<SimpleLock> lock =
        provider.lock(new LockConfiguration(ClockProvider.now(), name, LEASE_TTL, Duration.ZERO));
    return lock.orElseThrow(
        () ->
            new IllegalStateException(
                "ShedLock did not lock " + name + " although only this thread uses it"));
  }

  /** Row 4: the same upsert as row 1, as a fenced change (epoch check + operation record). */
  private static Operation fencedWrite(
      JdbcLeaseIssuer issuer,
      JdbcDestination destination,
      String holder,
      ResourceId resource,
      String key) {
    Lease lease = acquire(issuer, resource, holder, LONG_LEASE);
    FencingToken token = lease.token();
    expectRegistered(destination.register(token), resource);
    long[] count = {0};
    return new Operation() {
      @Override
      public void run() {
        long n = ++count[0];
        JdbcChange change =
            (connection, ignoredToken, ignoredOperation) -> {
              Database.upsert(connection, key, n);
              return Map.of();
            };
        expectApplied(destination.write(token, operation(resource, n), change));
      }

      @Override
      public void close() {
        issuer.release(lease);
      }
    };
  }

  /**
   * Row 5b: Fenceline.tryAcquire + HeldLease.close. The facade adds no database statement (it
   * schedules renewal and a deadline watch, cancelled on close).
   */
  private static Operation facadeAcquireRelease(Fenceline fenceline, ResourceId resource) {
    return () -> {
      HeldLease lease =
          fenceline
              .tryAcquire(resource)
              .orElseThrow(() -> new IllegalStateException("Cannot acquire " + resource));
      lease.close();
    };
  }

  /** Peer of row 6: ShedLock lock, the raw upsert, unlock. */
  private static Operation shedLockUpsert(
      LockProvider provider, DataSource pool, String name, String key) {
    long[] value = {0};
    return () -> {
      SimpleLock lock = lock(provider, name);
      try (Connection connection = pool.getConnection()) {
        Database.upsert(connection, key, ++value[0]);
      } finally {
        lock.unlock();
      }
    };
  }

  /** Row 6: acquire, register, publish a pointer, release, through the facade. */
  private static Operation fullCycle(
      Fenceline fenceline, JdbcPointerStore pointers, ResourceId resource) {
    long[] count = {0};
    return () -> {
      long n = ++count[0];
      try (HeldLease lease =
          fenceline
              .tryAcquire(resource)
              .orElseThrow(() -> new IllegalStateException("Cannot acquire " + resource))) {
        expectRegistered(fenceline.register(lease, pointers), resource);
        expectApplied(
            fenceline.publish(lease, pointers, operation(resource, n), Pointer.to("cycle-" + n)));
      }
    };
  }

  private static Lease acquire(
      JdbcLeaseIssuer issuer, ResourceId resource, String holder, Duration ttl) {
    return Publishing.acquire(issuer, resource, holder, ttl);
  }

  private static OperationId operation(ResourceId resource, long n) {
    return Publishing.operation(resource, n);
  }

  private static void expectRegistered(RegisterOutcome outcome, ResourceId resource) {
    Publishing.expectRegistered(outcome, resource);
  }

  private static void expectApplied(WriteOutcome outcome) {
    Publishing.expectApplied(outcome);
  }
}
