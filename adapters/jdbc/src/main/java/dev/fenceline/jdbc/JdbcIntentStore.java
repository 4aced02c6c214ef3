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

import dev.fenceline.jdbc.FencedWrite.ControlRow;
import dev.fenceline.jdbc.Transactions.Finish;
import dev.fenceline.spi.AlreadyApplied;
import dev.fenceline.spi.Applied;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingStep;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.Intent;
import dev.fenceline.spi.IntentOutcome;
import dev.fenceline.spi.IntentRecorded;
import dev.fenceline.spi.IntentStore;
import dev.fenceline.spi.OperationConflictException;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Receipt;
import dev.fenceline.spi.RegisterOutcome;
import dev.fenceline.spi.RejectedStale;
import dev.fenceline.spi.RequestFingerprint;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StepListener;
import dev.fenceline.spi.WriteOutcome;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * Intents in the {@code fenceline_intent} table. {@link #begin} and {@link #complete} are each one
 * transaction serialized on the resource's control row, the same row every destination and pointer
 * store of the database registers epochs in: the epoch check and the intent are committed together
 * or not at all (R3). Get one from {@link JdbcStore#intentStore(String)}.
 */
final class JdbcIntentStore implements IntentStore {

  private final FencedWrite fencedWrite;
  private final Transactions transactions;
  private final StoreIdentity identity;
  private final StepListener steps;

  JdbcIntentStore(FencedWrite fencedWrite) {
    this.fencedWrite = requireNonNull(fencedWrite, "fencedWrite is null");
    this.transactions = fencedWrite.transactions();
    this.identity = fencedWrite.identity();
    this.steps = fencedWrite.steps();
  }

  @Override
  public String name() {
    return fencedWrite.destination();
  }

  @Override
  public String storeId() {
    return identity.id();
  }

  @Override
  public RegisterOutcome register(FencingToken token) {
    return fencedWrite.register(token);
  }

  @Override
  public IntentOutcome begin(
      FencingToken token, OperationId operation, RequestFingerprint fingerprint) {
    requireNonNull(token, "token is null");
    requireNonNull(operation, "operation is null");
    requireNonNull(fingerprint, "fingerprint is null");
    ResourceId resource = token.resource();
    String action = "begin operation " + operation + " of " + resource + " at " + name();
    identity.verify(token, action);
    steps.reached(FencingStep.BEFORE_LOCK, token, operation);
    IntentOutcome outcome =
        transactions.inFencedTransaction(
            action,
            connection -> {
              ControlRow row = fencedWrite.lockAndRegister(connection, token, action);
              if (token.epoch().isOlderThan(row.epoch())) {
                return Finish.of(new RejectedStale(resource, token.epoch(), row.epoch()));
              }
              steps.reached(FencingStep.AFTER_EPOCH_CHECK, token, operation);
              Optional<Intent> previous = find(connection, resource, operation);
              Intent recorded;
              Epoch previousEpoch = previous.map(Intent::epoch).orElse(Epoch.NONE);
              if (previous.isEmpty()) {
                recorded =
                    new Intent(
                        name(),
                        resource,
                        operation,
                        fingerprint,
                        token.epoch(),
                        1,
                        Instant.ofEpochMilli(row.nowMillis()),
                        Optional.empty());
                insert(connection, recorded);
              } else if (!previous.get().fingerprint().equals(fingerprint)) {
                // Thrown inside the transaction: the epoch registered above is rolled back too.
                throw OperationConflictException.differentIntent(previous.get(), fingerprint);
              } else if (previous.get().completed()) {
                recorded = previous.get();
              } else {
                Intent intent = previous.get();
                recorded =
                    new Intent(
                        name(),
                        resource,
                        operation,
                        fingerprint,
                        token.epoch(),
                        intent.attempts() + 1,
                        intent.recordedAt(),
                        Optional.empty());
                countAttempt(connection, recorded);
              }
              steps.reached(FencingStep.AFTER_APPLY, token, operation);
              return Finish.of(new IntentRecorded(recorded, previousEpoch));
            });
    if (outcome instanceof IntentRecorded) {
      steps.reached(FencingStep.AFTER_COMMIT, token, operation);
    }
    return outcome;
  }

  @Override
  public WriteOutcome complete(
      FencingToken token, OperationId operation, Epoch sentUnder, Map<String, String> attributes) {
    requireNonNull(token, "token is null");
    requireNonNull(operation, "operation is null");
    requireNonNull(attributes, "attributes is null");
    IntentStore.checkSentUnder(token, operation, sentUnder);
    ResourceId resource = token.resource();
    String action = "complete operation " + operation + " of " + resource + " at " + name();
    identity.verify(token, action);
    return transactions.inFencedTransaction(
        action,
        connection -> {
          // Serialized on the control row like begin; a stale epoch is not refused (see the SPI).
          ControlRow row = fencedWrite.lockTrusted(connection, token, action);
          Intent intent =
              find(connection, resource, operation)
                  .orElseThrow(
                      () ->
                          new IllegalStateException(
                              "Cannot "
                                  + action
                                  + ": no intent was recorded for it (call begin before sending"
                                  + " the request)"));
          if (intent.completed()) {
            return Finish.of(new AlreadyApplied(intent.receipt().orElseThrow()));
          }
          Receipt receipt =
              new Receipt(
                  name(),
                  resource,
                  operation,
                  sentUnder,
                  Instant.ofEpochMilli(row.nowMillis()),
                  attributes);
          recordReceipt(connection, receipt);
          return Finish.of(new Applied(receipt));
        });
  }

  @Override
  public Optional<Intent> lookup(ResourceId resource, OperationId operation) {
    requireNonNull(resource, "resource is null");
    requireNonNull(operation, "operation is null");
    return transactions.read(
        "look up the intent of operation " + operation + " of " + resource + " at " + name(),
        connection -> find(connection, resource, operation));
  }

  @Override
  public Epoch currentEpoch(ResourceId resource) {
    return fencedWrite.currentEpoch(resource);
  }

  private Optional<Intent> find(Connection connection, ResourceId resource, OperationId operation)
      throws SQLException {
    try (PreparedStatement select =
        connection.prepareStatement(
            "SELECT fingerprint, epoch, attempts, recorded_at_ms,"
                + " receipt_epoch, receipt_recorded_at_ms, receipt_attributes"
                + " FROM fenceline_intent WHERE destination = ? AND resource = ? AND operation = ?")) {
      select.setString(1, name());
      select.setString(2, resource.value());
      select.setString(3, operation.value());
      try (ResultSet rows = select.executeQuery()) {
        if (!rows.next()) {
          return Optional.empty();
        }
        Optional<Receipt> receipt = Optional.empty();
        String receiptAttributes = rows.getString(7);
        if (receiptAttributes != null) {
          receipt =
              Optional.of(
                  new Receipt(
                      name(),
                      resource,
                      operation,
                      Epoch.of(rows.getLong(5)),
                      Instant.ofEpochMilli(rows.getLong(6)),
                      ReceiptAttributes.decode(receiptAttributes)));
        }
        return Optional.of(
            new Intent(
                name(),
                resource,
                operation,
                new RequestFingerprint(rows.getString(1)),
                Epoch.of(rows.getLong(2)),
                rows.getInt(3),
                Instant.ofEpochMilli(rows.getLong(4)),
                receipt));
      }
    }
  }

  private static void insert(Connection connection, Intent intent) throws SQLException {
    try (PreparedStatement insert =
        connection.prepareStatement(
            "INSERT INTO fenceline_intent"
                + " (destination, resource, operation, fingerprint, epoch, attempts,"
                + " recorded_at_ms) VALUES (?, ?, ?, ?, ?, ?, ?)")) {
      insert.setString(1, intent.destination());
      insert.setString(2, intent.resource().value());
      insert.setString(3, intent.operation().value());
      insert.setString(4, intent.fingerprint().value());
      insert.setLong(5, intent.epoch().value());
      insert.setInt(6, intent.attempts());
      insert.setLong(7, intent.recordedAt().toEpochMilli());
      insert.executeUpdate();
    }
  }

  private static void countAttempt(Connection connection, Intent intent) throws SQLException {
    try (PreparedStatement update =
        connection.prepareStatement(
            "UPDATE fenceline_intent SET epoch = ?, attempts = ?"
                + " WHERE destination = ? AND resource = ? AND operation = ?")) {
      update.setLong(1, intent.epoch().value());
      update.setInt(2, intent.attempts());
      update.setString(3, intent.destination());
      update.setString(4, intent.resource().value());
      update.setString(5, intent.operation().value());
      requireOneRow(update.executeUpdate(), intent.resource(), intent.operation());
    }
  }

  private static void recordReceipt(Connection connection, Receipt receipt) throws SQLException {
    try (PreparedStatement update =
        connection.prepareStatement(
            "UPDATE fenceline_intent"
                + " SET receipt_epoch = ?, receipt_recorded_at_ms = ?, receipt_attributes = ?"
                + " WHERE destination = ? AND resource = ? AND operation = ?"
                + " AND receipt_attributes IS NULL")) {
      update.setLong(1, receipt.epoch().value());
      update.setLong(2, receipt.recordedAt().toEpochMilli());
      update.setString(3, ReceiptAttributes.encode(receipt.attributes()));
      update.setString(4, receipt.destination());
      update.setString(5, receipt.resource().value());
      update.setString(6, receipt.operation().value());
      requireOneRow(update.executeUpdate(), receipt.resource(), receipt.operation());
    }
  }

  /** The row was read under the control row's lock; anything else is a broken lock. */
  private static void requireOneRow(int updated, ResourceId resource, OperationId operation)
      throws SQLException {
    if (updated != 1) {
      throw new SQLException(
          "intent of " + resource + "/" + operation + " changed under the control row's lock");
    }
  }
}
