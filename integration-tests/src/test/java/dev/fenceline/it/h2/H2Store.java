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
package dev.fenceline.it.h2;

import static java.util.Objects.requireNonNull;

import dev.fenceline.locking.ControlRow;
import dev.fenceline.locking.LockingStore;
import dev.fenceline.locking.RecordedOperation;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Receipt;
import dev.fenceline.spi.RequestFingerprint;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StoreException;
import java.io.InputStream;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The H2 database of the {@code h2-test} adapter: its tables, a small pool of connections, and the
 * statements {@link dev.fenceline.locking.LockingSteps} runs ({@link LockingStore}). Three tables:
 * control rows per resource, operation records per destination, resource and operation, and the
 * current payload per destination and resource.
 */
final class H2Store implements LockingStore<Connection>, AutoCloseable {

  /** Receipt attribute: the payload's size in bytes. */
  static final String SIZE = "size";

  /** Receipt attribute: the payload's SHA-256, lowercase hex. */
  static final String SHA256 = "sha256";

  /** SQLState of a unique-key violation. */
  private static final String DUPLICATE_KEY = "23505";

  private static final String[] SCHEMA = {
    "CREATE TABLE IF NOT EXISTS h2fence_resource (resource VARCHAR PRIMARY KEY,"
        + " epoch BIGINT NOT NULL, issuer VARCHAR)",
    "CREATE TABLE IF NOT EXISTS h2fence_operation (destination VARCHAR NOT NULL,"
        + " resource VARCHAR NOT NULL, operation VARCHAR NOT NULL, epoch BIGINT NOT NULL,"
        + " recorded_at_ms BIGINT NOT NULL, size BIGINT NOT NULL, sha256 VARCHAR NOT NULL,"
        + " fingerprint VARCHAR NOT NULL, PRIMARY KEY (destination, resource, operation))",
    "CREATE TABLE IF NOT EXISTS h2fence_payload (destination VARCHAR NOT NULL,"
        + " resource VARCHAR NOT NULL, content BLOB NOT NULL, version BIGINT NOT NULL,"
        + " PRIMARY KEY (destination, resource))"
  };

  private final String url;
  private final String user;
  private final String password;
  private final Duration lockTimeout;
  private final ConcurrentLinkedQueue<Connection> idle = new ConcurrentLinkedQueue<>();
  private volatile boolean closed;

  /** Opens the database at {@code url} and creates the tables if they are missing. */
  H2Store(String url, String user, String password, Duration lockTimeout) {
    this.url = requireNonNull(url, "url is null");
    this.user = requireNonNull(user, "user is null");
    this.password = requireNonNull(password, "password is null");
    this.lockTimeout = requireNonNull(lockTimeout, "lockTimeout is null");
    try (Connection connection = connect();
        Statement statement = connection.createStatement()) {
      for (String ddl : SCHEMA) {
        statement.execute(ddl);
      }
    } catch (SQLException e) {
      throw new StoreException(
          "Cannot open " + description() + ": " + e.getMessage() + " (check the url and user)", e);
    }
  }

  @Override
  public String description() {
    // Settings after the first ';' may carry a password (;PASSWORD=...): never shown.
    int settings = url.indexOf(';');
    return "h2 database " + (settings < 0 ? url : url.substring(0, settings));
  }

  @Override
  public Connection begin() throws SQLException {
    if (closed) {
      throw new IllegalStateException("Cannot use " + description() + ": the adapter is closed");
    }
    Connection connection = idle.poll();
    if (connection == null) {
      connection = connect();
    }
    connection.setAutoCommit(false);
    return connection;
  }

  @Override
  public ControlRow lockControlRow(Connection connection, ResourceId resource) throws SQLException {
    try (PreparedStatement create =
        connection.prepareStatement(
            "MERGE INTO h2fence_resource r USING (VALUES (CAST(? AS VARCHAR))) k (resource)"
                + " ON r.resource = k.resource"
                + " WHEN NOT MATCHED THEN INSERT (resource, epoch) VALUES (k.resource, 0)")) {
      create.setString(1, resource.value());
      create.executeUpdate();
    } catch (SQLException e) {
      if (!DUPLICATE_KEY.equals(e.getSQLState())) {
        throw e;
      }
      // Another first step of this resource inserted the row after this one looked: H2 fails
      // only this statement, and the lock below waits for that step to end.
    }
    try (PreparedStatement lock =
        connection.prepareStatement(
            "SELECT epoch, issuer FROM h2fence_resource WHERE resource = ? FOR UPDATE")) {
      lock.setString(1, resource.value());
      try (ResultSet row = lock.executeQuery()) {
        if (!row.next()) {
          throw new SQLException("the control row of " + resource + " vanished");
        }
        return ControlRow.of(Epoch.of(row.getLong(1)), row.getString(2));
      }
    }
  }

  @Override
  public Optional<ControlRow> readControlRow(Connection connection, ResourceId resource)
      throws SQLException {
    try (PreparedStatement read =
        connection.prepareStatement(
            "SELECT epoch, issuer FROM h2fence_resource WHERE resource = ?")) {
      read.setString(1, resource.value());
      try (ResultSet row = read.executeQuery()) {
        return row.next()
            ? Optional.of(ControlRow.of(Epoch.of(row.getLong(1)), row.getString(2)))
            : Optional.empty();
      }
    }
  }

  @Override
  public void writeControlRow(Connection connection, ResourceId resource, ControlRow row)
      throws SQLException {
    try (PreparedStatement update =
        connection.prepareStatement(
            "UPDATE h2fence_resource SET epoch = ?, issuer = ? WHERE resource = ?")) {
      update.setLong(1, row.epoch().value());
      update.setString(2, row.issuer().orElse(null));
      update.setString(3, resource.value());
      update.executeUpdate();
    }
  }

  @Override
  public Optional<RecordedOperation> findOperation(
      Connection connection, String destination, ResourceId resource, OperationId operation)
      throws SQLException {
    try (PreparedStatement find =
        connection.prepareStatement(
            "SELECT epoch, recorded_at_ms, size, sha256, fingerprint FROM h2fence_operation"
                + " WHERE destination = ? AND resource = ? AND operation = ?")) {
      find.setString(1, destination);
      find.setString(2, resource.value());
      find.setString(3, operation.value());
      try (ResultSet row = find.executeQuery()) {
        if (!row.next()) {
          return Optional.empty();
        }
        Receipt receipt =
            new Receipt(
                destination,
                resource,
                operation,
                Epoch.of(row.getLong(1)),
                Instant.ofEpochMilli(row.getLong(2)),
                Map.of(SIZE, Long.toString(row.getLong(3)), SHA256, row.getString(4)));
        return Optional.of(
            new RecordedOperation(receipt, new RequestFingerprint(row.getString(5))));
      }
    }
  }

  @Override
  public void recordOperation(Connection connection, RecordedOperation record) throws SQLException {
    Receipt receipt = record.receipt();
    try (PreparedStatement insert =
        connection.prepareStatement(
            "INSERT INTO h2fence_operation (destination, resource, operation, epoch,"
                + " recorded_at_ms, size, sha256, fingerprint) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")) {
      insert.setString(1, receipt.destination());
      insert.setString(2, receipt.resource().value());
      insert.setString(3, receipt.operation().value());
      insert.setLong(4, receipt.epoch().value());
      insert.setLong(5, receipt.recordedAt().toEpochMilli());
      insert.setLong(6, Long.parseLong(receipt.attributes().get(SIZE)));
      insert.setString(7, receipt.attributes().get(SHA256));
      insert.setString(8, record.fingerprint().value());
      insert.executeUpdate();
    }
  }

  /**
   * Replaces the payload of {@code resource} at {@code destination} with {@code content}, streamed
   * into the database (never held in memory whole), and counts one more applied version.
   */
  void storePayload(
      Connection connection, String destination, ResourceId resource, InputStream content)
      throws SQLException {
    // Bound to one statement only: H2 reads a bound stream when it executes, even if no row
    // matches. No other step inserts the row meanwhile: this one holds the control row's lock.
    boolean exists;
    try (PreparedStatement find =
        connection.prepareStatement(
            "SELECT 1 FROM h2fence_payload WHERE destination = ? AND resource = ?")) {
      find.setString(1, destination);
      find.setString(2, resource.value());
      try (ResultSet row = find.executeQuery()) {
        exists = row.next();
      }
    }
    try (PreparedStatement store =
        connection.prepareStatement(
            exists
                ? "UPDATE h2fence_payload SET content = ?, version = version + 1"
                    + " WHERE destination = ? AND resource = ?"
                : "INSERT INTO h2fence_payload (content, destination, resource, version)"
                    + " VALUES (?, ?, ?, 1)")) {
      store.setBinaryStream(1, content);
      store.setString(2, destination);
      store.setString(3, resource.value());
      store.executeUpdate();
    }
  }

  /** The committed payload of {@code resource} at {@code destination}, if any. */
  Optional<byte[]> payload(String destination, ResourceId resource) {
    return read(
        "read the payload of " + resource + " at " + destination,
        "SELECT content FROM h2fence_payload WHERE destination = ? AND resource = ?",
        destination,
        resource,
        row -> row.getBytes(1));
  }

  /** How many payloads were applied to {@code resource} at {@code destination}. */
  long version(String destination, ResourceId resource) {
    return read(
            "count the payloads of " + resource + " at " + destination,
            "SELECT version FROM h2fence_payload WHERE destination = ? AND resource = ?",
            destination,
            resource,
            row -> row.getLong(1))
        .orElse(0L);
  }

  @Override
  public void commit(Connection connection) throws SQLException {
    connection.commit();
    release(connection);
  }

  @Override
  public void rollback(Connection connection) throws SQLException {
    try {
      connection.rollback();
    } catch (SQLException e) {
      connection.close();
      throw e;
    }
    release(connection);
  }

  /** Keeps an ended transaction's connection for the next one, unless the store was closed. */
  private void release(Connection connection) throws SQLException {
    if (closed) {
      connection.close();
    } else {
      idle.add(connection);
    }
  }

  /** Closes every idle connection; the database closes with its last connection. */
  @Override
  public void close() {
    closed = true;
    for (Connection connection = idle.poll(); connection != null; connection = idle.poll()) {
      try {
        connection.close();
      } catch (SQLException e) {
        // Closing: nothing is left to do with this connection.
      }
    }
  }

  private Connection connect() throws SQLException {
    Connection connection = DriverManager.getConnection(url, user, password);
    try (Statement settings = connection.createStatement()) {
      settings.execute("SET LOCK_TIMEOUT " + lockTimeout.toMillis());
    }
    return connection;
  }

  /** A column of the row of (destination, resource), read outside any step. */
  private interface Column<V> {
    V read(ResultSet row) throws SQLException;
  }

  private <V> Optional<V> read(
      String action, String sql, String destination, ResourceId resource, Column<V> column) {
    try {
      Connection connection = begin();
      try (PreparedStatement select = connection.prepareStatement(sql)) {
        select.setString(1, destination);
        select.setString(2, resource.value());
        try (ResultSet row = select.executeQuery()) {
          return row.next() ? Optional.of(column.read(row)) : Optional.empty();
        }
      } finally {
        rollback(connection);
      }
    } catch (SQLException e) {
      throw new StoreException(
          "Cannot " + action + " at " + description() + ": " + e.getMessage(), e);
    }
  }
}
