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

import dev.fenceline.jdbc.OperationRecords.Recorded;
import dev.fenceline.jdbc.Transactions.Finish;
import dev.fenceline.spi.AlreadyApplied;
import dev.fenceline.spi.Applied;
import dev.fenceline.spi.Destination;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingStep;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.OperationConflictException;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Pointer;
import dev.fenceline.spi.Receipt;
import dev.fenceline.spi.ReceiptPrunedException;
import dev.fenceline.spi.RegisterOutcome;
import dev.fenceline.spi.Registered;
import dev.fenceline.spi.RejectedStale;
import dev.fenceline.spi.RequestFingerprint;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StepListener;
import dev.fenceline.spi.StoreException;
import dev.fenceline.spi.UntrustedTokenException;
import dev.fenceline.spi.WriteOutcome;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * The one atomic step every JDBC destination shares (R2 to R4), in the article's order: lock the
 * resource's control row; compare the epoch (older: reject; newer: register); if the operation was
 * recorded, replay its receipt; else apply the change and record the operation. All in one
 * transaction, so the change and its record are both committed or both absent.
 */
final class FencedWrite {

  private static final System.Logger LOG = System.getLogger(FencedWrite.class.getName());

  /** The business change, run inside the transaction. */
  @FunctionalInterface
  interface Change {
    Map<String, String> apply(Connection connection) throws SQLException;
  }

  /**
   * A resource's control row as read under its lock: the registered epoch, the bound issuer (null
   * until the first registration) and the database's clock.
   */
  record ControlRow(Epoch epoch, String issuer, long nowMillis) {}

  private final Transactions transactions;
  private final StoreIdentity identity;
  private final String destination;
  private final OperationRecords records;
  private final StepListener steps;

  FencedWrite(
      Transactions transactions, StoreIdentity identity, String destination, StepListener steps) {
    this.transactions = requireNonNull(transactions, "transactions is null");
    this.identity = requireNonNull(identity, "identity is null");
    this.destination = Destination.validateName(destination);
    this.records = new OperationRecords(this.destination);
    this.steps = requireNonNull(steps, "steps is null");
  }

  Transactions transactions() {
    return transactions;
  }

  StoreIdentity identity() {
    return identity;
  }

  String destination() {
    return destination;
  }

  StepListener steps() {
    return steps;
  }

  /**
   * Registers the token's epoch: on PostgreSQL one statement (the server-side function {@code
   * fenceline_begin_v2} on an auto-commit connection), on SQLite one {@code BEGIN IMMEDIATE}
   * transaction.
   */
  RegisterOutcome register(FencingToken token) {
    requireNonNull(token, "token is null");
    ResourceId resource = token.resource();
    String action = "register epoch " + token.epoch() + " of " + resource + " at " + destination;
    identity.verify(token, action);
    Begun begun =
        transactions.dialect() == Dialect.POSTGRESQL
            ? transactions.inOneStatement(
                action, connection -> begin(connection, token, null, true, true, action))
            : transactions.inFencedTransaction(
                action, connection -> Finish.of(begin(connection, token, null, action)));
    if (begun.status() == Status.STALE) {
      return new RejectedStale(resource, token.epoch(), begun.row().epoch());
    }
    return new Registered(resource, token.epoch(), begun.row().epoch());
  }

  /**
   * The atomic step. {@code fingerprint}, if present, is recorded with the operation; a retry whose
   * fingerprint differs from a recorded one is refused with {@link OperationConflictException}.
   * Round trips on PostgreSQL: the control-row step ({@code fenceline_begin_v2}), the change's
   * statements, and the operation record sent together with the {@code COMMIT}.
   */
  WriteOutcome write(
      FencingToken token,
      OperationId operation,
      Optional<RequestFingerprint> fingerprint,
      Change change) {
    return write(
        token,
        operation,
        fingerprint,
        change,
        receipt ->
            Finish.then(
                new Applied(receipt),
                OperationRecords.INSERT_SQL,
                insert -> OperationRecords.bind(insert, receipt, fingerprint)));
  }

  /**
   * The statement that inserts a pointer version together with the receipt of the operation that
   * wrote it (schema version 5): the version after the highest of the pointer store and resource.
   */
  private static final String INSERT_POINTER_SQL =
      "INSERT INTO fenceline_pointer (destination, resource, version, target, attributes, epoch,"
          + " operation, recorded_at_ms, receipt_attributes, fingerprint)"
          + " SELECT ?, ?, COALESCE(MAX(version), 0) + 1, ?, ?, ?, ?, ?, ?, ?"
          + " FROM fenceline_pointer WHERE destination = ? AND resource = ?";

  /**
   * A pointer publish as the atomic step of {@link #write} (SQLite, and PostgreSQL with a step
   * listener): the new pointer version, which holds the operation's receipt, is the last statement,
   * sent together with the {@code COMMIT} on PostgreSQL.
   */
  WriteOutcome writePointer(
      FencingToken token,
      OperationId operation,
      RequestFingerprint fingerprint,
      Pointer pointer,
      Map<String, String> receiptAttributes) {
    requireNonNull(pointer, "pointer is null");
    requireNonNull(receiptAttributes, "receiptAttributes is null");
    return write(
        token,
        operation,
        Optional.of(fingerprint),
        connection -> receiptAttributes,
        receipt ->
            Finish.then(
                new Applied(receipt),
                INSERT_POINTER_SQL,
                insert -> {
                  insert.setString(1, destination);
                  insert.setString(2, receipt.resource().value());
                  insert.setString(3, pointer.target());
                  insert.setString(4, ReceiptAttributes.encode(pointer.attributes()));
                  insert.setLong(5, receipt.epoch().value());
                  insert.setString(6, receipt.operation().value());
                  insert.setLong(7, receipt.recordedAt().toEpochMilli());
                  insert.setString(8, ReceiptAttributes.encode(receipt.attributes()));
                  insert.setString(9, fingerprint.value());
                  insert.setString(10, destination);
                  insert.setString(11, receipt.resource().value());
                }));
  }

  /**
   * {@link #write}, with the last statement (which records the applied operation, and goes to the
   * server together with the {@code COMMIT}) made by {@code record} from the receipt.
   */
  private WriteOutcome write(
      FencingToken token,
      OperationId operation,
      Optional<RequestFingerprint> fingerprint,
      Change change,
      Function<Receipt, Finish<WriteOutcome>> record) {
    requireNonNull(token, "token is null");
    requireNonNull(operation, "operation is null");
    requireNonNull(fingerprint, "fingerprint is null");
    requireNonNull(change, "change is null");
    ResourceId resource = token.resource();
    String action = "write operation " + operation + " of " + resource + " to " + destination;
    identity.verify(token, action);
    steps.reached(FencingStep.BEFORE_LOCK, token, operation);
    WriteOutcome outcome =
        transactions.inFencedTransaction(
            action,
            connection -> {
              Begun begun = begin(connection, token, new Operation(operation, fingerprint), action);
              if (begun.status() == Status.STALE) {
                return Finish.of(new RejectedStale(resource, token.epoch(), begun.row().epoch()));
              }
              steps.reached(FencingStep.AFTER_EPOCH_CHECK, token, operation);
              Optional<WriteOutcome> decided = decided(begun, fingerprint);
              if (decided.isPresent()) {
                return Finish.of(decided.get());
              }
              Map<String, String> attributes = change.apply(ChangeGuard.guarded(connection));
              Receipt receipt =
                  new Receipt(
                      destination,
                      resource,
                      operation,
                      token.epoch(),
                      Instant.ofEpochMilli(begun.row().nowMillis()),
                      requireNonNull(attributes, "the change returned null attributes"));
              steps.reached(FencingStep.AFTER_APPLY, token, operation);
              return record.apply(receipt);
            });
    if (!(outcome instanceof RejectedStale)) {
      steps.reached(FencingStep.AFTER_COMMIT, token, operation);
    }
    return outcome;
  }

  /**
   * A pointer publish as one statement on PostgreSQL: first the plain SQL statement of {@link
   * PostgresPublish}, which decides the common cases (applied, stale); if it could not, the
   * server-side function {@code fenceline_publish_pointer_v2}, which runs {@code
   * fenceline_begin_v2} and inserts the new pointer version holding the operation's receipt, in the
   * statement's own transaction. Only without a step listener: a listener's steps inside the
   * transaction need the statements one by one ({@link #writePointer}), which run the same {@code
   * fenceline_begin_v2}.
   */
  WriteOutcome publishPointer(
      FencingToken token,
      OperationId operation,
      RequestFingerprint fingerprint,
      Pointer pointer,
      Map<String, String> receiptAttributes) {
    ResourceId resource = token.resource();
    String action = "write operation " + operation + " of " + resource + " to " + destination;
    identity.verify(token, action);
    return transactions.inOneStatement(
        action,
        connection -> {
          PostgresPublish.Decided decided =
              PostgresPublish.publish(
                  connection,
                  transactions,
                  destination,
                  token,
                  operation,
                  fingerprint,
                  pointer,
                  receiptAttributes);
          if (decided.kind() == PostgresPublish.Kind.STALE) {
            return new RejectedStale(resource, token.epoch(), decided.registered());
          }
          if (decided.kind() == PostgresPublish.Kind.APPLIED) {
            return new Applied(
                new Receipt(
                    destination,
                    resource,
                    operation,
                    token.epoch(),
                    Instant.ofEpochMilli(decided.nowMillis()),
                    receiptAttributes));
          }
          try (PreparedStatement publish =
              connection.prepareStatement(
                  transactions.oneStatement(
                      connection,
                      STEP_COLUMNS
                          + Schema.PUBLISH_POINTER
                          + "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"))) {
            bindStep(publish, token, operation, fingerprint.value());
            publish.setString(7, transactions.lockTimeoutSetting());
            publish.setString(8, pointer.target());
            publish.setString(9, ReceiptAttributes.encode(pointer.attributes()));
            publish.setString(10, ReceiptAttributes.encode(receiptAttributes));
            publish.setInt(11, Schema.VERSION);
            Begun begun =
                readBegun(
                    publish, Schema.PUBLISH_POINTER, PUBLISHED, true, token, operation, action);
            return switch (begun.status()) {
              case STALE -> new RejectedStale(resource, token.epoch(), begun.row().epoch());
              case APPLIED ->
                  new Applied(
                      new Receipt(
                          destination,
                          resource,
                          operation,
                          token.epoch(),
                          Instant.ofEpochMilli(begun.row().nowMillis()),
                          receiptAttributes));
              default -> decided(begun, Optional.of(fingerprint)).orElseThrow();
            };
          }
        });
  }

  /** A replayed or conflicting operation's answer; empty if the change is to be applied. */
  private static Optional<WriteOutcome> decided(
      Begun begun, Optional<RequestFingerprint> fingerprint) {
    if (begun.status() == Status.CONFLICT) {
      throw OperationConflictException.differentRequest(
          begun.recorded().orElseThrow().receipt(), fingerprint.orElseThrow());
    }
    if (begun.status() == Status.REPLAY) {
      return Optional.of(new AlreadyApplied(begun.recorded().orElseThrow().receipt()));
    }
    return Optional.empty();
  }

  Optional<Receipt> lookup(ResourceId resource, OperationId operation) {
    requireNonNull(resource, "resource is null");
    requireNonNull(operation, "operation is null");
    return transactions.read(
        "look up operation " + operation + " of " + resource + " at " + destination,
        connection -> {
          Optional<Receipt> receipt =
              records.find(connection, resource, operation).map(Recorded::receipt);
          Optional<Instant> pruned =
              receipt.isPresent()
                  ? Optional.empty()
                  : Pruning.prunedBefore(connection, destination, resource);
          if (pruned.isPresent()) {
            throw new ReceiptPrunedException(destination, resource, operation, pruned.get());
          }
          return receipt;
        });
  }

  Epoch resetRegisteredEpoch(ResourceId resource, Epoch epoch, String reason) {
    requireNonNull(resource, "resource is null");
    requireNonNull(epoch, "epoch is null");
    FencingToken.validateHolder(reason);
    Epoch previous =
        transactions.inTransaction(
            "reset the registered epoch of " + resource,
            connection -> {
              ControlRow row = lockControlRow(connection, resource);
              try (PreparedStatement update =
                  connection.prepareStatement(
                      "UPDATE fenceline_resource SET epoch = ?, issuer = NULL WHERE resource = ?")) {
                update.setLong(1, epoch.value());
                update.setString(2, resource.value());
                update.executeUpdate();
              }
              return row.epoch();
            });
    LOG.log(
        System.Logger.Level.WARNING,
        "Reset the registered epoch of "
            + resource
            + " at "
            + transactions.description()
            + " from "
            + previous
            + " to "
            + epoch
            + " (issuer binding cleared): "
            + reason);
    return previous;
  }

  Epoch currentEpoch(ResourceId resource) {
    requireNonNull(resource, "resource is null");
    return transactions.read(
        "read the epoch of " + resource,
        connection -> {
          try (PreparedStatement select =
              connection.prepareStatement(
                  "SELECT epoch FROM fenceline_resource WHERE resource = ?")) {
            select.setString(1, resource.value());
            try (ResultSet rows = select.executeQuery()) {
              return rows.next() ? Epoch.of(rows.getLong(1)) : Epoch.NONE;
            }
          }
        });
  }

  /**
   * Locks the resource's control row, refuses a token of another issuer than the registered one,
   * and registers the token's epoch (and, the first time, its issuer) if it is not older; returns
   * the row as it was, so the caller can reject an older epoch (which changed nothing). Call it as
   * the first statement inside {@link Transactions#inFencedTransaction}, after {@link
   * StoreIdentity#verify}.
   */
  ControlRow lockAndRegister(Connection connection, FencingToken token, String action)
      throws SQLException {
    return begin(connection, token, null, action).row();
  }

  /**
   * Locks the resource's control row and refuses a token of another issuer than the registered one;
   * registers nothing. Call it as the first statement inside {@link
   * Transactions#inFencedTransaction}.
   */
  ControlRow lockTrusted(Connection connection, FencingToken token, String action)
      throws SQLException {
    return begin(connection, token, null, false, false, action).row();
  }

  /** An operation to look up in the control-row step, with the fingerprint of its request. */
  private record Operation(OperationId id, Optional<RequestFingerprint> fingerprint) {}

  /** What the control-row step decided. */
  enum Status {
    /**
     * Another issuer's token is bound to the resource; nothing changed (thrown, never returned).
     */
    FOREIGN,
    /** The token's epoch is older than the registered one; nothing changed. */
    STALE,
    /** The operation was recorded with another request fingerprint; nothing changed. */
    CONFLICT,
    /** The operation was recorded; the epoch was registered if newer. */
    REPLAY,
    /** The operation is new (or none was asked about); the epoch was registered if newer. */
    PROCEED,
    /** {@code fenceline_publish_pointer_v2} only: the pointer and the record were written. */
    APPLIED
  }

  /** The control-row step's answer: the row as it was before, and the operation's record. */
  record Begun(Status status, ControlRow row, Optional<Recorded> recorded) {}

  private Begun begin(Connection connection, FencingToken token, Operation operation, String action)
      throws SQLException {
    return begin(connection, token, operation, true, false, action);
  }

  /**
   * The control-row step, the first statement of every fenced transaction: lock the resource's
   * control row (creating it at epoch 0 if missing), refuse another issuer's token ({@link
   * UntrustedTokenException}), compare the epoch, find the operation's record, and register the
   * token's epoch and issuer if newer ({@code register}) unless the answer is {@link Status#STALE}
   * or {@link Status#CONFLICT}. PostgreSQL: one statement, the server-side function {@code
   * fenceline_begin_v2} ({@link Schema#POSTGRES_FUNCTIONS}), which also sets the transaction's
   * timeouts. SQLite: the same decisions here, inside {@code BEGIN IMMEDIATE} (which holds the
   * database's write lock): one read, and one write if the row changes.
   */
  private Begun begin(
      Connection connection,
      FencingToken token,
      Operation operation,
      boolean register,
      boolean wholeTransaction,
      String action)
      throws SQLException {
    if (transactions.dialect() == Dialect.POSTGRESQL) {
      String call = STEP_COLUMNS + Schema.BEGIN + "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
      try (PreparedStatement begin =
          connection.prepareStatement(
              wholeTransaction
                  ? transactions.oneStatement(connection, call)
                  : transactions.firstStatement(call))) {
        bindStep(
            begin,
            token,
            operation == null ? null : operation.id(),
            operation == null
                ? null
                : operation.fingerprint().map(RequestFingerprint::value).orElse(null));
        begin.setBoolean(7, register);
        begin.setString(8, transactions.lockTimeoutSetting());
        begin.setString(9, transactions.statementTimeoutSetting());
        begin.setInt(10, Schema.VERSION);
        return readBegun(
            begin,
            Schema.BEGIN,
            BEGUN,
            wholeTransaction,
            token,
            operation == null ? null : operation.id(),
            action);
      }
    }
    return beginOnSqlite(connection, token, operation, register, action);
  }

  private Begun beginOnSqlite(
      Connection connection,
      FencingToken token,
      Operation operation,
      boolean register,
      String action)
      throws SQLException {
    ResourceId resource = token.resource();
    boolean exists;
    ControlRow row;
    Optional<Recorded> recorded;
    try (PreparedStatement select =
        connection.prepareStatement(
            "SELECT r.epoch, r.issuer, "
                + transactions.dialect().nowMillis
                + ", "
                + OperationRecords.COLUMNS
                + ", ("
                + Schema.CURRENT_VERSION
                + "), "
                + SafetyChecks.SQLITE_DURABILITY_COLUMNS
                + " FROM (SELECT ? AS destination, ? AS resource, ? AS operation) k"
                + " LEFT JOIN fenceline_resource r ON r.resource = k.resource"
                + OperationRecords.JOIN)) {
      select.setString(1, destination);
      select.setString(2, resource.value());
      select.setString(3, operation == null ? null : operation.id().value());
      try (ResultSet rows = select.executeQuery()) {
        rows.next();
        Schema.refuseNewer(rows.getInt(8));
        transactions.checkSqliteDurability(rows.getString(9), rows.getString(10));
        long epoch = rows.getLong(1);
        exists = !rows.wasNull();
        row = new ControlRow(Epoch.of(epoch), rows.getString(2), rows.getLong(3));
        recorded =
            operation == null ? Optional.empty() : records.read(rows, 4, resource, operation.id());
      }
    }
    if (row.issuer() != null && !row.issuer().equals(token.issuer())) {
      throw UntrustedTokenException.foreignIssuer(token, row.issuer(), action);
    }
    if (token.epoch().isOlderThan(row.epoch())) {
      return new Begun(Status.STALE, row, Optional.empty());
    }
    if (operation != null
        && recorded.isPresent()
        && operation.fingerprint().isPresent()
        && recorded.get().fingerprint().isPresent()
        && !operation.fingerprint().equals(recorded.get().fingerprint())) {
      return new Begun(Status.CONFLICT, row, recorded);
    }
    boolean changes = register && (token.epoch().isNewerThan(row.epoch()) || row.issuer() == null);
    if (!exists || changes) {
      writeControlRow(connection, token, register);
    }
    return new Begun(recorded.isPresent() ? Status.REPLAY : Status.PROCEED, row, recorded);
  }

  /**
   * SQLite: creates or updates the token's control row, with its epoch and issuer if {@code
   * register}, else at epoch 0 with no issuer (a row that did not exist).
   */
  private static void writeControlRow(Connection connection, FencingToken token, boolean register)
      throws SQLException {
    try (PreparedStatement upsert =
        connection.prepareStatement(
            "INSERT INTO fenceline_resource (resource, epoch, issuer) VALUES (?, ?, ?)"
                + " ON CONFLICT (resource) DO UPDATE SET epoch = excluded.epoch,"
                + " issuer = excluded.issuer")) {
      upsert.setString(1, token.resource().value());
      upsert.setLong(2, register ? token.epoch().value() : 0);
      upsert.setString(3, register ? token.issuer() : null);
      upsert.executeUpdate();
    }
  }

  /** The columns {@link #readBegun} reads, from the function named next. */
  private static final String STEP_COLUMNS =
      "SELECT o_status, o_epoch, o_issuer, o_now_ms, o_rec_epoch, o_rec_at_ms,"
          + " o_rec_attributes, o_rec_fingerprint FROM ";

  /**
   * Parameters 1 to 6 of {@code fenceline_begin_v2} and {@code fenceline_publish_pointer_v2}:
   * destination, resource, operation (or NULL), epoch, issuer, fingerprint (or NULL).
   */
  private void bindStep(
      PreparedStatement statement, FencingToken token, OperationId operation, String fingerprint)
      throws SQLException {
    statement.setString(1, destination);
    statement.setString(2, token.resource().value());
    statement.setString(3, operation == null ? null : operation.value());
    statement.setLong(4, token.epoch().value());
    statement.setString(5, token.issuer());
    statement.setString(6, fingerprint);
  }

  /** The statuses {@code fenceline_begin_v2} answers. */
  private static final Set<Status> BEGUN =
      java.util.EnumSet.of(
          Status.FOREIGN, Status.STALE, Status.CONFLICT, Status.REPLAY, Status.PROCEED);

  /** The statuses {@code fenceline_publish_pointer_v2} answers. */
  private static final Set<Status> PUBLISHED =
      java.util.EnumSet.of(
          Status.FOREIGN, Status.STALE, Status.CONFLICT, Status.REPLAY, Status.APPLIED);

  /**
   * Reads the single row of {@code fenceline_begin_v2} or {@code fenceline_publish_pointer_v2}
   * ({@code function}). A status outside {@code expected} (a body of a newer Fenceline may answer
   * one this build does not know) decides nothing: if the statement carried its commit ({@code
   * committed}), whether it changed anything is unknown ({@link StoreException} with {@code
   * outcomeUnknown}); otherwise an {@link SQLException}, so the open transaction is rolled back.
   */
  private Begun readBegun(
      PreparedStatement statement,
      String function,
      Set<Status> expected,
      boolean committed,
      FencingToken token,
      OperationId operation,
      String action)
      throws SQLException {
    try (ResultSet rows = Transactions.rows(statement)) {
      if (!rows.next()) {
        throw new SQLException("the control-row step of " + token.resource() + " returned no row");
      }
      String answered = rows.getString(1);
      Status status = status(answered, expected);
      if (status == null) {
        String problem =
            function
                + " answered the status "
                + (answered == null ? "NULL" : "'" + answered + "'")
                + ", which this Fenceline does not know (a newer Fenceline may have replaced the"
                + " function; upgrade this process)";
        if (!committed) {
          throw new SQLException(problem);
        }
        throw new StoreException(
            "Cannot "
                + action
                + " at "
                + transactions.description()
                + ": "
                + problem
                + " (the statement committed, so the step may or may not have happened; look the"
                + " operation up, or retry it with the same operation ID)",
            null,
            true);
      }
      ControlRow row =
          new ControlRow(Epoch.of(rows.getLong(2)), rows.getString(3), rows.getLong(4));
      if (status == Status.FOREIGN) {
        throw UntrustedTokenException.foreignIssuer(token, row.issuer(), action);
      }
      Optional<Recorded> recorded =
          operation == null ? Optional.empty() : records.read(rows, 5, token.resource(), operation);
      return new Begun(status, row, recorded);
    }
  }

  /** The status named {@code answered} if it is one of {@code expected}, else null. */
  private static Status status(String answered, Set<Status> expected) {
    if (answered == null) {
      return null;
    }
    for (Status status : expected) {
      if (status.name().equalsIgnoreCase(answered)) {
        return status;
      }
    }
    return null;
  }

  /** Locks (creating if missing) a control row for an epoch reset; registers nothing. */
  private ControlRow lockControlRow(Connection connection, ResourceId resource)
      throws SQLException {
    try (PreparedStatement insert =
        connection.prepareStatement(
            "INSERT INTO fenceline_resource (resource, epoch) VALUES (?, 0)"
                + " ON CONFLICT (resource) DO NOTHING")) {
      insert.setString(1, resource.value());
      insert.executeUpdate();
    }
    try (PreparedStatement select =
        connection.prepareStatement(
            "SELECT epoch, issuer, "
                + transactions.dialect().nowMillis
                + " FROM fenceline_resource WHERE resource = ?"
                + transactions.dialect().lockRow)) {
      select.setString(1, resource.value());
      try (ResultSet rows = select.executeQuery()) {
        if (!rows.next()) {
          throw new SQLException("control row of " + resource + " vanished inside a transaction");
        }
        return new ControlRow(Epoch.of(rows.getLong(1)), rows.getString(2), rows.getLong(3));
      }
    }
  }
}
