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

import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Pointer;
import dev.fenceline.spi.PointerState;
import dev.fenceline.spi.PointerStore;
import dev.fenceline.spi.RequestFingerprint;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StepListener;
import dev.fenceline.spi.WriteOutcome;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The publish pointer of each resource in a SQL database, swapped as a fenced write: epoch check,
 * operation-ID check, pointer update and operation record in one transaction. For small results the
 * pointer target can be the published value itself ("publish a named value"); large payloads are
 * staged in a blob store and the pointer names their key. Get one from {@link
 * JdbcStore#pointerStore(String)}: its name scopes both the pointers and the operation records.
 */
public final class JdbcPointerStore extends FencedJdbcDestination<Pointer> implements PointerStore {

  JdbcPointerStore(FencedWrite fencedWrite) {
    super(fencedWrite);
  }

  @Override
  public String storeId() {
    return fencedWrite.identity().id();
  }

  /**
   * Swaps the pointer. On PostgreSQL this is one statement, the server-side function {@code
   * fenceline_publish_pointer_v2} (epoch check, registration, operation-ID check, and the new
   * pointer version, whose row holds the operation's receipt, in the statement's own transaction);
   * with a step listener (tests), the same steps one by one in one transaction. On SQLite, one
   * {@code BEGIN IMMEDIATE} transaction. Either way a publish writes two rows: the resource's
   * control row (if the epoch is newer) and the pointer version.
   */
  @Override
  public WriteOutcome write(
      FencingToken token, OperationId operation, Pointer change, RequestFingerprint fingerprint) {
    requireNonNull(token, "token is null");
    requireNonNull(operation, "operation is null");
    requireNonNull(change, "change is null");
    requireNonNull(fingerprint, "fingerprint is null");
    if (fencedWrite.transactions().dialect() == Dialect.POSTGRESQL
        && fencedWrite.steps() == StepListener.NONE) {
      return fencedWrite.publishPointer(
          token, operation, fingerprint, change, change.receiptAttributes());
    }
    return fencedWrite.writePointer(
        token, operation, fingerprint, change, change.receiptAttributes());
  }

  @Override
  public Optional<PointerState> current(ResourceId resource) {
    return history(resource, 1).stream().findFirst();
  }

  @Override
  public List<PointerState> history(ResourceId resource, int limit) {
    requireNonNull(resource, "resource is null");
    if (limit < 1) {
      throw new IllegalArgumentException(
          "Cannot read the pointer history of " + resource + ": limit " + limit + " is below 1");
    }
    return fencedWrite
        .transactions()
        .read(
            "read the publish pointer of " + resource,
            connection -> {
              try (PreparedStatement select =
                  connection.prepareStatement(
                      "SELECT target, attributes, epoch, operation, version"
                          + " FROM fenceline_pointer WHERE destination = ? AND resource = ?"
                          + " AND retired = 0 ORDER BY version DESC LIMIT ?")) {
                select.setString(1, name());
                select.setString(2, resource.value());
                select.setInt(3, limit);
                List<PointerState> states = new ArrayList<>();
                try (ResultSet rows = select.executeQuery()) {
                  while (rows.next()) {
                    states.add(
                        new PointerState(
                            resource,
                            new Pointer(
                                rows.getString(1), ReceiptAttributes.decode(rows.getString(2))),
                            Epoch.of(rows.getLong(3)),
                            OperationId.of(rows.getString(4)),
                            rows.getLong(5)));
                  }
                }
                return states;
              }
            });
  }
}
