package dev.fenceline.jdbc;

import static java.util.Objects.requireNonNull;

import dev.fenceline.spi.AlreadyApplied;
import dev.fenceline.spi.Applied;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingStep;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Receipt;
import dev.fenceline.spi.RegisterOutcome;
import dev.fenceline.spi.Registered;
import dev.fenceline.spi.RejectedStale;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StepListener;
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

  /** The business change, run inside the transaction. */
  @FunctionalInterface
  interface Change {
    Map<String, String> apply(Connection connection) throws SQLException;
  }

  private record ControlRow(Epoch epoch, long nowMillis) {}

  private static final Set<String> FORBIDDEN_IN_CHANGE =
      Set.of("commit", "rollback", "setAutoCommit", "close", "abort", "setTransactionIsolation");

  private final JdbcStore store;
  private final StepListener steps;

  FencedWrite(JdbcStore store, StepListener steps) {
    this.store = requireNonNull(store, "store is null");
    this.steps = requireNonNull(steps, "steps is null");
  }

  JdbcStore store() {
    return store;
  }

  RegisterOutcome register(FencingToken token) {
    requireNonNull(token, "token is null");
    ResourceId resource = token.resource();
    return store.inTransaction(
        "register epoch " + token.epoch() + " of " + resource,
        connection -> {
          ControlRow row = lockAndRegister(connection, token);
          if (token.epoch().isOlderThan(row.epoch())) {
            return new RejectedStale(resource, token.epoch(), row.epoch());
          }
          return new Registered(resource, token.epoch(), row.epoch());
        });
  }

  WriteOutcome write(FencingToken token, OperationId operation, Change change) {
    requireNonNull(token, "token is null");
    requireNonNull(operation, "operation is null");
    requireNonNull(change, "change is null");
    ResourceId resource = token.resource();
    steps.reached(FencingStep.BEFORE_LOCK, token, operation);
    WriteOutcome outcome =
        store.inTransaction(
            "write operation " + operation + " to " + resource,
            connection -> {
              ControlRow row = lockAndRegister(connection, token);
              if (token.epoch().isOlderThan(row.epoch())) {
                return new RejectedStale(resource, token.epoch(), row.epoch());
              }
              steps.reached(FencingStep.AFTER_EPOCH_CHECK, token, operation);
              Optional<Receipt> previous = findReceipt(connection, resource, operation);
              if (previous.isPresent()) {
                return new AlreadyApplied(previous.get());
              }
              Map<String, String> attributes = change.apply(guarded(connection));
              Receipt receipt =
                  new Receipt(
                      resource,
                      operation,
                      token.epoch(),
                      Instant.ofEpochMilli(row.nowMillis()),
                      requireNonNull(attributes, "the change returned null attributes"));
              recordReceipt(connection, receipt);
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
        "look up operation " + operation + " of " + resource,
        connection -> findReceipt(connection, resource, operation));
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
   * Locks the resource's control row and registers the token's epoch if it is newer; returns the
   * row as it was, so the caller can reject an older epoch (which changed nothing).
   */
  private ControlRow lockAndRegister(Connection connection, FencingToken token)
      throws SQLException {
    ControlRow row = lockControlRow(connection, token.resource());
    if (token.epoch().isNewerThan(row.epoch())) {
      updateEpoch(connection, token.resource(), token.epoch());
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
            "SELECT epoch, "
                + store.dialect().nowMillis
                + " FROM fenceline_resource WHERE resource = ?"
                + store.dialect().lockRow)) {
      select.setString(1, resource.value());
      try (ResultSet rows = select.executeQuery()) {
        if (!rows.next()) {
          throw new SQLException("control row of " + resource + " vanished inside a transaction");
        }
        return new ControlRow(Epoch.of(rows.getLong(1)), rows.getLong(2));
      }
    }
  }

  private static void updateEpoch(Connection connection, ResourceId resource, Epoch epoch)
      throws SQLException {
    try (PreparedStatement update =
        connection.prepareStatement("UPDATE fenceline_resource SET epoch = ? WHERE resource = ?")) {
      update.setLong(1, epoch.value());
      update.setString(2, resource.value());
      update.executeUpdate();
    }
  }

  private static Optional<Receipt> findReceipt(
      Connection connection, ResourceId resource, OperationId operation) throws SQLException {
    try (PreparedStatement select =
        connection.prepareStatement(
            "SELECT epoch, recorded_at_ms, attributes FROM fenceline_operation"
                + " WHERE resource = ? AND operation = ?")) {
      select.setString(1, resource.value());
      select.setString(2, operation.value());
      try (ResultSet rows = select.executeQuery()) {
        if (!rows.next()) {
          return Optional.empty();
        }
        return Optional.of(
            new Receipt(
                resource,
                operation,
                Epoch.of(rows.getLong(1)),
                Instant.ofEpochMilli(rows.getLong(2)),
                ReceiptAttributes.decode(rows.getString(3))));
      }
    }
  }

  private static void recordReceipt(Connection connection, Receipt receipt) throws SQLException {
    try (PreparedStatement insert =
        connection.prepareStatement(
            "INSERT INTO fenceline_operation"
                + " (resource, operation, epoch, recorded_at_ms, attributes)"
                + " VALUES (?, ?, ?, ?, ?)")) {
      insert.setString(1, receipt.resource().value());
      insert.setString(2, receipt.operation().value());
      insert.setLong(3, receipt.epoch().value());
      insert.setLong(4, receipt.recordedAt().toEpochMilli());
      insert.setString(5, ReceiptAttributes.encode(receipt.attributes()));
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
