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

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fenceline.spi.Applied;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StoreException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A change cannot break the atomic step, and a failing change leaves nothing behind. */
class JdbcChangeGuardTest {

  private static final ResourceId LEDGER = ResourceId.of("ledger/acct-42");
  private static final FencingToken TOKEN =
      new FencingToken("test-issuer", LEDGER, Epoch.of(7), "worker-a");

  @TempDir Path directory;
  private JdbcStore store;
  private JdbcDestination destination;

  @BeforeEach
  void open() {
    store = JdbcStore.sqlite(directory.resolve("fenceline.db"));
    destination = store.destination("ledger");
  }

  @AfterEach
  void close() {
    store.close();
  }

  @Test
  void aChangeCannotCommitOnItsOwn() {
    assertThatThrownBy(
            () ->
                destination.write(
                    TOKEN,
                    OperationId.of("op"),
                    (connection, token, operation) -> {
                      connection.commit();
                      return Map.of();
                    }))
        .isInstanceOf(StoreException.class)
        .hasMessageContaining("Cannot call Connection.commit() inside a fenced change")
        .satisfies(e -> assertThat(((StoreException) e).outcomeUnknown()).isFalse());

    assertNothingRecorded();
  }

  @Test
  void aChangeThatFailsRollsBackTheRegistrationToo() {
    assertThatThrownBy(
            () ->
                destination.write(
                    TOKEN,
                    OperationId.of("op"),
                    (connection, token, operation) -> {
                      try (Statement statement = connection.createStatement()) {
                        statement.execute("CREATE TABLE half_done (x INTEGER)");
                        statement.execute("INSERT INTO no_such_table VALUES (1)");
                      }
                      return Map.of();
                    }))
        .isInstanceOf(StoreException.class)
        .hasMessageContaining("no_such_table")
        .hasMessageContaining("nothing was committed")
        .hasCauseInstanceOf(SQLException.class);

    assertNothingRecorded();
    assertThat(
            destination.write(
                TOKEN,
                OperationId.of("op"),
                (connection, token, operation) -> {
                  try (Statement statement = connection.createStatement()) {
                    statement.execute("CREATE TABLE half_done (x INTEGER)");
                  }
                  return Map.of("created", "half_done");
                }))
        .as("the aborted step left no table behind, so the retry can create it")
        .isInstanceOf(Applied.class);
  }

  @Test
  void invalidReceiptAttributesAbortTheStep() {
    assertThatThrownBy(
            () ->
                destination.write(
                    TOKEN,
                    OperationId.of("op"),
                    (connection, token, operation) -> Map.of("Not Valid", "x")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("\"Not Valid\"");

    assertNothingRecorded();
  }

  @Test
  void receiptAttributesSurviveStorageWithAnyCharacters() {
    Map<String, String> attributes =
        Map.of("a", "x&y=z%20", "b.c", "line\nbreak", "d-e", "", "unicode", "現在の結果");
    Applied applied =
        (Applied)
            destination.write(
                TOKEN, OperationId.of("op"), (connection, token, operation) -> attributes);

    assertThat(applied.receipt().attributes()).isEqualTo(attributes);
    assertThat(destination.lookup(LEDGER, OperationId.of("op"))).contains(applied.receipt());
  }

  private void assertNothingRecorded() {
    assertThat(destination.lookup(LEDGER, OperationId.of("op"))).isEmpty();
    assertThat(destination.currentEpoch(LEDGER)).isEqualTo(Epoch.NONE);
  }
}
