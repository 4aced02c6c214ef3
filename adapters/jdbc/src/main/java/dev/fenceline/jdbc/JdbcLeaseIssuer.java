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

import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.Lease;
import dev.fenceline.spi.LeaseIssuer;
import dev.fenceline.spi.LeaseLostException;
import dev.fenceline.spi.LeaseStatus;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StoreException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * A {@link LeaseIssuer} on a SQL database. Each call is one statement on the resource's row in
 * {@code fenceline_lease} in its own transaction (on PostgreSQL a server-side function that sets
 * the lock timeout first; on SQLite inside {@code BEGIN IMMEDIATE}, so that a failing {@code
 * COMMIT} is reported as an unknown outcome and a failing statement as nothing committed); expiry
 * is decided by the database's clock, never the worker's. The epoch is stored in that row and never
 * decreases, so after a restart of the database the next epoch is larger than every epoch handed
 * out before (R1) as long as commits are durable, which {@link JdbcStore} checks when it opens.
 *
 * <p>With SQLite the database's clock is the wall clock of the machine that shares the file: a
 * wall-clock jump on that machine shortens or lengthens leases (never the epoch order).
 */
public final class JdbcLeaseIssuer implements LeaseIssuer {

  private record Row(long epoch, String holder, long expiresAtMillis, long nowMillis) {
    boolean held() {
      return holder != null && expiresAtMillis > nowMillis;
    }
  }

  private final Transactions transactions;
  private final StoreIdentity identity;

  JdbcLeaseIssuer(Transactions transactions, StoreIdentity identity) {
    this.transactions = transactions;
    this.identity = identity;
  }

  /** The database's identity ({@link JdbcStore#id()}): every issuer on it shares the epochs. */
  @Override
  public String id() {
    return identity.id();
  }

  /**
   * One statement: takes the lease if nobody holds it and increments the epoch in the same step. On
   * PostgreSQL a plain statement ({@link LeaseSql#acquirePostgres}) that changes nothing on a newer
   * schema; an empty answer reads the schema version once more to tell that apart.
   */
  @Override
  public Optional<Lease> tryAcquire(ResourceId resource, String holder, Duration ttl) {
    requireNonNull(resource, "resource is null");
    FencingToken.validateHolder(holder);
    long ttlMillis = ttlMillis("lease " + resource, ttl);
    return transactions.inOneStatement(
        "acquire the lease on " + resource,
        connection -> {
          boolean postgres = transactions.dialect() == Dialect.POSTGRESQL;
          try (PreparedStatement acquire =
              connection.prepareStatement(
                  postgres
                      ? transactions.oneStatement(connection, LeaseSql.acquirePostgres())
                      : LeaseSql.acquire(transactions.dialect(), "?1", "?2", "?3"))) {
            acquire.setString(1, resource.value());
            acquire.setString(2, holder);
            acquire.setLong(3, ttlMillis);
            Optional<long[]> row;
            if (postgres) {
              acquire.setInt(4, Schema.VERSION);
              row = answeredRow(acquire, 2);
            } else {
              row = singleRow(acquire, 2);
            }
            return row.map(
                granted ->
                    new Lease(
                        identity.sign(
                            new FencingToken(
                                identity.id(), resource, Epoch.of(granted[0]), holder)),
                        Instant.ofEpochMilli(granted[1]),
                        Duration.ofMillis(ttlMillis)));
          }
        });
  }

  /**
   * One statement (on PostgreSQL a plain one, {@link LeaseSql#renewPostgres}) when the lease is
   * still held: sets its expiry to the database's now plus {@code ttl} (whole milliseconds, rounded
   * up; at least 1 ms); a refused renewal reads the lease once more to say why.
   */
  @Override
  public Lease renew(Lease lease, Duration ttl) {
    requireNonNull(lease, "lease is null");
    ResourceId resource = lease.resource();
    long ttlMillis = ttlMillis("renew lease " + lease.token(), ttl);
    if (!lease.token().issuer().equals(identity.id())) {
      throw lost(lease, "it was issued by " + lease.token().issuer() + ", not by " + identity.id());
    }
    Optional<long[]> renewed =
        transactions.inOneStatement(
            "renew the lease " + lease.token(),
            connection -> {
              boolean postgres = transactions.dialect() == Dialect.POSTGRESQL;
              if (postgres) {
                try (PreparedStatement renew =
                    connection.prepareStatement(
                        transactions.oneStatement(connection, LeaseSql.renewPostgres()))) {
                  renew.setLong(1, ttlMillis);
                  renew.setString(2, resource.value());
                  renew.setLong(3, lease.epoch().value());
                  renew.setString(4, lease.token().holder());
                  renew.setInt(5, Schema.VERSION);
                  return answeredRow(renew, 1);
                }
              }
              try (PreparedStatement renew =
                  connection.prepareStatement(
                      LeaseSql.renew(transactions.dialect(), "?1", "?2", "?3", "?4"))) {
                bindLease(renew, lease);
                renew.setLong(4, ttlMillis);
                return singleRow(renew, 1);
              }
            });
    if (renewed.isPresent()) {
      return new Lease(
          lease.token(), Instant.ofEpochMilli(renewed.get()[0]), Duration.ofMillis(ttlMillis));
    }
    // The statement's empty answer is the refusal: the lease is lost whatever the read below says.
    Optional<Row> row;
    try {
      row =
          transactions.read(
              "read why the lease " + lease.token() + " cannot be renewed",
              connection -> selectRow(connection, resource));
    } catch (StoreException unreadable) {
      LeaseLostException lost =
          lost(lease, "the issuer refused the renewal (why could not be read)");
      lost.addSuppressed(unreadable);
      throw lost;
    }
    String reason = reasonLost(row, lease);
    throw lost(lease, reason == null ? "it changed while it was being renewed" : reason);
  }

  /** One statement (on PostgreSQL a plain one, {@link LeaseSql#releasePostgres}). */
  @Override
  public boolean release(Lease lease) {
    requireNonNull(lease, "lease is null");
    if (!lease.token().issuer().equals(identity.id())) {
      return false; // another issuer's lease is never current here
    }
    return transactions.inOneStatement(
        "release the lease " + lease.token(),
        connection -> {
          boolean postgres = transactions.dialect() == Dialect.POSTGRESQL;
          try (PreparedStatement release =
              connection.prepareStatement(
                  postgres
                      ? transactions.oneStatement(connection, LeaseSql.releasePostgres())
                      : LeaseSql.release("?1", "?2", "?3"))) {
            bindLease(release, lease);
            if (!postgres) {
              return release.executeUpdate() == 1;
            }
            release.setInt(4, Schema.VERSION);
            return answeredRow(release, 1).isPresent();
          }
        });
  }

  @Override
  public LeaseStatus status(ResourceId resource) {
    requireNonNull(resource, "resource is null");
    if (!identity.tablesPresent()) {
      // A read-only store on a database nobody has written to yet: no lease was ever handed out.
      return new LeaseStatus(resource, Epoch.NONE, Optional.empty(), Optional.empty(), false);
    }
    return transactions.read(
        "read the lease status of " + resource,
        connection -> {
          Optional<Row> found = selectRow(connection, resource);
          if (found.isEmpty()) {
            return new LeaseStatus(resource, Epoch.NONE, Optional.empty(), Optional.empty(), false);
          }
          Row row = found.get();
          boolean released = row.holder() == null;
          return new LeaseStatus(
              resource,
              Epoch.of(row.epoch()),
              Optional.ofNullable(row.holder()),
              released
                  ? Optional.empty()
                  : Optional.of(Instant.ofEpochMilli(row.expiresAtMillis())),
              row.held());
        });
  }

  private Optional<Row> selectRow(Connection connection, ResourceId resource) throws SQLException {
    try (PreparedStatement select =
        connection.prepareStatement(
            "SELECT epoch, holder, expires_at_ms, "
                + transactions.dialect().nowMillis
                + " FROM fenceline_lease WHERE resource = ?")) {
      select.setString(1, resource.value());
      try (ResultSet rows = select.executeQuery()) {
        if (!rows.next()) {
          return Optional.empty();
        }
        return Optional.of(
            new Row(rows.getLong(1), rows.getString(2), rows.getLong(3), rows.getLong(4)));
      }
    }
  }

  /**
   * The single row of a statement that returns at most one ({@code columns} longs), read to the
   * end, so that the statement has finished before its transaction commits (on SQLite the steps run
   * inside {@code BEGIN IMMEDIATE}, see {@link Transactions#inOneStatement}).
   */
  private static Optional<long[]> singleRow(PreparedStatement statement, int columns)
      throws SQLException {
    try (ResultSet rows = Transactions.rows(statement)) {
      if (!rows.next()) {
        return Optional.empty();
      }
      long[] values = new long[columns];
      for (int i = 0; i < columns; i++) {
        values[i] = rows.getLong(i + 1);
      }
      if (rows.next()) {
        throw new SQLException("a lease statement returned more than one row");
      }
      return Optional.of(values);
    }
  }

  /**
   * PostgreSQL: the one row of a lease statement ({@link LeaseSql#acquirePostgres} and the others):
   * {@code columns} longs, empty if the first is NULL (nothing changed); refuses a newer schema,
   * which the statement's last column shows (and under which it changed nothing).
   */
  private static Optional<long[]> answeredRow(PreparedStatement statement, int columns)
      throws SQLException {
    try (ResultSet rows = Transactions.rows(statement)) {
      if (!rows.next()) {
        throw new SQLException("a lease statement returned no row");
      }
      Schema.refuseNewer(rows.getInt(columns + 1));
      long[] values = new long[columns];
      for (int i = 0; i < columns; i++) {
        values[i] = rows.getLong(i + 1);
        if (rows.wasNull()) {
          return Optional.empty();
        }
      }
      return Optional.of(values);
    }
  }

  /** Parameters 1 to 3 of the renew and release statements: resource, epoch, holder. */
  private static void bindLease(PreparedStatement statement, Lease lease) throws SQLException {
    statement.setString(1, lease.resource().value());
    statement.setLong(2, lease.epoch().value());
    statement.setString(3, lease.token().holder());
  }

  private static LeaseLostException lost(Lease lease, String reason) {
    return new LeaseLostException(
        lease.token(),
        "Cannot renew lease "
            + lease.token()
            + ": "
            + reason
            + " (stop working on it; acquire again for a new epoch)");
  }

  private static String reasonLost(Optional<Row> found, Lease lease) {
    if (found.isEmpty() || found.get().epoch() < lease.epoch().value()) {
      return "this issuer never handed out epoch " + lease.epoch();
    }
    Row row = found.get();
    if (row.epoch() > lease.epoch().value()) {
      return "epoch "
          + row.epoch()
          + " was issued since"
          + (row.holder() == null ? "" : " (to " + row.holder() + ")");
    }
    if (row.holder() == null) {
      return "it was released";
    }
    if (!row.holder().equals(lease.token().holder())) {
      return "epoch "
          + lease.epoch()
          + " is held by "
          + row.holder()
          + ", not by "
          + lease.token().holder();
    }
    if (row.expiresAtMillis() <= row.nowMillis()) {
      return "it expired at "
          + Instant.ofEpochMilli(row.expiresAtMillis())
          + " by the database's clock";
    }
    return null;
  }

  /**
   * {@code ttl} in whole milliseconds, rounded up so that the stored lease never ends before the
   * ttl asked for; the lease returned carries this stored ttl.
   */
  private static long ttlMillis(String action, Duration ttl) {
    requireNonNull(ttl, "ttl is null");
    if (ttl.isNegative() || ttl.toMillis() < 1) {
      throw new IllegalArgumentException(
          "Cannot " + action + " for " + ttl + ": the ttl must be at least 1 ms (e.g. PT30S)");
    }
    long millis = ttl.toMillis();
    return Duration.ofMillis(millis).equals(ttl) ? millis : millis + 1;
  }
}
