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
package dev.fenceline.chaos.planted;

import static java.util.Objects.requireNonNull;

import dev.fenceline.spi.AlreadyApplied;
import dev.fenceline.spi.Applied;
import dev.fenceline.spi.Capability;
import dev.fenceline.spi.Destination;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingStep;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.OperationConflictException;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Receipt;
import dev.fenceline.spi.RegisterOutcome;
import dev.fenceline.spi.Registered;
import dev.fenceline.spi.RejectedStale;
import dev.fenceline.spi.RequestFingerprint;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StepListener;
import dev.fenceline.spi.UntrustedTokenException;
import dev.fenceline.spi.WriteOutcome;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A destination of payloads on a SQLite file shared by processes: per resource the registered epoch
 * and its issuer, per destination name and resource the published payload and how often one was
 * applied, and the operations' receipts. With {@link PlantedBug#NONE} it does the whole step of
 * {@link Destination} in one {@code BEGIN IMMEDIATE} transaction (a locking store, passing the
 * TCK); every other mode except {@link PlantedBug#UNCONDITIONAL_CAS} (see {@link CasDestination})
 * breaks exactly one rule.
 */
final class PlantedDestination implements Destination<InputStream> {

  static final String[] SCHEMA = {
    "CREATE TABLE IF NOT EXISTS control (resource TEXT PRIMARY KEY, epoch INTEGER NOT NULL,"
        + " issuer TEXT)",
    "CREATE TABLE IF NOT EXISTS published (name TEXT NOT NULL, resource TEXT NOT NULL,"
        + " payload BLOB NOT NULL, applies INTEGER NOT NULL, PRIMARY KEY (name, resource))",
    "CREATE TABLE IF NOT EXISTS receipts (name TEXT NOT NULL, resource TEXT NOT NULL,"
        + " operation TEXT NOT NULL, epoch INTEGER NOT NULL, recorded_at TEXT NOT NULL,"
        + " fingerprint TEXT NOT NULL, size INTEGER NOT NULL, apply INTEGER NOT NULL,"
        + " PRIMARY KEY (name, resource, operation))"
  };

  private static final Set<Capability> CAPABILITIES =
      EnumSet.of(
          Capability.NATIVE_EPOCH_CHECK, Capability.OPERATION_RECORD, Capability.RESULT_LOOKUP);

  private final SqliteFile db;
  private final String name;
  private final StepListener steps;
  private final PlantedBug bug;
  private final Clock clock = Clock.systemUTC();

  PlantedDestination(SqliteFile db, String name, StepListener steps, PlantedBug bug) {
    if (bug == PlantedBug.UNCONDITIONAL_CAS) {
      throw new IllegalArgumentException("unconditional-cas is a CasDestination");
    }
    this.db = requireNonNull(db, "db is null");
    this.name = Destination.validateName(name);
    this.steps = requireNonNull(steps, "steps is null");
    this.bug = requireNonNull(bug, "bug is null");
  }

  /** Opens (creating if missing) the destination's tables in {@code file}. */
  static SqliteFile open(Path file) {
    return new SqliteFile(file, SCHEMA);
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public Set<Capability> capabilities() {
    return CAPABILITIES;
  }

  private record Control(Epoch epoch, String issuer) {}

  /** A recorded operation: its receipt and the fingerprint of its request. */
  private record Recorded(Receipt receipt, RequestFingerprint fingerprint) {}

  @Override
  public RegisterOutcome register(FencingToken token) {
    requireNonNull(token, "token is null");
    ResourceId resource = token.resource();
    String action = "register epoch " + token.epoch() + " at " + name;
    return db.inTransaction(
        action,
        c -> {
          Control control = control(c, resource);
          checkIssuer(control, token, action);
          if (token.epoch().isOlderThan(control.epoch())) {
            return new RejectedStale(resource, token.epoch(), control.epoch());
          }
          if (token.epoch().isNewerThan(control.epoch()) || control.issuer() == null) {
            saveControl(c, resource, token.epoch(), token.issuer());
          }
          return new Registered(resource, token.epoch(), control.epoch());
        });
  }

  @Override
  public WriteOutcome write(FencingToken token, OperationId operation, InputStream change) {
    requireNonNull(token, "token is null");
    requireNonNull(operation, "operation is null");
    requireNonNull(change, "change is null");
    byte[] payload;
    try (InputStream in = change) {
      payload = in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Cannot read the payload of operation " + operation + " (nothing was written)", e);
    }
    Write write = new Write(token, operation, payload);
    steps.reached(FencingStep.BEFORE_LOCK, token, operation);
    WriteOutcome outcome =
        switch (bug) {
          case NONE -> write.inOneTransaction(true, true);
          case NO_EPOCH_CHECK -> write.inOneTransaction(false, true); // the bug
          case RETRY_REAPPLIED -> write.inOneTransaction(true, false); // the bug
          case CHECK_AFTER_WRITE -> write.checkAfterWrite();
          case RECEIPT_BEFORE_CHANGE -> write.receiptBeforeChange();
          case UNCONDITIONAL_CAS -> throw new IllegalStateException("not this destination");
        };
    if (!(outcome instanceof RejectedStale)) {
      steps.reached(FencingStep.AFTER_COMMIT, token, operation);
    }
    return outcome;
  }

  /** One write's request and its steps. */
  private final class Write {
    private final FencingToken token;
    private final OperationId operation;
    private final byte[] payload;
    private final RequestFingerprint fingerprint;
    private final ResourceId resource;
    private final String action;

    Write(FencingToken token, OperationId operation, byte[] payload) {
      this.token = token;
      this.operation = operation;
      this.payload = payload;
      this.fingerprint = RequestFingerprint.sha256(payload);
      this.resource = token.resource();
      this.action = "write operation " + operation + " to " + name;
    }

    /** The whole step in one transaction, in the documented order; a flag off is a bug. */
    WriteOutcome inOneTransaction(boolean compareEpoch, boolean consultRecord) {
      return db.inTransaction(action, c -> step(c, compareEpoch, consultRecord, null));
    }

    /**
     * Issuer, epoch (if {@code compareEpoch}), operation record (if {@code consultRecord}), then
     * the change with its receipt ({@code ownReceipt} if this write recorded it already).
     */
    private WriteOutcome step(
        Connection c, boolean compareEpoch, boolean consultRecord, Receipt ownReceipt)
        throws SQLException {
      Control control = control(c, resource);
      checkIssuer(control, token, action);
      if (compareEpoch && token.epoch().isOlderThan(control.epoch())) {
        return new RejectedStale(resource, token.epoch(), control.epoch());
      }
      Epoch newest = token.epoch().isNewerThan(control.epoch()) ? token.epoch() : control.epoch();
      steps.reached(FencingStep.AFTER_EPOCH_CHECK, token, operation);
      Optional<Recorded> recorded =
          consultRecord ? recorded(c, resource, operation) : Optional.empty();
      boolean own = recorded.isPresent() && recorded.get().receipt().equals(ownReceipt);
      if (recorded.isPresent() && !own) {
        if (!recorded.get().fingerprint().equals(fingerprint)) {
          throw OperationConflictException.differentRequest(recorded.get().receipt(), fingerprint);
        }
        if (!newest.equals(control.epoch()) || control.issuer() == null) {
          saveControl(c, resource, newest, token.issuer());
        }
        return new AlreadyApplied(recorded.get().receipt());
      }
      long apply = publish(c);
      Receipt receipt = own ? ownReceipt : record(c, apply);
      saveControl(c, resource, newest, token.issuer());
      steps.reached(FencingStep.AFTER_APPLY, token, operation);
      return new Applied(receipt);
    }

    /** The bug: change and receipt commit first, the epoch is compared afterwards. */
    WriteOutcome checkAfterWrite() {
      WriteOutcome written = db.inTransaction(action, c -> step(c, false, true, null));
      return db.inTransaction(
          action + " (epoch check)",
          c -> {
            Epoch registered = control(c, resource).epoch();
            return token.epoch().isOlderThan(registered)
                ? new RejectedStale(resource, token.epoch(), registered)
                : written;
          });
    }

    /** The bug: the receipt commits first, the change with the epoch check afterwards. */
    WriteOutcome receiptBeforeChange() {
      Optional<Receipt> own =
          db.inTransaction(
              action + " (receipt)",
              c -> {
                checkIssuer(control(c, resource), token, action);
                if (recorded(c, resource, operation).isPresent()) {
                  return Optional.<Receipt>empty();
                }
                return Optional.of(record(c, applies(c) + 1));
              });
      return db.inTransaction(action, c -> step(c, true, true, own.orElse(null)));
    }

    /** Publishes the payload; returns the resource's apply count after it. */
    private long publish(Connection c) throws SQLException {
      long apply = applies(c) + 1;
      try (PreparedStatement upsert =
          c.prepareStatement(
              "INSERT INTO published (name, resource, payload, applies) VALUES (?, ?, ?, ?)"
                  + " ON CONFLICT (name, resource) DO UPDATE SET payload = excluded.payload,"
                  + " applies = excluded.applies")) {
        upsert.setString(1, name);
        upsert.setString(2, resource.value());
        upsert.setBytes(3, payload);
        upsert.setLong(4, apply);
        upsert.executeUpdate();
      }
      return apply;
    }

    private long applies(Connection c) throws SQLException {
      try (PreparedStatement select =
          c.prepareStatement("SELECT applies FROM published WHERE name = ? AND resource = ?")) {
        select.setString(1, name);
        select.setString(2, resource.value());
        try (ResultSet rows = select.executeQuery()) {
          return rows.next() ? rows.getLong(1) : 0;
        }
      }
    }

    /** Records (or, re-applied, replaces) the operation's receipt. */
    private Receipt record(Connection c, long apply) throws SQLException {
      Receipt receipt =
          receipt(
              resource,
              operation,
              token.epoch(),
              clock.instant(),
              fingerprint,
              payload.length,
              apply);
      try (PreparedStatement insert =
          c.prepareStatement(
              "INSERT OR REPLACE INTO receipts (name, resource, operation, epoch, recorded_at,"
                  + " fingerprint, size, apply) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")) {
        insert.setString(1, name);
        insert.setString(2, resource.value());
        insert.setString(3, operation.value());
        insert.setLong(4, token.epoch().value());
        insert.setString(5, receipt.recordedAt().toString());
        insert.setString(6, fingerprint.value());
        insert.setLong(7, payload.length);
        insert.setLong(8, apply);
        insert.executeUpdate();
      }
      return receipt;
    }
  }

  private Receipt receipt(
      ResourceId resource,
      OperationId operation,
      Epoch epoch,
      Instant recordedAt,
      RequestFingerprint fingerprint,
      long size,
      long apply) {
    return new Receipt(
        name,
        resource,
        operation,
        epoch,
        recordedAt,
        Map.of(
            "fingerprint", fingerprint.value(),
            "size", Long.toString(size),
            "apply", Long.toString(apply)));
  }

  @Override
  public Optional<Receipt> lookup(ResourceId resource, OperationId operation) {
    requireNonNull(resource, "resource is null");
    requireNonNull(operation, "operation is null");
    return db.read(
            "look up operation " + operation + " at " + name, c -> recorded(c, resource, operation))
        .map(Recorded::receipt);
  }

  @Override
  public Epoch currentEpoch(ResourceId resource) {
    requireNonNull(resource, "resource is null");
    return db.read("read the epoch of " + resource, c -> control(c, resource)).epoch();
  }

  /** {@return the published payload of {@code resource}, if any} */
  Optional<byte[]> read(ResourceId resource) {
    return db.read(
        "read " + resource + " at " + name,
        c -> {
          try (PreparedStatement select =
              c.prepareStatement("SELECT payload FROM published WHERE name = ? AND resource = ?")) {
            select.setString(1, name);
            select.setString(2, resource.value());
            try (ResultSet rows = select.executeQuery()) {
              return rows.next() ? Optional.of(rows.getBytes(1)) : Optional.<byte[]>empty();
            }
          }
        });
  }

  /** {@return how many payloads were applied to {@code resource} so far} */
  long applyCount(ResourceId resource) {
    return db.read(
        "count the applies of " + resource,
        c -> {
          try (PreparedStatement select =
              c.prepareStatement("SELECT applies FROM published WHERE name = ? AND resource = ?")) {
            select.setString(1, name);
            select.setString(2, resource.value());
            try (ResultSet rows = select.executeQuery()) {
              return rows.next() ? rows.getLong(1) : 0L;
            }
          }
        });
  }

  private static Control control(Connection c, ResourceId resource) throws SQLException {
    try (PreparedStatement select =
        c.prepareStatement("SELECT epoch, issuer FROM control WHERE resource = ?")) {
      select.setString(1, resource.value());
      try (ResultSet rows = select.executeQuery()) {
        return rows.next()
            ? new Control(Epoch.of(rows.getLong(1)), rows.getString(2))
            : new Control(Epoch.NONE, null);
      }
    }
  }

  private static void saveControl(Connection c, ResourceId resource, Epoch epoch, String issuer)
      throws SQLException {
    try (PreparedStatement upsert =
        c.prepareStatement(
            "INSERT INTO control (resource, epoch, issuer) VALUES (?, ?, ?) ON CONFLICT (resource)"
                + " DO UPDATE SET epoch = excluded.epoch, issuer = excluded.issuer")) {
      upsert.setString(1, resource.value());
      upsert.setLong(2, epoch.value());
      upsert.setString(3, issuer);
      upsert.executeUpdate();
    }
  }

  private Optional<Recorded> recorded(Connection c, ResourceId resource, OperationId operation)
      throws SQLException {
    try (PreparedStatement select =
        c.prepareStatement(
            "SELECT epoch, recorded_at, fingerprint, size, apply FROM receipts"
                + " WHERE name = ? AND resource = ? AND operation = ?")) {
      select.setString(1, name);
      select.setString(2, resource.value());
      select.setString(3, operation.value());
      try (ResultSet rows = select.executeQuery()) {
        if (!rows.next()) {
          return Optional.empty();
        }
        RequestFingerprint fingerprint = new RequestFingerprint(rows.getString(3));
        return Optional.of(
            new Recorded(
                receipt(
                    resource,
                    operation,
                    Epoch.of(rows.getLong(1)),
                    Instant.parse(rows.getString(2)),
                    fingerprint,
                    rows.getLong(4),
                    rows.getLong(5)),
                fingerprint));
      }
    }
  }

  private static void checkIssuer(Control control, FencingToken token, String action) {
    if (control.issuer() != null && !control.issuer().equals(token.issuer())) {
      throw UntrustedTokenException.foreignIssuer(token, control.issuer(), action);
    }
  }
}
