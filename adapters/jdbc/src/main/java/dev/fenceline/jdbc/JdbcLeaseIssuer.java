package dev.fenceline.jdbc;

import static java.util.Objects.requireNonNull;

import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.Lease;
import dev.fenceline.spi.LeaseIssuer;
import dev.fenceline.spi.LeaseLostException;
import dev.fenceline.spi.LeaseStatus;
import dev.fenceline.spi.ResourceId;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * A {@link LeaseIssuer} on a SQL database. Each call is one transaction on the resource's row in
 * {@code fenceline_lease}; expiry is decided by the database's clock, never the worker's. The epoch
 * is stored in that row and never decreases, so after a restart of the database the next epoch is
 * larger than every epoch handed out before (R1) as long as commits are durable, which {@link
 * JdbcStore} checks when it opens.
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

  private final JdbcStore store;

  JdbcLeaseIssuer(JdbcStore store) {
    this.store = store;
  }

  /** The database's identity ({@link JdbcStore#id()}): every issuer on it shares the epochs. */
  @Override
  public String id() {
    return store.id();
  }

  @Override
  public Optional<Lease> tryAcquire(ResourceId resource, String holder, Duration ttl) {
    requireNonNull(resource, "resource is null");
    FencingToken.validateHolder(holder);
    long ttlMillis = ttlMillis(resource, ttl);
    return store.inTransaction(
        "acquire the lease on " + resource,
        connection -> {
          try (PreparedStatement insert =
              connection.prepareStatement(
                  "INSERT INTO fenceline_lease (resource, epoch, holder, expires_at_ms)"
                      + " VALUES (?, 0, NULL, 0) ON CONFLICT (resource) DO NOTHING")) {
            insert.setString(1, resource.value());
            insert.executeUpdate();
          }
          Row row = lockRow(connection, resource).orElseThrow();
          if (row.held()) {
            return Optional.empty();
          }
          long epoch = Math.addExact(row.epoch(), 1);
          long expiresAt = Math.addExact(row.nowMillis(), ttlMillis);
          try (PreparedStatement update =
              connection.prepareStatement(
                  "UPDATE fenceline_lease SET epoch = ?, holder = ?, expires_at_ms = ?"
                      + " WHERE resource = ?")) {
            update.setLong(1, epoch);
            update.setString(2, holder);
            update.setLong(3, expiresAt);
            update.setString(4, resource.value());
            update.executeUpdate();
          }
          return Optional.of(
              new Lease(
                  store.sign(new FencingToken(store.id(), resource, Epoch.of(epoch), holder)),
                  Instant.ofEpochMilli(expiresAt),
                  ttl));
        });
  }

  @Override
  public Lease renew(Lease lease) {
    requireNonNull(lease, "lease is null");
    ResourceId resource = lease.resource();
    long ttlMillis = ttlMillis(resource, lease.ttl());
    return store.inTransaction(
        "renew the lease " + lease.token(),
        connection -> {
          Optional<Row> row = lockRow(connection, resource);
          String reason =
              lease.token().issuer().equals(store.id())
                  ? reasonLost(row, lease)
                  : "it was issued by " + lease.token().issuer() + ", not by " + store.id();
          if (reason != null) {
            throw new LeaseLostException(
                lease.token(),
                "Cannot renew lease "
                    + lease.token()
                    + ": "
                    + reason
                    + " (stop working on it; acquire again for a new epoch)");
          }
          long expiresAt = Math.addExact(row.get().nowMillis(), ttlMillis);
          try (PreparedStatement update =
              connection.prepareStatement(
                  "UPDATE fenceline_lease SET expires_at_ms = ? WHERE resource = ?")) {
            update.setLong(1, expiresAt);
            update.setString(2, resource.value());
            update.executeUpdate();
          }
          return new Lease(lease.token(), Instant.ofEpochMilli(expiresAt), lease.ttl());
        });
  }

  @Override
  public boolean release(Lease lease) {
    requireNonNull(lease, "lease is null");
    if (!lease.token().issuer().equals(store.id())) {
      return false; // another issuer's lease is never current here
    }
    return store.inTransaction(
        "release the lease " + lease.token(),
        connection -> {
          try (PreparedStatement update =
              connection.prepareStatement(
                  "UPDATE fenceline_lease SET holder = NULL, expires_at_ms = 0"
                      + " WHERE resource = ? AND epoch = ? AND holder = ?")) {
            update.setString(1, lease.resource().value());
            update.setLong(2, lease.epoch().value());
            update.setString(3, lease.token().holder());
            return update.executeUpdate() == 1;
          }
        });
  }

  @Override
  public LeaseStatus status(ResourceId resource) {
    requireNonNull(resource, "resource is null");
    return store.read(
        "read the lease status of " + resource,
        connection -> {
          Optional<Row> found = selectRow(connection, resource, "");
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

  private Optional<Row> lockRow(Connection connection, ResourceId resource) throws SQLException {
    return selectRow(connection, resource, store.dialect().lockRow);
  }

  private Optional<Row> selectRow(Connection connection, ResourceId resource, String lock)
      throws SQLException {
    try (PreparedStatement select =
        connection.prepareStatement(
            "SELECT epoch, holder, expires_at_ms, "
                + store.dialect().nowMillis
                + " FROM fenceline_lease WHERE resource = ?"
                + lock)) {
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

  private static long ttlMillis(ResourceId resource, Duration ttl) {
    requireNonNull(ttl, "ttl is null");
    if (ttl.isNegative() || ttl.toMillis() < 1) {
      throw new IllegalArgumentException(
          "Cannot lease "
              + resource
              + " for "
              + ttl
              + ": the ttl must be at least 1 ms (e.g. PT30S)");
    }
    return ttl.toMillis();
  }
}
