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

import dev.fenceline.cas.CasPointerSteps;
import dev.fenceline.cas.ControlDocument;
import dev.fenceline.cas.ControlDocument.Entry;
import dev.fenceline.cas.RecordNames;
import dev.fenceline.cas.StrictJson;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.ResourceId;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;

/**
 * A compare-and-swap store on a SQLite file for {@link CasPointerSteps}: one control document per
 * resource with a version, replaced only if it is still the version that was read ({@code UPDATE
 * ... WHERE version = ?}), and immutable records by key. The buggy variant ({@code conditional}
 * false) replaces whatever version is there: the compare of a compare-and-swap dropped.
 */
final class SqliteCasStore implements CasPointerSteps.Store<SqliteCasStore.Read> {

  static final String[] SCHEMA = {
    "CREATE TABLE IF NOT EXISTS cas_control (resource TEXT PRIMARY KEY, version INTEGER NOT NULL,"
        + " document BLOB NOT NULL)",
    "CREATE TABLE IF NOT EXISTS cas_records (record TEXT PRIMARY KEY, data BLOB NOT NULL)",
    "CREATE TABLE IF NOT EXISTS cas_blobs (blob TEXT PRIMARY KEY, data BLOB NOT NULL)"
  };

  /** A read: the document and its version (0: none). */
  record Read(ResourceId resource, ControlDocument control, long version)
      implements CasPointerSteps.Read {}

  private final SqliteFile db;
  private final String name;
  private final boolean conditional;
  private final long replaceMillis;

  SqliteCasStore(SqliteFile db, String name, boolean conditional, long replaceMillis) {
    this.db = db;
    this.name = name;
    this.conditional = conditional;
    this.replaceMillis = replaceMillis;
  }

  /** Opens (creating if missing) the store's tables in {@code file}. */
  static SqliteFile open(Path file) {
    return new SqliteFile(file, SCHEMA);
  }

  SqliteFile db() {
    return db;
  }

  @Override
  public Read read(ResourceId resource, String action) {
    return db.read(
        action + " (read the control document)",
        c -> {
          try (PreparedStatement select =
              c.prepareStatement("SELECT version, document FROM cas_control WHERE resource = ?")) {
            select.setString(1, resource.value());
            try (ResultSet rows = select.executeQuery()) {
              if (!rows.next()) {
                return new Read(resource, ControlDocument.EMPTY, 0);
              }
              long version = rows.getLong(1);
              ControlDocument control =
                  ControlDocument.parse(rows.getBytes(2), where("control document " + resource));
              return new Read(resource, control, version);
            }
          }
        });
  }

  @Override
  public CasPointerSteps.Stored operationRecord(
      ResourceId resource, OperationId operation, String action) {
    return stored(operationKey(resource, operation), action);
  }

  @Override
  public CasPointerSteps.Stored versionRecord(ResourceId resource, long version, String action) {
    return stored(versionKey(resource, version), action);
  }

  @Override
  public boolean beforeReplacing(ResourceId resource, Entry current) {
    byte[] json = current.toStoredJson(name, resource);
    db.inTransaction(
        "store the records of " + resource + " version " + current.version(),
        c -> {
          insertRecord(c, operationKey(resource, current.operation()), json);
          insertRecord(c, versionKey(resource, current.version()), json);
          return null;
        });
    return true;
  }

  @Override
  public boolean replace(Read read, ControlDocument next, Optional<Entry> applied, String action) {
    if (replaceMillis > 0) {
      travel(action);
    }
    return db.inTransaction(
        action + " (replace the control document)",
        c -> {
          if (!conditional) {
            // The planted bug: whatever version is there now is replaced.
            try (PreparedStatement put =
                c.prepareStatement(
                    "INSERT OR REPLACE INTO cas_control (resource, version, document)"
                        + " VALUES (?, ?, ?)")) {
              put.setString(1, read.resource().value());
              put.setLong(2, read.version() + 1);
              put.setBytes(3, next.toJson());
              return put.executeUpdate() == 1;
            }
          }
          if (read.version() == 0) {
            try (PreparedStatement create =
                c.prepareStatement(
                    "INSERT OR IGNORE INTO cas_control (resource, version, document)"
                        + " VALUES (?, 1, ?)")) {
              create.setString(1, read.resource().value());
              create.setBytes(2, next.toJson());
              return create.executeUpdate() == 1;
            }
          }
          try (PreparedStatement swap =
              c.prepareStatement(
                  "UPDATE cas_control SET version = version + 1, document = ?"
                      + " WHERE resource = ? AND version = ?")) {
            swap.setBytes(1, next.toJson());
            swap.setString(2, read.resource().value());
            swap.setLong(3, read.version());
            return swap.executeUpdate() == 1;
          }
        });
  }

  /**
   * The replace request's way to a remote store (an S3 conditional PUT, a ZooKeeper setData): the
   * version it names is compared when it arrives, so a pause here cuts a write between its read and
   * its replace.
   */
  private void travel(String action) {
    try {
      Thread.sleep(replaceMillis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new dev.fenceline.spi.StoreException(
          "Cannot " + action + ": interrupted before the replace was sent", e, false);
    }
  }

  /** Stores a payload under its key, once (content-addressed, outside any fence). */
  void putBlob(String key, byte[] data) {
    db.inTransaction(
        "stage blob " + key,
        c -> {
          try (PreparedStatement insert =
              c.prepareStatement("INSERT OR IGNORE INTO cas_blobs (blob, data) VALUES (?, ?)")) {
            insert.setString(1, key);
            insert.setBytes(2, data);
            insert.executeUpdate();
          }
          return null;
        });
  }

  /** {@return the payload stored under {@code key}, if any} */
  Optional<byte[]> blob(String key) {
    return db.read(
        "read blob " + key,
        c -> {
          try (PreparedStatement select =
              c.prepareStatement("SELECT data FROM cas_blobs WHERE blob = ?")) {
            select.setString(1, key);
            try (ResultSet rows = select.executeQuery()) {
              return rows.next() ? Optional.of(rows.getBytes(1)) : Optional.<byte[]>empty();
            }
          }
        });
  }

  private CasPointerSteps.Stored stored(String key, String action) {
    Optional<byte[]> data =
        db.read(
            action + " (read record " + key + ")",
            c -> {
              try (PreparedStatement select =
                  c.prepareStatement("SELECT data FROM cas_records WHERE record = ?")) {
                select.setString(1, key);
                try (ResultSet rows = select.executeQuery()) {
                  return rows.next() ? Optional.of(rows.getBytes(1)) : Optional.<byte[]>empty();
                }
              }
            });
    return new CasPointerSteps.Stored(where("record " + key), data);
  }

  private static void insertRecord(Connection c, String key, byte[] json) throws SQLException {
    try (PreparedStatement insert =
        c.prepareStatement("INSERT OR IGNORE INTO cas_records (record, data) VALUES (?, ?)")) {
      insert.setString(1, key);
      insert.setBytes(2, json);
      insert.executeUpdate();
    }
  }

  private String operationKey(ResourceId resource, OperationId operation) {
    return name
        + "/operation/"
        + RecordNames.segment(resource)
        + "/"
        + RecordNames.operationDigest(operation);
  }

  private String versionKey(ResourceId resource, long version) {
    return name + "/version/" + RecordNames.segment(resource) + "/" + version;
  }

  private StrictJson.Where where(String shown) {
    return new StrictJson.Where("row", shown + " in " + db.file(), "restore it from a backup");
  }
}
