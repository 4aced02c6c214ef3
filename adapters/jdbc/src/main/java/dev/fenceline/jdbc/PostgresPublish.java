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

import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Pointer;
import dev.fenceline.spi.RequestFingerprint;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Map;

/**
 * PostgreSQL: the common case of a pointer publish as one plain SQL statement, without the PL/pgSQL
 * function's cost (each statement of a function is a plan lookup, a snapshot and an executor run of
 * its own). The statement locks the resource's control row, and only if the token is of the bound
 * issuer, not older than the registered epoch, and the schema is not newer, inserts the next
 * pointer version holding the operation's receipt ({@code ON CONFLICT DO NOTHING} on {@code
 * fenceline_pointer_receipt}: the unique index is checked against every committed row, whatever the
 * statement's snapshot) unless {@code fenceline_operation} holds a receipt of the operation, and
 * then registers a newer epoch: two rows, in the statement's own transaction, so the epoch check
 * and the change are one atomic step (R3). Since schema 5 no pointer publish writes a receipt to
 * {@code fenceline_operation}, and history pruning retires a version's row instead of moving its
 * receipt: the pointer receipts there are those the migration left (of versions deleted before it),
 * which no later commit adds to, so this statement's snapshot sees all of them.
 *
 * <p>It decides only what one statement can decide truthfully; everything else goes to {@code
 * fenceline_publish_pointer_v2}, whose statements each see what committed before them:
 *
 * <ul>
 *   <li>applied: the operation was recorded and the pointer version inserted;
 *   <li>stale: the control row, read under its lock (PostgreSQL re-reads a row whose lock it waited
 *       for), holds a newer epoch of the same issuer; nothing was written;
 *   <li>undecided, nothing written: no control row yet, another issuer, a newer schema, or the
 *       operation was recorded before (a retry: its record may have committed after the statement's
 *       snapshot, so it is read by the function);
 *   <li>undecided after a refusal: the pointer version this statement computed from its snapshot
 *       was taken by a publish that committed while it waited for the lock; the primary key refused
 *       it and the statement's transaction rolled back.
 * </ul>
 */
final class PostgresPublish {

  /** The constraint that refuses a pointer version taken by a concurrent publish. */
  private static final String POINTER_KEY = "fenceline_pointer_pkey";

  private static final String SQL =
      "WITH c AS (SELECT r.epoch, r.issuer, "
          + Dialect.POSTGRESQL.nowMillis
          + " AS now_ms, ("
          + Schema.CURRENT_VERSION
          + ") AS schema_version FROM fenceline_resource r WHERE r.resource = ? FOR UPDATE),"
          + " p AS (INSERT INTO fenceline_pointer (destination, resource, version, target,"
          + " attributes, epoch, operation, recorded_at_ms, receipt_attributes, fingerprint)"
          + " SELECT ?, ?, COALESCE((SELECT MAX(v.version) FROM fenceline_pointer v"
          + " WHERE v.destination = ? AND v.resource = ?), 0) + 1, ?, ?, ?, ?, c.now_ms, ?, ?"
          + " FROM c WHERE (c.issuer IS NULL OR c.issuer = ?) AND c.epoch <= ?"
          + " AND c.schema_version <= ? AND NOT EXISTS (SELECT 1 FROM fenceline_operation x"
          + " WHERE x.destination = ? AND x.resource = ? AND x.operation = ?)"
          + " ON CONFLICT (destination, resource, operation) WHERE recorded_at_ms IS NOT NULL"
          + " DO NOTHING RETURNING version),"
          + " u AS (UPDATE fenceline_resource SET epoch = ?, issuer = ? WHERE resource = ?"
          + " AND (epoch < ? OR issuer IS NULL) AND EXISTS (SELECT 1 FROM p) RETURNING epoch)"
          + " SELECT c.epoch, c.issuer, c.schema_version, c.now_ms, p.version"
          + " FROM c LEFT JOIN p ON true";

  /** What the statement decided. */
  enum Kind {
    APPLIED,
    STALE,
    UNDECIDED
  }

  /**
   * @param kind what was decided
   * @param registered the epoch the control row held before (applied, stale)
   * @param nowMillis the database's clock when the row was locked (the receipt's time if applied)
   */
  record Decided(Kind kind, Epoch registered, long nowMillis) {
    static final Decided UNDECIDED = new Decided(Kind.UNDECIDED, Epoch.NONE, 0);
  }

  private PostgresPublish() {}

  /**
   * Runs the statement in its own transaction on {@code connection} ({@link
   * Transactions#oneStatement}). A failure other than the refused pointer version is thrown as it
   * came; after that refusal the transaction is rolled back and the answer is undecided.
   */
  static Decided publish(
      Connection connection,
      Transactions transactions,
      String destination,
      FencingToken token,
      OperationId operation,
      RequestFingerprint fingerprint,
      Pointer pointer,
      Map<String, String> receiptAttributes)
      throws SQLException {
    String resource = token.resource().value();
    long epoch = token.epoch().value();
    Decided decided;
    try (PreparedStatement statement =
        connection.prepareStatement(transactions.oneStatement(connection, SQL))) {
      Binder bind = new Binder(statement);
      bind.string(resource);
      bind.string(destination).string(resource).string(destination).string(resource);
      bind.string(pointer.target()).string(ReceiptAttributes.encode(pointer.attributes()));
      bind.number(epoch).string(operation.value());
      bind.string(ReceiptAttributes.encode(receiptAttributes)).string(fingerprint.value());
      bind.string(token.issuer()).number(epoch).number(Schema.VERSION);
      bind.string(destination).string(resource).string(operation.value());
      bind.number(epoch).string(token.issuer()).string(resource).number(epoch);
      decided = decide(statement, token);
    } catch (SQLException e) {
      if (!refusedPointerVersion(e)) {
        throw e;
      }
      if (!connection.getAutoCommit()) {
        connection.rollback(); // an auto-commit statement rolled back by itself
      }
      decided = Decided.UNDECIDED;
    }
    return decided;
  }

  private static Decided decide(PreparedStatement statement, FencingToken token)
      throws SQLException {
    try (ResultSet rows = Transactions.rows(statement)) {
      if (!rows.next()) {
        return Decided.UNDECIDED; // no control row yet
      }
      Epoch registered = Epoch.of(rows.getLong(1));
      String issuer = rows.getString(2);
      int schema = rows.getInt(3);
      long now = rows.getLong(4);
      long version = rows.getLong(5);
      boolean applied = !rows.wasNull();
      if (schema > Schema.VERSION || (issuer != null && !issuer.equals(token.issuer()))) {
        return Decided.UNDECIDED; // nothing written: the function refuses with its message
      }
      if (applied) {
        return new Decided(Kind.APPLIED, registered, now);
      }
      if (token.epoch().isOlderThan(registered)) {
        return new Decided(Kind.STALE, registered, now);
      }
      return Decided.UNDECIDED; // recorded before: a retry, or another request under its ID
    }
  }

  /** True if {@code e} is the primary key of the pointer versions refusing a version taken. */
  private static boolean refusedPointerVersion(SQLException e) {
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
      if (cause instanceof SQLException sql
          && "23505".equals(sql.getSQLState())
          && String.valueOf(sql.getMessage()).contains(POINTER_KEY)) {
        return true;
      }
    }
    return false;
  }

  /** Binds the statement's parameters in order. */
  private static final class Binder {
    private final PreparedStatement statement;
    private int next = 1;

    Binder(PreparedStatement statement) {
      this.statement = statement;
    }

    Binder string(String value) throws SQLException {
      statement.setString(next++, value);
      return this;
    }

    Binder number(long value) throws SQLException {
      statement.setLong(next++, value);
      return this;
    }
  }
}
