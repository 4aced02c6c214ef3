package dev.fenceline.jdbc;

import static java.util.Objects.requireNonNull;

import dev.fenceline.spi.AlreadyApplied;
import dev.fenceline.spi.Applied;
import dev.fenceline.spi.Destination;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingStep;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.OperationConflictException;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Receipt;
import dev.fenceline.spi.ReceiptPrunedException;
import dev.fenceline.spi.RegisterOutcome;
import dev.fenceline.spi.Registered;
import dev.fenceline.spi.RejectedStale;
import dev.fenceline.spi.RequestFingerprint;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StepListener;
import dev.fenceline.spi.UntrustedTokenException;
import dev.fenceline.spi.WriteOutcome;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

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

  private record Recorded(Receipt receipt, Optional<RequestFingerprint> fingerprint) {}

  private static final Set<String> FORBIDDEN_IN_CHANGE =
      Set.of("commit", "rollback", "setAutoCommit", "close", "abort", "setTransactionIsolation");

  private final JdbcStore store;
  private final String destination;
  private final StepListener steps;

  FencedWrite(JdbcStore store, String destination, StepListener steps) {
    this.store = requireNonNull(store, "store is null");
    this.destination = Destination.validateName(destination);
    this.steps = requireNonNull(steps, "steps is null");
  }

  JdbcStore store() {
    return store;
  }

  String destination() {
    return destination;
  }

  StepListener steps() {
    return steps;
  }

  RegisterOutcome register(FencingToken token) {
    requireNonNull(token, "token is null");
    ResourceId resource = token.resource();
    String action = "register epoch " + token.epoch() + " of " + resource + " at " + destination;
    store.verify(token, action);
    return store.inTransaction(
        action,
        connection -> {
          ControlRow row = lockAndRegister(connection, token, action);
          if (token.epoch().isOlderThan(row.epoch())) {
            return new RejectedStale(resource, token.epoch(), row.epoch());
          }
          return new Registered(resource, token.epoch(), row.epoch());
        });
  }

  /**
   * The atomic step. {@code fingerprint}, if present, is recorded with the operation; a retry whose
   * fingerprint differs from a recorded one is refused with {@link OperationConflictException}.
   */
  WriteOutcome write(
      FencingToken token,
      OperationId operation,
      Optional<RequestFingerprint> fingerprint,
      Change change) {
    requireNonNull(token, "token is null");
    requireNonNull(operation, "operation is null");
    requireNonNull(fingerprint, "fingerprint is null");
    requireNonNull(change, "change is null");
    ResourceId resource = token.resource();
    String action = "write operation " + operation + " of " + resource + " to " + destination;
    store.verify(token, action);
    steps.reached(FencingStep.BEFORE_LOCK, token, operation);
    WriteOutcome outcome =
        store.inTransaction(
            action,
            connection -> {
              ControlRow row = lockAndRegister(connection, token, action);
              if (token.epoch().isOlderThan(row.epoch())) {
                return new RejectedStale(resource, token.epoch(), row.epoch());
              }
              steps.reached(FencingStep.AFTER_EPOCH_CHECK, token, operation);
              Optional<Recorded> previous = findRecord(connection, resource, operation);
              if (previous.isPresent()) {
                Recorded recorded = previous.get();
                if (fingerprint.isPresent()
                    && recorded.fingerprint().isPresent()
                    && !fingerprint.equals(recorded.fingerprint())) {
                  throw OperationConflictException.differentRequest(
                      recorded.receipt(), fingerprint.get());
                }
                return new AlreadyApplied(recorded.receipt());
              }
              Map<String, String> attributes = change.apply(guarded(connection));
              Receipt receipt =
                  new Receipt(
                      destination,
                      resource,
                      operation,
                      token.epoch(),
                      Instant.ofEpochMilli(row.nowMillis()),
                      requireNonNull(attributes, "the change returned null attributes"));
              recordReceipt(connection, receipt, fingerprint);
              steps.reached(FencingStep.AFTER_APPLY, token, operation);
              return new Applied(receipt);
            });
    if (!(outcome instanceof RejectedStale)) {
      steps.reached(FencingStep.AFTER_COMMIT, token, operation);
    }
    return outcome;
  }

  Optional<Receipt> lookup(ResourceId resource, OperationId operation) {
    requireNonNull(resource, "resource is null");
    requireNonNull(operation, "operation is null");
    return store.read(
        "look up operation " + operation + " of " + resource + " at " + destination,
        connection -> {
          Optional<Receipt> receipt =
              findRecord(connection, resource, operation).map(Recorded::receipt);
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
        store.inTransaction(
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
            + store.description()
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
    return store.read(
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
   * the row as it was, so the caller can reject an older epoch (which changed nothing). Call it
   * inside {@link JdbcStore#inTransaction}, after {@link JdbcStore#verify}.
   */
  ControlRow lockAndRegister(Connection connection, FencingToken token, String action)
      throws SQLException {
    ControlRow row = lockTrusted(connection, token, action);
    boolean newer = token.epoch().isNewerThan(row.epoch());
    boolean bindIssuer = row.issuer() == null && !token.epoch().isOlderThan(row.epoch());
    if (newer || bindIssuer) {
      updateControlRow(connection, token, newer ? token.epoch() : row.epoch());
    }
    return row;
  }

  /**
   * Locks the resource's control row and refuses a token of another issuer than the registered one;
   * registers nothing. Call it inside {@link JdbcStore#inTransaction}.
   */
  ControlRow lockTrusted(Connection connection, FencingToken token, String action)
      throws SQLException {
    ControlRow row = lockControlRow(connection, token.resource());
    if (row.issuer() != null && !row.issuer().equals(token.issuer())) {
      throw UntrustedTokenException.foreignIssuer(token, row.issuer(), action);
    }
    return row;
  }

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
                + store.dialect().nowMillis
                + " FROM fenceline_resource WHERE resource = ?"
                + store.dialect().lockRow)) {
      select.setString(1, resource.value());
      try (ResultSet rows = select.executeQuery()) {
        if (!rows.next()) {
          throw new SQLException("control row of " + resource + " vanished inside a transaction");
        }
        return new ControlRow(Epoch.of(rows.getLong(1)), rows.getString(2), rows.getLong(3));
      }
    }
  }

  private static void updateControlRow(Connection connection, FencingToken token, Epoch epoch)
      throws SQLException {
    try (PreparedStatement update =
        connection.prepareStatement(
            "UPDATE fenceline_resource SET epoch = ?, issuer = ? WHERE resource = ?")) {
      update.setLong(1, epoch.value());
      update.setString(2, token.issuer());
      update.setString(3, token.resource().value());
      update.executeUpdate();
    }
  }

  private Optional<Recorded> findRecord(
      Connection connection, ResourceId resource, OperationId operation) throws SQLException {
    try (PreparedStatement select =
        connection.prepareStatement(
            "SELECT epoch, recorded_at_ms, attributes, fingerprint FROM fenceline_operation"
                + " WHERE destination = ? AND resource = ? AND operation = ?")) {
      select.setString(1, destination);
      select.setString(2, resource.value());
      select.setString(3, operation.value());
      try (ResultSet rows = select.executeQuery()) {
        if (!rows.next()) {
          return Optional.empty();
        }
        Receipt receipt =
            new Receipt(
                destination,
                resource,
                operation,
                Epoch.of(rows.getLong(1)),
                Instant.ofEpochMilli(rows.getLong(2)),
                ReceiptAttributes.decode(rows.getString(3)));
        return Optional.of(
            new Recorded(
                receipt, Optional.ofNullable(rows.getString(4)).map(RequestFingerprint::new)));
      }
    }
  }

  private static void recordReceipt(
      Connection connection, Receipt receipt, Optional<RequestFingerprint> fingerprint)
      throws SQLException {
    try (PreparedStatement insert =
        connection.prepareStatement(
            "INSERT INTO fenceline_operation"
                + " (destination, resource, operation, epoch, recorded_at_ms, attributes,"
                + " fingerprint) VALUES (?, ?, ?, ?, ?, ?, ?)")) {
      insert.setString(1, receipt.destination());
      insert.setString(2, receipt.resource().value());
      insert.setString(3, receipt.operation().value());
      insert.setLong(4, receipt.epoch().value());
      insert.setLong(5, receipt.recordedAt().toEpochMilli());
      insert.setString(6, ReceiptAttributes.encode(receipt.attributes()));
      insert.setString(7, fingerprint.map(RequestFingerprint::value).orElse(null));
      insert.executeUpdate();
    }
  }

  /**
   * The connection a change sees: the same transaction, but commit, rollback, auto-commit and close
   * are refused, because the change must commit together with the epoch check and the record.
   */
  private static Connection guarded(Connection connection) {
    return (Connection)
        Proxy.newProxyInstance(
            Connection.class.getClassLoader(),
            new Class<?>[] {Connection.class},
            (proxy, method, args) -> {
              boolean savepointRollback =
                  method.getName().equals("rollback") && args != null && args.length == 1;
              if (FORBIDDEN_IN_CHANGE.contains(method.getName()) && !savepointRollback) {
                throw new SQLException(
                    "Cannot call Connection."
                        + method.getName()
                        + "() inside a fenced change: the change commits together with the"
                        + " epoch check and the operation record (return from the change instead)");
              }
              try {
                return method.invoke(connection, args);
              } catch (InvocationTargetException e) {
                throw e.getCause();
              }
            });
  }
}
