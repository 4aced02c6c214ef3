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

import dev.fenceline.spi.AlreadyApplied;
import dev.fenceline.spi.Applied;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.Lease;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Pointer;
import dev.fenceline.spi.Registered;
import dev.fenceline.spi.RejectedStale;
import dev.fenceline.spi.ResourceId;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pins the round trips of Fenceline's steps (issues 10 and 24), so a change that adds one fails
 * here, not in a benchmark. On PostgreSQL a pointer publish, a register, an acquire, a release and
 * a renewal are one statement each (plain statements for the publish and the lease steps, a
 * server-side function for the register), a retried publish two (the plain statement leaves a
 * recorded operation to the function, which reads its record), and a fenced write is the change's
 * statements plus two: the control-row step, and the operation record sent together with the
 * COMMIT. SQLite runs in the process (its statements are calls, not round trips) and has no
 * server-side functions: its counts are pinned too, so they do not grow unnoticed. A SQLite
 * connection's durability settings are checked once, when the store first gets it (here at open:
 * the pool has one connection; the busy timeout is set by a driver call, not a statement); a SQLite
 * lease step runs its one statement between {@code BEGIN IMMEDIATE} and {@code COMMIT}, so a
 * failing commit is told apart from a failing statement, after one read of the schema version (a
 * newer schema is refused).
 */
class RoundTripCountTest {

  private static final Duration TTL = Duration.ofMinutes(1);

  @TempDir Path directory;

  private SingleConnectionPool pool;

  @AfterEach
  void closePool() throws SQLException {
    if (pool != null) {
      pool.close();
    }
  }

  private record Counted(JdbcStore store, CountingDataSource counter, boolean postgres) {
    <T> T counting(Supplier<T> step, int onPostgres, int onSqlite, String what) {
      counter.reset();
      T result = step.get();
      assertThat(counter.roundTrips())
          .as("round trips of %s; counted: %s", what, counter.calls())
          .isEqualTo(postgres ? onPostgres : onSqlite);
      return result;
    }
  }

  private Counted postgres() throws SQLException {
    return open(PostgresDatabase.shared().url(), true);
  }

  /**
   * A pool whose sessions have the store's lock and statement timeouts (pgjdbc's {@code options}),
   * as the store's own pools and URL connections get them.
   */
  private Counted postgresWithTheStoresTimeouts() throws SQLException {
    String options =
        JdbcUrl.sessionOptions(JdbcStore.DEFAULT_LOCK_TIMEOUT, JdbcStore.DEFAULT_STATEMENT_TIMEOUT);
    return open(
        PostgresDatabase.shared().url()
            + "&options="
            + java.net.URLEncoder.encode(options, java.nio.charset.StandardCharsets.UTF_8),
        true);
  }

  private Counted sqlite() throws SQLException {
    Path file = directory.resolve("fenceline.db");
    JdbcStore.sqlite(file).close();
    return open("jdbc:sqlite:" + file, false);
  }

  private Counted open(String url, boolean postgres) throws SQLException {
    pool = new SingleConnectionPool(url);
    CountingDataSource counter = new CountingDataSource(pool);
    JdbcStore store = JdbcStore.builder().dataSource(counter.dataSource(), "counted").build();
    return new Counted(store, counter, postgres);
  }

  private static ResourceId fresh(String name) {
    return ResourceId.of("round-trips/" + name + "-" + System.nanoTime());
  }

  @Test
  void leaseStepsOnPostgres() throws SQLException {
    leaseSteps(postgres());
  }

  @Test
  void leaseStepsOnSqlite() throws SQLException {
    leaseSteps(sqlite());
  }

  private static void leaseSteps(Counted db) {
    JdbcLeaseIssuer issuer = db.store().leaseIssuer();
    ResourceId resource = fresh("lease");
    Lease first =
        db.counting(
                () -> issuer.tryAcquire(resource, "worker-a", TTL), 1, 4, "acquire (new resource)")
            .orElseThrow();
    assertThat(
            db.counting(() -> issuer.tryAcquire(resource, "worker-b", TTL), 1, 4, "acquire (held)"))
        .isEmpty();
    Lease renewed = db.counting(() -> issuer.renew(first), 1, 4, "renew");
    assertThat(renewed.token()).isEqualTo(first.token());
    assertThat(db.counting(() -> issuer.release(first), 1, 4, "release")).isTrue();
    Lease second =
        db.counting(() -> issuer.tryAcquire(resource, "worker-b", TTL), 1, 4, "acquire (released)")
            .orElseThrow();
    assertThat(second.epoch()).isEqualTo(Epoch.of(2));
  }

  /**
   * A pool whose sessions have the store's lock and statement timeouts (pgjdbc's {@code options},
   * as the store's own pools and URL connections get them): the one-statement steps are sent as the
   * bare statement on an auto-commit connection, no {@code SET LOCAL} and no {@code COMMIT} around
   * them.
   */
  @Test
  void onPostgresTheStepsCarryNoSettingsWhenThePoolsSessionsHaveTheStoresTimeouts()
      throws SQLException {
    Counted db = postgresWithTheStoresTimeouts();
    ResourceId resource = fresh("bare");
    FencingToken token = new FencingToken(db.store().id(), resource, Epoch.of(1), "worker-a");
    JdbcPointerStore pointers = db.store().pointerStore("reports");
    pointers.register(token);
    JdbcLeaseIssuer issuer = db.store().leaseIssuer();

    db.counter().reset();
    assertThat(pointers.write(token, OperationId.of("v1"), Pointer.to("v1")))
        .isInstanceOf(Applied.class);
    Lease lease = issuer.tryAcquire(fresh("bare-lease"), "worker-a", TTL).orElseThrow();
    issuer.renew(lease);
    assertThat(issuer.release(lease)).isTrue();

    assertThat(db.counter().calls())
        .hasSize(4)
        .allSatisfy(
            call ->
                assertThat(call)
                    .doesNotContain("SET LOCAL")
                    .doesNotContain("COMMIT")
                    .doesNotContain("BEGIN"));
  }

  /**
   * The one-statement steps are server-prepared: pgjdbc keeps each statement text per connection
   * and, from its fifth run on (its {@code prepareThreshold}), sends it as a named statement that
   * PostgreSQL parses and plans once; {@code pg_prepared_statements} lists the session's.
   */
  @Test
  void onPostgresTheOneStatementStepsAreServerPrepared() throws SQLException {
    Counted db = postgresWithTheStoresTimeouts();
    ResourceId resource = fresh("prepared");
    FencingToken token = new FencingToken(db.store().id(), resource, Epoch.of(1), "worker-a");
    JdbcPointerStore pointers = db.store().pointerStore("reports");
    JdbcLeaseIssuer issuer = db.store().leaseIssuer();
    for (int i = 0; i < 6; i++) {
      assertThat(pointers.write(token, OperationId.of("v" + i), Pointer.to("v" + i)))
          .isInstanceOf(Applied.class);
      Lease lease = issuer.tryAcquire(fresh("prepared-lease"), "worker-a", TTL).orElseThrow();
      issuer.renew(lease);
      assertThat(issuer.release(lease)).isTrue();
    }

    java.util.List<String> prepared = new java.util.ArrayList<>();
    try (java.sql.Connection connection = pool.getConnection();
        java.sql.Statement statement = connection.createStatement();
        java.sql.ResultSet rows =
            statement.executeQuery(
                "SELECT statement FROM pg_prepared_statements WHERE NOT from_sql")) {
      while (rows.next()) {
        prepared.add(rows.getString(1));
      }
    }
    assertThat(prepared)
        .as("server-prepared statements of the session")
        .anySatisfy(sql -> assertThat(sql).contains("INSERT INTO fenceline_pointer"))
        .anySatisfy(sql -> assertThat(sql).contains("INSERT INTO fenceline_lease"))
        .anySatisfy(sql -> assertThat(sql).contains("UPDATE fenceline_lease SET expires_at_ms"))
        .anySatisfy(sql -> assertThat(sql).contains("UPDATE fenceline_lease SET holder = NULL"));
  }

  @Test
  void pointerStepsOnPostgres() throws SQLException {
    pointerSteps(postgres());
  }

  @Test
  void pointerStepsOnSqlite() throws SQLException {
    pointerSteps(sqlite());
  }

  private static void pointerSteps(Counted db) {
    JdbcPointerStore pointers = db.store().pointerStore("reports");
    ResourceId resource = fresh("pointer");
    FencingToken token = new FencingToken(db.store().id(), resource, Epoch.of(5), "worker-a");
    assertThat(db.counting(() -> pointers.register(token), 1, 4, "register (new resource)"))
        .isEqualTo(new Registered(resource, Epoch.of(5), Epoch.NONE));
    assertThat(db.counting(() -> pointers.register(token), 1, 3, "register (same epoch)"))
        .isEqualTo(new Registered(resource, Epoch.of(5), Epoch.of(5)));
    var applied =
        db.counting(
            () -> pointers.write(token, OperationId.of("v1"), Pointer.to("v1")),
            1,
            4,
            "pointer publish");
    assertThat(applied).isInstanceOf(Applied.class);
    assertThat(
            db.counting(
                () -> pointers.write(token, OperationId.of("v1"), Pointer.to("v1")),
                2,
                3,
                "pointer publish (retry)"))
        .isEqualTo(new AlreadyApplied(((Applied) applied).receipt()));
    FencingToken newer = new FencingToken(db.store().id(), resource, Epoch.of(6), "worker-b");
    assertThat(
            db.counting(
                () -> pointers.write(newer, OperationId.of("v2"), Pointer.to("v2")),
                1,
                5,
                "pointer publish (newer epoch)"))
        .isInstanceOf(Applied.class);
    assertThat(
            db.counting(
                () -> pointers.write(token, OperationId.of("v3"), Pointer.to("v3")),
                1,
                3,
                "pointer publish (stale)"))
        .isEqualTo(new RejectedStale(resource, Epoch.of(5), Epoch.of(6)));
    assertThat(db.counting(() -> pointers.current(resource), 1, 1, "current")).isPresent();
    assertThat(db.counting(() -> pointers.lookup(resource, OperationId.of("v1")), 1, 1, "lookup"))
        .isPresent();
  }

  @Test
  void fencedWriteOnPostgres() throws SQLException {
    fencedWrite(postgres());
  }

  @Test
  void fencedWriteOnSqlite() throws SQLException {
    fencedWrite(sqlite());
  }

  private static void fencedWrite(Counted db) {
    db.store()
        .transactions()
        .inTransaction(
            "create the ledger table",
            connection -> {
              try (var statement = connection.createStatement()) {
                statement.execute(
                    "CREATE TABLE IF NOT EXISTS ledger (entry VARCHAR(200) PRIMARY KEY, n INTEGER)");
              }
              return null;
            });
    JdbcDestination ledger = db.store().destination("ledger");
    ResourceId resource = fresh("write");
    FencingToken token = new FencingToken(db.store().id(), resource, Epoch.of(1), "worker-a");
    JdbcChange oneStatement =
        (connection, writing, operation) -> {
          try (PreparedStatement insert =
              connection.prepareStatement("INSERT INTO ledger (entry, n) VALUES (?, 1)")) {
            insert.setString(1, writing.resource().value() + "/" + operation.value());
            insert.executeUpdate();
          }
          return Map.of();
        };
    assertThat(
            db.counting(
                () -> ledger.write(token, OperationId.of("entry-1"), oneStatement),
                3,
                6,
                "fenced write with a one-statement change (new resource)"))
        .isInstanceOf(Applied.class);
    assertThat(
            db.counting(
                () -> ledger.write(token, OperationId.of("entry-2"), oneStatement),
                3,
                5,
                "fenced write with a one-statement change"))
        .isInstanceOf(Applied.class);
    assertThat(
            db.counting(
                () -> ledger.write(token, OperationId.of("entry-2"), oneStatement),
                2,
                3,
                "fenced write (retry)"))
        .isInstanceOf(AlreadyApplied.class);
  }
}
