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

import dev.fenceline.spi.ConfigurationException;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Receipt;
import dev.fenceline.spi.RequestFingerprint;
import dev.fenceline.spi.ResourceId;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Optional;

/**
 * The operation records of one destination: the receipt of every operation it applied, with the
 * fingerprint of the request, read by the control-row step that decides whether an operation is
 * replayed, and inserted in the same transaction as the change: in {@code fenceline_operation}, or,
 * for a pointer store, in the pointer version's row ({@link Schema}, version 5).
 */
final class OperationRecords {

  /** A recorded operation: its receipt, and the fingerprint of its request if one was recorded. */
  record Recorded(Receipt receipt, Optional<RequestFingerprint> fingerprint) {}

  /**
   * Records an operation, bound by {@link #bind}: the last statement of a fenced write, which on
   * PostgreSQL goes to the server together with the {@code COMMIT}.
   */
  static final String INSERT_SQL =
      "INSERT INTO fenceline_operation"
          + " (destination, resource, operation, epoch, recorded_at_ms, attributes,"
          + " fingerprint) VALUES (?, ?, ?, ?, ?, ?, ?)";

  /**
   * The receipt columns (epoch, time, attributes, fingerprint) of the operation found by {@link
   * #JOIN}: from {@code fenceline_operation} ({@code o}) or from the pointer version that holds it
   * ({@code q}); an operation has a kept receipt in one of them at most.
   */
  static final String COLUMNS =
      "COALESCE(o.epoch, q.epoch), COALESCE(o.recorded_at_ms, q.recorded_at_ms),"
          + " COALESCE(o.attributes, q.receipt_attributes),"
          + " CASE WHEN o.attributes IS NULL THEN q.fingerprint ELSE o.fingerprint END";

  /**
   * Joins the receipt of the operation named by {@code k.destination}, {@code k.resource} and
   * {@code k.operation} in both places a receipt is kept (schema version 5): each a lookup by a
   * unique index.
   */
  static final String JOIN =
      " LEFT JOIN fenceline_operation o ON o.destination = k.destination"
          + " AND o.resource = k.resource AND o.operation = k.operation"
          + " LEFT JOIN fenceline_pointer q ON q.destination = k.destination"
          + " AND q.resource = k.resource AND q.operation = k.operation"
          + " AND q.recorded_at_ms IS NOT NULL";

  static void bind(
      PreparedStatement insert, Receipt receipt, Optional<RequestFingerprint> fingerprint)
      throws SQLException {
    insert.setString(1, receipt.destination());
    insert.setString(2, receipt.resource().value());
    insert.setString(3, receipt.operation().value());
    insert.setLong(4, receipt.epoch().value());
    insert.setLong(5, receipt.recordedAt().toEpochMilli());
    insert.setString(6, ReceiptAttributes.encode(receipt.attributes()));
    insert.setString(7, fingerprint.map(RequestFingerprint::value).orElse(null));
  }

  private final String destination;

  /**
   * @param destination the destination's name, already validated
   */
  OperationRecords(String destination) {
    this.destination = destination;
  }

  /** The operation record in columns {@code first} to {@code first + 3}, if there is one. */
  Optional<Recorded> read(ResultSet rows, int first, ResourceId resource, OperationId operation)
      throws SQLException {
    String attributes = rows.getString(first + 2);
    if (attributes == null) {
      return Optional.empty();
    }
    Receipt receipt =
        new Receipt(
            destination,
            resource,
            operation,
            Epoch.of(rows.getLong(first)),
            Instant.ofEpochMilli(rows.getLong(first + 1)),
            ReceiptAttributes.decode(attributes));
    return Optional.of(
        new Recorded(
            receipt, Optional.ofNullable(rows.getString(first + 3)).map(RequestFingerprint::new)));
  }

  /**
   * The record of {@code operation} of {@code resource}, read outside the control-row step (a
   * lookup).
   *
   * @throws ConfigurationException if the schema is newer than this build understands
   */
  Optional<Recorded> find(Connection connection, ResourceId resource, OperationId operation)
      throws SQLException {
    try (PreparedStatement select =
        connection.prepareStatement(
            "SELECT ("
                + Schema.CURRENT_VERSION
                + "), "
                + COLUMNS
                + " FROM (SELECT ? AS destination, ? AS resource, ? AS operation) k"
                + JOIN)) {
      select.setString(1, destination);
      select.setString(2, resource.value());
      select.setString(3, operation.value());
      try (ResultSet rows = select.executeQuery()) {
        rows.next();
        // In the same statement as the record: a receipt pruned by a process of a newer schema
        // (which migrated before it pruned) is never answered "never applied" by this build.
        Schema.refuseNewer(rows.getInt(1));
        return read(rows, 2, resource, operation);
      }
    }
  }
}
