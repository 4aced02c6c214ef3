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

import dev.fenceline.spi.AlreadyApplied;
import dev.fenceline.spi.Applied;
import dev.fenceline.spi.ConfigurationException;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.IntentRecorded;
import dev.fenceline.spi.IntentStore;
import dev.fenceline.spi.OperationConflictException;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Pointer;
import dev.fenceline.spi.PointerState;
import dev.fenceline.spi.RejectedStale;
import dev.fenceline.spi.RequestFingerprint;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.UntrustedTokenException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A database written by an older schema is migrated to the current version when a store opens it,
 * on SQLite and PostgreSQL: version 1 (operation records shared by every destination of the store)
 * through version 2, version 2 (before intents) by adding the intent table, version 3 (before
 * retention) by adding the receipt watermark table, and version 4 (receipts of pointer publishes in
 * rows of their own) by moving them into the pointer versions' rows. Nothing applied before is lost
 * or applied again. A database of a newer version is refused.
 */
class SchemaMigrationTest {

  /** The DDL of schema version 1, as released. */
  private static final List<String> VERSION_1 =
      List.of(
          "CREATE TABLE fenceline_schema (version INTEGER NOT NULL)",
          "CREATE TABLE fenceline_lease (resource VARCHAR(200) PRIMARY KEY, epoch BIGINT NOT NULL,"
              + " holder VARCHAR(200), expires_at_ms BIGINT NOT NULL)",
          "CREATE TABLE fenceline_resource (resource VARCHAR(200) PRIMARY KEY,"
              + " epoch BIGINT NOT NULL)",
          "CREATE TABLE fenceline_operation (resource VARCHAR(200) NOT NULL,"
              + " operation VARCHAR(200) NOT NULL, epoch BIGINT NOT NULL,"
              + " recorded_at_ms BIGINT NOT NULL, attributes TEXT NOT NULL,"
              + " PRIMARY KEY (resource, operation))",
          "CREATE TABLE fenceline_pointer (resource VARCHAR(200) NOT NULL,"
              + " version BIGINT NOT NULL, target TEXT NOT NULL, attributes TEXT NOT NULL,"
              + " epoch BIGINT NOT NULL, operation VARCHAR(200) NOT NULL,"
              + " PRIMARY KEY (resource, version))",
          "INSERT INTO fenceline_schema (version) VALUES (1)",
          "INSERT INTO fenceline_lease VALUES ('ledger', 7, NULL, 0)",
          "INSERT INTO fenceline_lease VALUES ('report', 4, NULL, 0)",
          "INSERT INTO fenceline_resource VALUES ('ledger', 7)",
          "INSERT INTO fenceline_resource VALUES ('report', 4)",
          // A JdbcDestination write and a pointer-store write, both under operation "day-1".
          "INSERT INTO fenceline_operation VALUES ('ledger', 'day-1', 7, 1000, 'rows=1')",
          "INSERT INTO fenceline_operation VALUES ('report', 'day-1', 3, 2000, 'target=v1')",
          "INSERT INTO fenceline_operation VALUES ('report', 'day-2', 4, 3000, 'target=v2')",
          "INSERT INTO fenceline_pointer VALUES ('report', 1, 'v1', '', 3, 'day-1')",
          "INSERT INTO fenceline_pointer VALUES ('report', 2, 'v2', '', 4, 'day-2')");

  private static final String V2_FINGERPRINT = "sha256:" + "ab".repeat(32);

  /** The DDL of schema version 2, as released, and data written by it. */
  private static final List<String> VERSION_2 =
      List.of(
          "CREATE TABLE fenceline_schema (version INTEGER NOT NULL)",
          "CREATE TABLE fenceline_issuer (id VARCHAR(100) NOT NULL)",
          "CREATE TABLE fenceline_lease (resource VARCHAR(200) PRIMARY KEY, epoch BIGINT NOT NULL,"
              + " holder VARCHAR(200), expires_at_ms BIGINT NOT NULL)",
          "CREATE TABLE fenceline_resource (resource VARCHAR(200) PRIMARY KEY,"
              + " epoch BIGINT NOT NULL, issuer VARCHAR(100))",
          "CREATE TABLE fenceline_operation (destination VARCHAR(64) NOT NULL,"
              + " resource VARCHAR(200) NOT NULL, operation VARCHAR(200) NOT NULL,"
              + " epoch BIGINT NOT NULL, recorded_at_ms BIGINT NOT NULL, attributes TEXT NOT NULL,"
              + " fingerprint VARCHAR(80), PRIMARY KEY (destination, resource, operation))",
          "CREATE TABLE fenceline_pointer (destination VARCHAR(64) NOT NULL,"
              + " resource VARCHAR(200) NOT NULL, version BIGINT NOT NULL, target TEXT NOT NULL,"
              + " attributes TEXT NOT NULL, epoch BIGINT NOT NULL, operation VARCHAR(200) NOT NULL,"
              + " PRIMARY KEY (destination, resource, version))",
          "INSERT INTO fenceline_schema (version) VALUES (2)",
          "INSERT INTO fenceline_issuer VALUES ('jdbc-v2-issuer')",
          "INSERT INTO fenceline_lease VALUES ('ledger', 7, NULL, 0)",
          "INSERT INTO fenceline_lease VALUES ('report', 4, NULL, 0)",
          "INSERT INTO fenceline_resource VALUES ('ledger', 7, 'jdbc-v2-issuer')",
          "INSERT INTO fenceline_resource VALUES ('report', 4, 'jdbc-v2-issuer')",
          "INSERT INTO fenceline_operation VALUES ('ledgers', 'ledger', 'day-1', 7, 1000,"
              + " 'rows=1', '"
              + V2_FINGERPRINT
              + "')",
          "INSERT INTO fenceline_operation VALUES ('reports', 'report', 'day-1', 4, 2000,"
              + " 'target=v1', NULL)",
          "INSERT INTO fenceline_pointer VALUES ('reports', 'report', 1, 'v1', '', 4, 'day-1')");

  /**
   * The DDL of schema version 3, as released (version 2 plus the intent table), with version 2's
   * data (receipts recorded in 1970) and an intent.
   */
  private static final List<String> VERSION_3 =
      java.util.stream.Stream.concat(
              VERSION_2.stream().map(sql -> sql.replace("VALUES (2)", "VALUES (3)")),
              java.util.stream.Stream.of(
                  "CREATE TABLE fenceline_intent (destination VARCHAR(64) NOT NULL,"
                      + " resource VARCHAR(200) NOT NULL, operation VARCHAR(200) NOT NULL,"
                      + " fingerprint VARCHAR(80) NOT NULL, epoch BIGINT NOT NULL,"
                      + " attempts INTEGER NOT NULL, recorded_at_ms BIGINT NOT NULL,"
                      + " receipt_epoch BIGINT, receipt_recorded_at_ms BIGINT,"
                      + " receipt_attributes TEXT,"
                      + " PRIMARY KEY (destination, resource, operation))",
                  "INSERT INTO fenceline_intent VALUES ('payments', 'ledger', 'pay-1', '"
                      + V2_FINGERPRINT
                      + "', 7, 1, 1500, NULL, NULL, NULL)"))
          .toList();

  private static final ResourceId LEDGER = ResourceId.of("ledger");
  private static final ResourceId REPORT = ResourceId.of("report");

  @Test
  void sqliteVersion1IsMigrated(@TempDir Path directory) throws SQLException {
    migratesWithoutLosingAnything(new SqliteDatabase(directory));
  }

  @Test
  void postgresVersion1IsMigrated() throws SQLException {
    migratesWithoutLosingAnything(
        PostgresDatabase.shared().newDatabase("migration_" + Long.toHexString(System.nanoTime())));
  }

  private static void migratesWithoutLosingAnything(TestDatabase database) throws SQLException {
    try (Connection connection = database.connect();
        Statement statement = connection.createStatement()) {
      for (String sql : VERSION_1) {
        statement.execute(sql);
      }
    }

    try (JdbcStore store = database.openStore()) {
      assertThat(schemaVersion(database)).isEqualTo(Schema.VERSION);
      JdbcDestination ledger = store.destination(JdbcStore.SCHEMA_1_DESTINATION);
      JdbcPointerStore reports = store.pointerStore(JdbcStore.SCHEMA_1_POINTER_STORE);

      assertThat(ledger.lookup(LEDGER, OperationId.of("day-1")))
          .hasValueSatisfying(
              receipt -> {
                assertThat(receipt.destination()).isEqualTo("default");
                assertThat(receipt.epoch()).isEqualTo(Epoch.of(7));
                assertThat(receipt.attributes()).isEqualTo(Map.of("rows", "1"));
              });
      assertThat(reports.lookup(REPORT, OperationId.of("day-1")))
          .hasValueSatisfying(receipt -> assertThat(receipt.epoch()).isEqualTo(Epoch.of(3)));
      assertThat(ledger.lookup(REPORT, OperationId.of("day-1")))
          .as("a pointer-store operation moved to the pointer store's scope")
          .isEmpty();
      assertThat(reports.history(REPORT, 10))
          .extracting(PointerState::version, state -> state.pointer().target())
          .containsExactly(
              org.assertj.core.groups.Tuple.tuple(2L, "v2"),
              org.assertj.core.groups.Tuple.tuple(1L, "v1"));
      assertThat(ledger.currentEpoch(LEDGER)).isEqualTo(Epoch.of(7));

      // A retry of an operation applied before the upgrade is still a retry.
      FencingToken ledgerToken = new FencingToken(store.id(), LEDGER, Epoch.of(7), "worker");
      assertThat(
              ledger.write(
                  ledgerToken, OperationId.of("day-1"), (c, t, o) -> Map.of("rows", "again")))
          .isInstanceOf(AlreadyApplied.class);
      assertThat(
              reports.write(
                  new FencingToken(store.id(), REPORT, Epoch.of(3), "old"),
                  OperationId.of("day-3"),
                  Pointer.to("v3")))
          .isEqualTo(new RejectedStale(REPORT, Epoch.of(3), Epoch.of(4)));
      assertThat(
              reports.write(
                  new FencingToken(store.id(), REPORT, Epoch.of(5), "new"),
                  OperationId.of("day-3"),
                  Pointer.to("v3")))
          .isInstanceOf(Applied.class);
      assertThat(reports.current(REPORT).orElseThrow().version()).isEqualTo(3);

      // The issuer continues the old epochs, and the first registration binds the issuer.
      assertThat(store.leaseIssuer().tryAcquire(LEDGER, "worker", java.time.Duration.ofMinutes(1)))
          .hasValueSatisfying(lease -> assertThat(lease.epoch()).isEqualTo(Epoch.of(8)));
      assertThatThrownBy(
              () -> ledger.register(new FencingToken("another-issuer", LEDGER, Epoch.of(9), "x")))
          .isInstanceOf(UntrustedTokenException.class);
    }
    try (JdbcStore reopened = database.openStore()) {
      assertThat(schemaVersion(database))
          .as("opening again changes nothing")
          .isEqualTo(Schema.VERSION);
      assertThat(reopened.pointerStore("pointers").current(REPORT).orElseThrow().version())
          .isEqualTo(3);
    }
  }

  @Test
  void sqliteVersion2IsMigrated(@TempDir Path directory) throws SQLException {
    migratesVersion2InPlace(new SqliteDatabase(directory));
  }

  @Test
  void postgresVersion2IsMigrated() throws SQLException {
    migratesVersion2InPlace(
        PostgresDatabase.shared().newDatabase("migration_" + Long.toHexString(System.nanoTime())));
  }

  /**
   * A version 4 database whose functions were created by another build (an earlier body of {@code
   * fenceline_begin}, here one that lets a stale epoch through) gets this build's functions when a
   * store opens it: a fix to a function body must reach databases that are already at version 4.
   */
  @Test
  void postgresFunctionsOfAnotherBuildAreReplaced() throws SQLException {
    TestDatabase database =
        PostgresDatabase.shared().newDatabase("old_body_" + Long.toHexString(System.nanoTime()));
    database.openStore().close();
    String begin = Schema.POSTGRES_FUNCTIONS.get(0);
    String staleCheck = "IF p_epoch < o_epoch THEN";
    assertThat(begin).contains(staleCheck);
    try (Connection connection = database.connect();
        Statement statement = connection.createStatement()) {
      statement.execute(begin.replace(staleCheck, "IF false THEN"));
    }

    try (JdbcStore store = database.openStore()) {
      JdbcDestination ledger = store.destination("ledgers");
      FencingToken newer = new FencingToken(store.id(), LEDGER, Epoch.of(5), "worker");
      FencingToken older = new FencingToken(store.id(), LEDGER, Epoch.of(4), "worker");
      ledger.register(newer);
      assertThat(ledger.write(older, OperationId.of("late"), (c, t, o) -> Map.of()))
          .isInstanceOf(RejectedStale.class);
    }
  }

  @Test
  void postgresFunctionsOfThisBuildAreLeftAsTheyAre() throws SQLException {
    TestDatabase database =
        PostgresDatabase.shared().newDatabase("same_body_" + Long.toHexString(System.nanoTime()));
    database.openStore().close();
    String versions =
        "SELECT string_agg(proname || ':' || xmin, ',' ORDER BY proname) FROM pg_proc"
            + " WHERE proname LIKE 'fenceline\\_%'";
    String before = queryString(database, versions);

    database.openStore().close();

    assertThat(queryString(database, versions))
        .as("the bodies read back from pg_proc equal this build's, so nothing is replaced")
        .isEqualTo(before);
  }

  private static String queryString(TestDatabase database, String sql) throws SQLException {
    try (Connection connection = database.connect();
        Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery(sql)) {
      rows.next();
      return rows.getString(1);
    }
  }

  @Test
  void postgresTablesCreatedByHandWithoutTheFunctionsGetThem() throws SQLException {
    TestDatabase database =
        PostgresDatabase.shared().newDatabase("by_hand_" + Long.toHexString(System.nanoTime()));
    try (Connection connection = database.connect();
        Statement statement = connection.createStatement()) {
      // What a DBA who read only the tables' DDL would run.
      for (String ddl : Schema.TABLES) {
        statement.execute(ddl);
      }
      statement.execute("INSERT INTO fenceline_schema (version) VALUES (" + Schema.VERSION + ")");
      statement.execute("INSERT INTO fenceline_issuer (id) VALUES ('jdbc-by-hand')");
    }

    try (JdbcStore store = database.openStore()) {
      FencingToken token = new FencingToken(store.id(), REPORT, Epoch.of(1), "worker");
      assertThat(store.pointerStore("reports").write(token, OperationId.of("v1"), Pointer.to("v1")))
          .isInstanceOf(Applied.class);
      assertThat(store.leaseIssuer().tryAcquire(LEDGER, "worker", java.time.Duration.ofMinutes(1)))
          .isPresent();
    }
    try (Connection connection = database.connect();
        Statement statement = connection.createStatement();
        ResultSet rows =
            statement.executeQuery(
                "SELECT COUNT(*) FROM pg_proc WHERE proname LIKE 'fenceline\\_%'")) {
      rows.next();
      assertThat(rows.getInt(1)).isEqualTo(Schema.POSTGRES_FUNCTIONS.size());
    }
  }

  @Test
  void sqliteVersion3IsMigrated(@TempDir Path directory) throws SQLException {
    migratesVersion3InPlace(new SqliteDatabase(directory));
  }

  @Test
  void postgresVersion3IsMigrated() throws SQLException {
    migratesVersion3InPlace(
        PostgresDatabase.shared().newDatabase("migration_" + Long.toHexString(System.nanoTime())));
  }

  private static void migratesVersion3InPlace(TestDatabase database) throws SQLException {
    try (Connection connection = database.connect();
        Statement statement = connection.createStatement()) {
      for (String sql : VERSION_3) {
        statement.execute(sql);
      }
    }

    try (JdbcStore store = database.openStore()) {
      assertThat(schemaVersion(database)).isEqualTo(Schema.VERSION).isEqualTo(5);
      assertThat(store.id()).isEqualTo("jdbc-v2-issuer");
      JdbcDestination ledgers = store.destination("ledgers");
      JdbcPointerStore reports = store.pointerStore("reports");
      assertThat(ledgers.lookup(LEDGER, OperationId.of("day-1")))
          .hasValueSatisfying(receipt -> assertThat(receipt.epoch()).isEqualTo(Epoch.of(7)));
      assertThat(reports.lookup(REPORT, OperationId.of("day-1"))).isPresent();
      assertThat(reports.current(REPORT).orElseThrow().pointer().target()).isEqualTo("v1");
      assertThat(store.intentStore("payments").lookup(LEDGER, OperationId.of("pay-1")))
          .hasValueSatisfying(intent -> assertThat(intent.attempts()).isEqualTo(1));
      assertThat(ledgers.currentEpoch(LEDGER)).isEqualTo(Epoch.of(7));

      // The new table works: the 1970 receipt is pruned, and its lookup says so; the receipt of
      // the current pointer stays.
      PruneReport pruned = store.prune(new Retention(java.time.Duration.ofDays(1), 1));
      assertThat(pruned.receiptsDeleted()).isEqualTo(1);
      assertThatThrownBy(() -> ledgers.lookup(LEDGER, OperationId.of("day-1")))
          .isInstanceOf(dev.fenceline.spi.ReceiptPrunedException.class);
      assertThat(reports.lookup(REPORT, OperationId.of("day-1"))).isPresent();
      assertThat(reports.current(REPORT).orElseThrow().pointer().target())
          .as("the current pointer is kept")
          .isEqualTo("v1");
    }
    try (JdbcStore reopened = database.openStore()) {
      assertThat(schemaVersion(database))
          .as("opening again changes nothing")
          .isEqualTo(Schema.VERSION);
      assertThatThrownBy(
              () -> reopened.destination("ledgers").lookup(LEDGER, OperationId.of("day-1")))
          .as("the watermark survives reopening")
          .isInstanceOf(dev.fenceline.spi.ReceiptPrunedException.class);
    }
  }

  /** The issuer identity of {@code schema-v4.sql}. */
  private static final String V4_ISSUER = "jdbc-75ff8c2a-670e-434d-8352-442b3b24cfc1";

  @Test
  void sqliteVersion4WrittenByThePreviousBuildIsMigrated(@TempDir Path directory) throws Exception {
    migratesVersion4InPlace(new SqliteDatabase(directory));
  }

  @Test
  void postgresVersion4WrittenByThePreviousBuildIsMigrated() throws Exception {
    migratesVersion4InPlace(
        PostgresDatabase.shared().newDatabase("migration_" + Long.toHexString(System.nanoTime())));
  }

  /**
   * {@code schema-v4.sql}: a database written through the API by the last build of schema 4 (see
   * its header). The receipts of kept pointer versions move into the versions' rows; day-1's, whose
   * version history pruning had deleted, stays in {@code fenceline_operation}; every receipt still
   * answers lookups and retries, and the moved ones guard their operation IDs.
   */
  private static void migratesVersion4InPlace(TestDatabase database) throws Exception {
    String dump;
    try (var in = SchemaMigrationTest.class.getResourceAsStream("schema-v4.sql")) {
      dump = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    }
    try (Connection connection = database.connect();
        Statement statement = connection.createStatement()) {
      for (String sql : dump.replaceAll("(?m)^--.*\n", "").split(";\n")) {
        if (!sql.isBlank()) {
          statement.execute(sql);
        }
      }
    }
    RequestFingerprint day3 = RequestFingerprint.sha256("day-3");

    try (JdbcStore store = database.openStore()) {
      assertThat(schemaVersion(database)).isEqualTo(Schema.VERSION).isEqualTo(5);
      assertThat(store.id()).as("the issuer identity is kept").isEqualTo(V4_ISSUER);
      assertThat(count(database, "fenceline_operation WHERE destination = 'reports'"))
          .as("only the receipt whose version was pruned stays in fenceline_operation")
          .isEqualTo(1);
      assertThat(count(database, "fenceline_pointer WHERE recorded_at_ms IS NOT NULL"))
          .isEqualTo(2);

      JdbcPointerStore reports = store.pointerStore("reports");
      assertThat(reports.history(REPORT, 10))
          .extracting(state -> state.pointer().target(), PointerState::version)
          .containsExactly(
              org.assertj.core.groups.Tuple.tuple("v3", 3L),
              org.assertj.core.groups.Tuple.tuple("v2", 2L));
      for (String[] kept :
          List.of(
              new String[] {"day-1", "3", "sha256=aa&target=v1"},
              new String[] {"day-2", "3", "sha256=bb&target=v2"},
              new String[] {"day-3", "4", "sha256=cc&target=v3"})) {
        assertThat(reports.lookup(REPORT, OperationId.of(kept[0])))
            .as(kept[0])
            .hasValueSatisfying(
                receipt -> {
                  assertThat(receipt.epoch()).isEqualTo(Epoch.of(Long.parseLong(kept[1])));
                  assertThat(ReceiptAttributes.encode(receipt.attributes())).isEqualTo(kept[2]);
                });
      }

      FencingToken epoch4 = new FencingToken(store.id(), REPORT, Epoch.of(4), "worker");
      assertThat(reports.write(epoch4, OperationId.of("day-3"), Pointer.to("v3-again"), day3))
          .as("a retry of a moved receipt is answered from the version's row")
          .isInstanceOf(AlreadyApplied.class);
      assertThatThrownBy(
              () ->
                  reports.write(
                      epoch4,
                      OperationId.of("day-3"),
                      Pointer.to("v3-again"),
                      RequestFingerprint.sha256("another")))
          .as("the moved fingerprint still guards the operation ID")
          .isInstanceOf(OperationConflictException.class);
      assertThat(
              reports.write(
                  epoch4,
                  OperationId.of("day-1"),
                  Pointer.to("v1-again"),
                  RequestFingerprint.sha256("day-1")))
          .as("a retry of a receipt left in fenceline_operation")
          .isInstanceOf(AlreadyApplied.class);
      assertThat(
              reports.write(
                  new FencingToken(store.id(), REPORT, Epoch.of(3), "old"),
                  OperationId.of("day-4"),
                  Pointer.to("v4"),
                  RequestFingerprint.sha256("day-4")))
          .isEqualTo(new RejectedStale(REPORT, Epoch.of(3), Epoch.of(4)));
      assertThat(
              reports.write(
                  epoch4,
                  OperationId.of("day-4"),
                  Pointer.to("v4"),
                  RequestFingerprint.sha256("day-4")))
          .isInstanceOf(Applied.class);
      assertThat(reports.current(REPORT).orElseThrow().version()).isEqualTo(4);
      assertThat(history(reports)).containsExactly("v4", "v3", "v2");

      JdbcDestination ledgers = store.destination("ledgers");
      assertThat(ledgers.lookup(LEDGER, OperationId.of("day-1")))
          .hasValueSatisfying(receipt -> assertThat(receipt.epoch()).isEqualTo(Epoch.of(7)));
      assertThatThrownBy(() -> ledgers.lookup(LEDGER, OperationId.of("old")))
          .as("the watermark of version 4 still answers")
          .isInstanceOf(dev.fenceline.spi.ReceiptPrunedException.class);
      assertThat(store.intentStore("payments").lookup(LEDGER, OperationId.of("pay-1")))
          .hasValueSatisfying(intent -> assertThat(intent.attempts()).isEqualTo(1));
      assertThat(
              store
                  .leaseIssuer()
                  .tryAcquire(ResourceId.of("nightly"), "cron-2", java.time.Duration.ofMinutes(1)))
          .as("the lease of version 4 expired; the next epoch follows its epoch")
          .hasValueSatisfying(lease -> assertThat(lease.token().epoch()).isEqualTo(Epoch.of(2)));

      // History pruning takes versions out of the history; their receipts answer until pruned.
      assertThat(store.prune(new Retention(java.time.Duration.ofDays(36500), 1)))
          .extracting(PruneReport::receiptsDeleted, PruneReport::pointerVersionsDeleted)
          .containsExactly(0L, 2L);
      assertThat(history(reports)).containsExactly("v4");
      assertThat(reports.lookup(REPORT, OperationId.of("day-2"))).isPresent();
      assertThat(reports.write(epoch4, OperationId.of("day-3"), Pointer.to("v3-again"), day3))
          .as("a retired version's receipt still answers a retry")
          .isInstanceOf(AlreadyApplied.class);
      PruneReport pruned = store.prune(new Retention(java.time.Duration.ofMillis(1), 1));
      assertThat(pruned.receiptsDeleted())
          .as(
              "reports: day-1 (fenceline_operation), day-2 and day-3 (version rows), not day-4"
                  + " (current); ledgers: day-1")
          .isEqualTo(4);
      assertThat(pruned.pointerVersionsDeleted()).isZero();
      assertThat(count(database, "fenceline_pointer")).as("the retired rows went").isEqualTo(1);
      for (String gone : List.of("day-1", "day-2", "day-3")) {
        assertThatThrownBy(() -> reports.lookup(REPORT, OperationId.of(gone)))
            .as(gone)
            .isInstanceOf(dev.fenceline.spi.ReceiptPrunedException.class);
      }
      assertThat(reports.lookup(REPORT, OperationId.of("day-4"))).isPresent();
    }
    try (JdbcStore reopened = database.openStore()) {
      assertThat(schemaVersion(database))
          .as("opening again changes nothing")
          .isEqualTo(Schema.VERSION);
      assertThat(reopened.pointerStore("reports").lookup(REPORT, OperationId.of("day-4")))
          .isPresent();
    }
  }

  private static List<String> history(JdbcPointerStore reports) {
    return reports.history(REPORT, 10).stream().map(state -> state.pointer().target()).toList();
  }

  private static long count(TestDatabase database, String from) throws SQLException {
    try (Connection connection = database.connect();
        Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery("SELECT COUNT(*) FROM " + from)) {
      rows.next();
      return rows.getLong(1);
    }
  }

  @Test
  void aDatabaseOfANewerSchemaIsRefusedAndLeftAsItIs(@TempDir Path directory) throws SQLException {
    SqliteDatabase database = new SqliteDatabase(directory);
    try (Connection connection = database.connect();
        Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE fenceline_schema (version INTEGER NOT NULL)");
      statement.execute(
          "INSERT INTO fenceline_schema (version) VALUES (" + (Schema.VERSION + 1) + ")");
    }

    assertThatThrownBy(database::openStore)
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining(
            "its Fenceline schema is version "
                + (Schema.VERSION + 1)
                + ", newer than version "
                + Schema.VERSION)
        .hasMessageContaining("upgrade Fenceline");
    assertThat(schemaVersion(database)).isEqualTo(Schema.VERSION + 1);
  }

  private static void migratesVersion2InPlace(TestDatabase database) throws SQLException {
    try (Connection connection = database.connect();
        Statement statement = connection.createStatement()) {
      for (String sql : VERSION_2) {
        statement.execute(sql);
      }
    }

    try (JdbcStore store = database.openStore()) {
      assertThat(schemaVersion(database)).isEqualTo(Schema.VERSION).isEqualTo(5);
      assertThat(store.id()).as("the issuer identity is kept").isEqualTo("jdbc-v2-issuer");
      JdbcDestination ledgers = store.destination("ledgers");
      JdbcPointerStore reports = store.pointerStore("reports");
      assertThat(ledgers.lookup(LEDGER, OperationId.of("day-1")))
          .hasValueSatisfying(
              receipt -> {
                assertThat(receipt.epoch()).isEqualTo(Epoch.of(7));
                assertThat(receipt.attributes()).isEqualTo(Map.of("rows", "1"));
              });
      assertThat(reports.current(REPORT).orElseThrow().pointer().target()).isEqualTo("v1");
      assertThat(ledgers.currentEpoch(LEDGER)).isEqualTo(Epoch.of(7));
      // The recorded fingerprint still guards the old operation.
      FencingToken ledgerToken = new FencingToken(store.id(), LEDGER, Epoch.of(7), "worker");
      assertThat(
              ledgers.write(
                  ledgerToken,
                  OperationId.of("day-1"),
                  JdbcChange.fingerprinted(
                      new RequestFingerprint(V2_FINGERPRINT), (c, t, o) -> Map.of("rows", "2"))))
          .isInstanceOf(AlreadyApplied.class);
      assertThatThrownBy(
              () ->
                  ledgers.write(
                      ledgerToken,
                      OperationId.of("day-1"),
                      JdbcChange.fingerprinted(
                          RequestFingerprint.sha256("another"), (c, t, o) -> Map.of("rows", "2"))))
          .isInstanceOf(OperationConflictException.class);

      // The new table works on the old control rows: epochs and issuers registered before count.
      IntentStore payments = store.intentStore("payments");
      assertThat(
              payments.begin(
                  new FencingToken(store.id(), LEDGER, Epoch.of(6), "old"),
                  OperationId.of("pay-1"),
                  RequestFingerprint.sha256("x")))
          .isEqualTo(new RejectedStale(LEDGER, Epoch.of(6), Epoch.of(7)));
      assertThatThrownBy(
              () ->
                  payments.begin(
                      new FencingToken("another-issuer", LEDGER, Epoch.of(8), "x"),
                      OperationId.of("pay-1"),
                      RequestFingerprint.sha256("x")))
          .isInstanceOf(UntrustedTokenException.class);
      assertThat(
              payments.begin(
                  new FencingToken(store.id(), LEDGER, Epoch.of(7), "worker"),
                  OperationId.of("pay-1"),
                  RequestFingerprint.sha256("x")))
          .isInstanceOf(IntentRecorded.class);
    }
    try (JdbcStore reopened = database.openStore()) {
      assertThat(schemaVersion(database))
          .as("opening again changes nothing")
          .isEqualTo(Schema.VERSION);
      assertThat(reopened.intentStore("payments").lookup(LEDGER, OperationId.of("pay-1")))
          .hasValueSatisfying(intent -> assertThat(intent.attempts()).isEqualTo(1));
      assertThat(reopened.destination("ledgers").lookup(LEDGER, OperationId.of("day-1")))
          .isPresent();
    }
  }

  private static int schemaVersion(TestDatabase database) throws SQLException {
    try (Connection connection = database.connect();
        Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery("SELECT version FROM fenceline_schema")) {
      rows.next();
      int version = rows.getInt(1);
      assertThat(rows.next()).as("one schema row").isFalse();
      return version;
    }
  }
}
