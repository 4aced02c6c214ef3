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
import dev.fenceline.spi.ConfigurationException;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Pointer;
import dev.fenceline.spi.RejectedStale;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StoreException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The server-side functions on PostgreSQL are never downgraded (issue 18, item 8): a build that
 * predates versioned functions, a build of an older version and a build of a newer version each
 * open the same database, and what a store of this build calls keeps this build's checks, or a
 * newer version's.
 */
class PostgresFunctionVersionTest {

  private static final ResourceId LEDGER = ResourceId.of("ledger");

  /** The stale-epoch check of the control-row step, which the planted old bodies disable. */
  private static final String STALE_CHECK = "IF p_epoch < o_epoch THEN";

  private static TestDatabase freshDatabase(String prefix) {
    return PostgresDatabase.shared().newDatabase(prefix + Long.toHexString(System.nanoTime()));
  }

  /**
   * The five {@code CREATE OR REPLACE FUNCTION} statements that the open of a build before
   * versioned functions ran (commit a72dc54 and later, up to this change), generated from that
   * build's {@code Schema.POSTGRES_FUNCTIONS}.
   */
  static List<String> unversionedFunctions() throws IOException {
    try (InputStream in =
        PostgresFunctionVersionTest.class.getResourceAsStream("unversioned-functions.sql")) {
      return List.of(new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n;;;\n"));
    }
  }

  private static void execute(TestDatabase database, List<String> statements) throws SQLException {
    try (Connection connection = database.connect();
        Statement statement = connection.createStatement()) {
      for (String sql : statements) {
        statement.execute(sql);
      }
    }
  }

  /**
   * The reproduction: a store of this build is open and has registered epoch 5; a build before
   * versioned functions opens the database and, as its open does, replaces the functions it calls
   * with its own bodies, here an old {@code fenceline_begin} without the stale check. The store
   * that was already open must still refuse epoch 4.
   */
  @Test
  void anUnversionedBuildsOpenCannotReplaceWhatThisBuildCalls() throws Exception {
    TestDatabase database = freshDatabase("unversioned_");
    try (JdbcStore store = database.openStore()) {
      JdbcDestination ledger = store.destination("ledgers");
      ledger.register(new FencingToken(store.id(), LEDGER, Epoch.of(5), "new-owner"));
      List<String> oldOpen = unversionedFunctions();
      assertThat(oldOpen).hasSize(5);
      assertThat(oldOpen.get(0))
          .startsWith("CREATE OR REPLACE FUNCTION fenceline_begin(")
          .contains(STALE_CHECK);

      execute(
          database,
          oldOpen.stream().map(sql -> sql.replace(STALE_CHECK, "IF false THEN")).toList());

      assertThat(
              ledger.write(
                  new FencingToken(store.id(), LEDGER, Epoch.of(4), "stalled-worker"),
                  OperationId.of("late"),
                  (c, t, o) -> Map.of()))
          .isEqualTo(new RejectedStale(LEDGER, Epoch.of(4), Epoch.of(5)));
    }
  }

  private static final String VERSION_LINE =
      "-- fenceline functions version " + Schema.FUNCTIONS_VERSION + "\n";

  /** This build's function DDL with its version line saying {@code version} instead. */
  private static List<String> functionsOfVersion(int version) {
    return Schema.POSTGRES_FUNCTIONS.stream()
        .peek(ddl -> assertThat(ddl).contains(VERSION_LINE))
        .map(ddl -> ddl.replace(VERSION_LINE, "-- fenceline functions version " + version + "\n"))
        .toList();
  }

  private static String bodies(TestDatabase database) throws SQLException {
    try (Connection connection = database.connect();
        Statement statement = connection.createStatement();
        ResultSet rows =
            statement.executeQuery(
                "SELECT string_agg(proname || ':' || prosrc, '|' ORDER BY proname) FROM pg_proc"
                    + " WHERE proname LIKE 'fenceline\\_%\\_v2'")) {
      rows.next();
      return rows.getString(1);
    }
  }

  /**
   * A database whose functions a newer Fenceline installed: this build must not replace them with
   * its older bodies, so it refuses to open, naming both versions and the fix, and leaves them.
   */
  @Test
  void aDatabaseWithNewerFunctionsIsRefusedAndLeftAsItIs() throws SQLException {
    TestDatabase database = freshDatabase("newer_functions_");
    database.openStore().close();
    int newer = Schema.FUNCTIONS_VERSION + 1;
    execute(database, functionsOfVersion(newer));
    String installed = bodies(database);

    assertThatThrownBy(database::openStore)
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining(
            "its Fenceline functions are version "
                + newer
                + " ("
                + Schema.BEGIN
                + "), newer than version "
                + Schema.FUNCTIONS_VERSION
                + " of this Fenceline")
        .hasMessageContaining(
            "upgrade this process to a Fenceline whose functions are version " + newer);
    assertThat(bodies(database)).as("the newer bodies stay").isEqualTo(installed);
  }

  /** Functions of an older version under this build's names are upgraded when a store opens. */
  @Test
  void olderVersionedFunctionsAreUpgradedOnOpen() throws SQLException {
    TestDatabase database = freshDatabase("older_functions_");
    database.openStore().close();
    // An older version whose control-row step let stale epochs through.
    execute(
        database,
        functionsOfVersion(Schema.FUNCTIONS_VERSION - 1).stream()
            .map(sql -> sql.replace(STALE_CHECK, "IF false THEN"))
            .toList());

    try (JdbcStore store = database.openStore()) {
      assertThat(bodies(database))
          .contains(Schema.BEGIN + ":" + Schema.body(Schema.POSTGRES_FUNCTIONS.get(0)));
      JdbcDestination ledger = store.destination("ledgers");
      ledger.register(new FencingToken(store.id(), LEDGER, Epoch.of(5), "new-owner"));
      assertThat(
              ledger.write(
                  new FencingToken(store.id(), LEDGER, Epoch.of(4), "stalled-worker"),
                  OperationId.of("late"),
                  (c, t, o) -> Map.of()))
          .isEqualTo(new RejectedStale(LEDGER, Epoch.of(4), Epoch.of(5)));
    }
  }

  /** Replaces one of this build's function bodies (same version line) with {@code edit}. */
  private static void replaceBody(TestDatabase database, int index, String from, String to)
      throws SQLException {
    String ddl = Schema.POSTGRES_FUNCTIONS.get(index);
    assertThat(ddl).contains(from);
    execute(database, List.of(ddl.replace(from, to)));
  }

  /**
   * A body that answers a status this build does not know (as a newer body may), in a statement
   * that carried its commit: the step may have changed something, so it is an unknown outcome.
   * Inside an open transaction (a fenced write) the same answer is rolled back: nothing committed.
   */
  @Test
  void anUnknownStatusAfterTheCommitIsAnUnknownOutcome() throws SQLException {
    TestDatabase database = freshDatabase("odd_status_");
    try (JdbcStore store = database.openStore()) {
      replaceBody(
          database,
          0,
          "o_status := CASE WHEN v_found THEN 'replay' ELSE 'proceed' END;",
          "o_status := 'granted';");
      replaceBody(database, 1, "o_status := 'applied';", "o_status := 'published';");
      JdbcDestination ledger = store.destination("ledgers");

      assertThatThrownBy(
              () -> ledger.register(new FencingToken(store.id(), LEDGER, Epoch.of(5), "owner")))
          .isInstanceOfSatisfying(
              StoreException.class,
              failure -> {
                assertThat(failure.outcomeUnknown()).isTrue();
                assertThat(failure)
                    .hasMessageContaining(Schema.BEGIN + " answered the status 'granted'")
                    .hasMessageContaining("may or may not have happened");
              });
      assertThat(ledger.currentEpoch(LEDGER)).as("the registration landed").isEqualTo(Epoch.of(5));

      ResourceId report = ResourceId.of("report");
      FencingToken reportToken = new FencingToken(store.id(), report, Epoch.of(1), "owner");
      assertThatThrownBy(
              () ->
                  store
                      .pointerStore("reports")
                      .write(reportToken, OperationId.of("v1"), Pointer.to("v1")))
          .isInstanceOfSatisfying(
              StoreException.class,
              failure -> {
                assertThat(failure.outcomeUnknown()).isTrue();
                assertThat(failure)
                    .hasMessageContaining(Schema.PUBLISH_POINTER + " answered the status");
              });
      assertThat(store.pointerStore("reports").lookup(report, OperationId.of("v1")))
          .as("the publish landed")
          .isPresent();

      assertThatThrownBy(
              () ->
                  ledger.write(
                      new FencingToken(store.id(), LEDGER, Epoch.of(6), "owner"),
                      OperationId.of("w1"),
                      (c, t, o) -> Map.of()))
          .isInstanceOfSatisfying(
              StoreException.class,
              failure -> {
                assertThat(failure.outcomeUnknown()).isFalse();
                assertThat(failure).hasMessageContaining("nothing was committed");
              });
      assertThat(ledger.currentEpoch(LEDGER))
          .as("the write's transaction was rolled back")
          .isEqualTo(Epoch.of(5));
      assertThat(ledger.lookup(LEDGER, OperationId.of("w1"))).isEmpty();
    }
  }

  /** A body fix that reaches databases through an open store of the fixed build. */
  @Test
  void aStoreOfThisBuildAppliesAsBeforeWithItsOwnFunctions() throws SQLException {
    TestDatabase database = freshDatabase("own_functions_");
    try (JdbcStore store = database.openStore()) {
      FencingToken token = new FencingToken(store.id(), LEDGER, Epoch.of(1), "owner");
      assertThat(store.pointerStore("reports").write(token, OperationId.of("v1"), Pointer.to("v1")))
          .isInstanceOf(Applied.class);
    }
  }

  /**
   * The text of each functions version is fixed: a change to a body must raise {@link
   * Schema#FUNCTIONS_VERSION} (and add its digest here), or two builds with different bodies would
   * claim the same version, and each would replace the other's on open.
   */
  @Test
  void theBodiesOfThisFunctionsVersionArePinned() throws Exception {
    MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
    for (String ddl : Schema.POSTGRES_FUNCTIONS) {
      sha256.update(ddl.getBytes(StandardCharsets.UTF_8));
      sha256.update((byte) 0);
    }
    Map<Integer, String> pinned =
        Map.of(
            2, "d6c3eb4e316d7d0a957e648b226f55af280245ff214b5c6db527c8bfbeff4bef",
            3, "60e835b04bff72f777d686600646e54df26fe21fa0dae8277b9a8232b276ef6b");
    assertThat(HexFormat.of().formatHex(sha256.digest()))
        .as(
            "digest of functions version %d; a changed body needs a new FUNCTIONS_VERSION",
            Schema.FUNCTIONS_VERSION)
        .isEqualTo(pinned.get(Schema.FUNCTIONS_VERSION));
  }
}
