package dev.fenceline.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fenceline.spi.AlreadyApplied;
import dev.fenceline.spi.Applied;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Pointer;
import dev.fenceline.spi.PointerState;
import dev.fenceline.spi.RejectedStale;
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
 * A database written by schema version 1 (operation records shared by every destination of the
 * store) is migrated to version 2 when a store opens it, on SQLite and PostgreSQL: nothing applied
 * before is lost or applied again.
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
      assertThat(schemaVersion(database)).isEqualTo(2);
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
      assertThat(schemaVersion(database)).as("opening again changes nothing").isEqualTo(2);
      assertThat(reopened.pointerStore("pointers").current(REPORT).orElseThrow().version())
          .isEqualTo(3);
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
