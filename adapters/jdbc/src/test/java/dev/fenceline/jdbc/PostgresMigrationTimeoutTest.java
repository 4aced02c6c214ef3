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
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.assertj.core.api.Assertions.fail;

import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StoreException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

/**
 * Creating or migrating the tables when a store opens runs under the migration timeout, not the
 * step timeouts: an open whose migration waits longer than the lock, statement and socket timeouts
 * (here for another process's migration, whose advisory lock a test connection holds; in production
 * a {@code CREATE INDEX} over every receipt) still opens, and the steps after it keep the step
 * timeouts.
 */
class PostgresMigrationTimeoutTest {

  /** The advisory lock key that serializes migrations ({@link Schema#migrate}). */
  private static final long MIGRATION_LOCK = 7438170203L;

  /** How long the migration is held up: longer than every step timeout below. */
  private static final Duration HELD = Duration.ofSeconds(3);

  private static JdbcStore.Builder shortStepTimeouts(TestDatabase database) {
    return database
        .storeBuilder()
        .lockTimeout(Duration.ofMillis(500))
        .statementTimeout(Duration.ofSeconds(1))
        .socketTimeout(Duration.ofSeconds(2));
  }

  @Test
  void aMigrationLongerThanTheStepTimeoutsStillOpensTheStore() throws Exception {
    String name = "migration_wait_" + System.nanoTime();
    TestDatabase database = PostgresDatabase.shared().newDatabase(name);
    try (Connection holder = database.connect()) {
      query(holder, "SELECT pg_advisory_lock(" + MIGRATION_LOCK + ")");
      CompletableFuture<JdbcStore> opening =
          CompletableFuture.supplyAsync(() -> shortStepTimeouts(database).build());
      awaitMigrationWaiting(holder, opening);
      try {
        JdbcStore early = opening.get(HELD.toMillis(), TimeUnit.MILLISECONDS);
        early.close();
        fail("the store opened while another migration held the lock");
      } catch (TimeoutException expected) {
        // Still waiting for the lock after longer than the lock, statement and socket timeouts.
      } catch (ExecutionException e) {
        throw new AssertionError("the open failed while waiting for the migration lock", e);
      }
      query(holder, "SELECT pg_advisory_unlock(" + MIGRATION_LOCK + ")");

      try (JdbcStore store = opening.get(30, TimeUnit.SECONDS)) {
        try (Connection check = database.connect()) {
          assertThat(query(check, "SELECT MAX(version) FROM fenceline_schema"))
              .isEqualTo(String.valueOf(Schema.VERSION));
        }
        // The steps after the open keep the step timeouts: a lock wait ends at 0.5 s.
        ResourceId resource = ResourceId.of("migration-timeout/lease");
        store
            .leaseIssuer()
            .release(
                store.leaseIssuer().tryAcquire(resource, "a", Duration.ofMinutes(1)).orElseThrow());
        holder.setAutoCommit(false);
        query(
            holder,
            "SELECT resource FROM fenceline_lease WHERE resource = '"
                + resource.value()
                + "' FOR UPDATE");
        StoreException failure =
            catchThrowableOfType(
                StoreException.class,
                () -> store.leaseIssuer().tryAcquire(resource, "b", Duration.ofMinutes(1)));
        assertThat(failure).hasMessageContaining("PT0.5S");
        holder.rollback();
      }
    }
  }

  @Test
  void aMigrationEndedByTheMigrationTimeoutNamesIt() throws Exception {
    String name = "migration_timeout_" + System.nanoTime();
    TestDatabase database = PostgresDatabase.shared().newDatabase(name);
    try (Connection holder = database.connect()) {
      query(holder, "SELECT pg_advisory_lock(" + MIGRATION_LOCK + ")");
      StoreException failure =
          catchThrowableOfType(
              StoreException.class,
              () ->
                  shortStepTimeouts(database)
                      .lockTimeout(Duration.ofMinutes(2))
                      .migrationTimeout(Duration.ofMillis(300))
                      .build());
      assertThat(failure)
          .hasMessageContaining("within the migration timeout of PT0.3S")
          .hasMessageContaining("raise the migration timeout")
          .hasMessageNotContaining("statement timeout of")
          .hasMessageNotContaining("lock timeout of");
      assertThat(failure.outcomeUnknown()).isFalse();
    }
  }

  @Test
  void thePooledConnectionGetsItsOwnNetworkTimeoutBackAfterTheMigration() throws Exception {
    String name = "migration_network_" + System.nanoTime();
    PostgresDatabase.shared().newDatabase(name);
    String url = PostgresDatabase.shared().url().replace("/postgres?", "/" + name + "?");
    assertThat(url).contains("/" + name + "?");
    try (SingleConnectionPool pool = new SingleConnectionPool(url + "&socketTimeout=2");
        JdbcStore store = JdbcStore.builder().dataSource(pool, "single-connection pool").build()) {
      try (Connection connection = pool.getConnection()) {
        assertThat(connection.getNetworkTimeout()).isEqualTo(2000);
      }
      assertThat(store.id()).isNotBlank();
    }
  }

  /** Waits (bounded) until the open waits for the migration lock, or has ended. */
  private static void awaitMigrationWaiting(Connection holder, CompletableFuture<?> opening)
      throws SQLException, InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (!opening.isDone()) {
      if (!query(
              holder,
              "SELECT COUNT(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
                  + " AND database = (SELECT oid FROM pg_database WHERE datname ="
                  + " current_database())")
          .equals("0")) {
        return;
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError("the open never waited for the migration lock");
      }
      Thread.sleep(20);
    }
  }

  private static String query(Connection connection, String sql) throws SQLException {
    try (Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery(sql)) {
      rows.next();
      return rows.getString(1);
    }
  }
}
