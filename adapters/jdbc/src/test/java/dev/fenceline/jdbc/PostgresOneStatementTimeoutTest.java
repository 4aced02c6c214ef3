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

import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Pointer;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StoreException;
import dev.fenceline.tck.TimedFailure;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The statement timeout bounds the one-round-trip steps too (a pointer publish, a lease
 * acquisition), not only the statements of a fenced write: with a lock timeout far above it, a step
 * that waits for a lock another session holds ends at the statement timeout.
 */
class PostgresOneStatementTimeoutTest {

  private static final Duration WITHIN = Duration.ofSeconds(20);

  /**
   * @param sessionTimeouts true: the store's own URL connections, whose sessions get its timeouts
   *     (pgjdbc's {@code options}), so a step is a bare statement; false: a URL that sets other
   *     {@code options}, so each step carries {@code SET LOCAL} of its timeouts
   */
  private static JdbcStore store(boolean sessionTimeouts) {
    String url = PostgresDatabase.shared().url();
    return JdbcStore.builder()
        .url(sessionTimeouts ? url : url + "&options=-c%20search_path%3Dpublic")
        .lockTimeout(Duration.ofMinutes(2))
        .statementTimeout(Duration.ofMillis(500))
        .build();
  }

  @ParameterizedTest(name = "the session has the store's timeouts: {0}")
  @ValueSource(booleans = {true, false})
  void aLeaseAcquisitionWaitingForALockEndsAtTheStatementTimeout(boolean sessionTimeouts)
      throws SQLException {
    ResourceId resource = ResourceId.of("one-statement/lease-" + System.nanoTime());
    try (JdbcStore store = store(sessionTimeouts);
        Connection holder = PostgresDatabase.shared().connect()) {
      store
          .leaseIssuer()
          .release(
              store.leaseIssuer().tryAcquire(resource, "a", Duration.ofMinutes(1)).orElseThrow());
      lock(holder, "SELECT 1 FROM fenceline_lease WHERE resource = ? FOR UPDATE", resource);

      StoreException failure =
          failureWithin(() -> store.leaseIssuer().tryAcquire(resource, "b", Duration.ofMinutes(1)));

      assertThat(failure).hasMessageContaining("longer than the statement timeout of PT0.5S");
      holder.rollback();
    }
  }

  @ParameterizedTest(name = "the session has the store's timeouts: {0}")
  @ValueSource(booleans = {true, false})
  void aPointerPublishWaitingForALockEndsAtTheStatementTimeout(boolean sessionTimeouts)
      throws SQLException {
    ResourceId resource = ResourceId.of("one-statement/pointer-" + System.nanoTime());
    try (JdbcStore store = store(sessionTimeouts);
        Connection holder = PostgresDatabase.shared().connect()) {
      FencingToken token = new FencingToken(store.id(), resource, Epoch.of(1), "worker");
      store.pointerStore("reports").register(token);
      lock(holder, "SELECT 1 FROM fenceline_resource WHERE resource = ? FOR UPDATE", resource);

      StoreException failure =
          failureWithin(
              () ->
                  store
                      .pointerStore("reports")
                      .write(token, OperationId.of("v1"), Pointer.to("v1")));

      assertThat(failure).hasMessageContaining("longer than the statement timeout of PT0.5S");
      assertThat(failure.outcomeUnknown()).isFalse();
      holder.rollback();
    }
  }

  @Test
  void aPointerPublishRunningLongEndsAtTheStatementTimeoutAlsoWhenItIsNotBelowTheLockTimeout()
      throws SQLException {
    // The statement's time is not only lock waits (a trigger, a slow disk, several lock waits in
    // one statement): a statement timeout equal to the lock timeout must still bound it.
    TestDatabase database =
        PostgresDatabase.shared()
            .newDatabase("slow_publish_" + Long.toHexString(System.nanoTime()));
    ResourceId resource = ResourceId.of("one-statement/slow-pointer");
    try (JdbcStore store =
            database
                .storeBuilder()
                .lockTimeout(Duration.ofMillis(500))
                .statementTimeout(Duration.ofMillis(500))
                .build();
        Connection admin = database.connect();
        Statement statement = admin.createStatement()) {
      FencingToken token = new FencingToken(store.id(), resource, Epoch.of(1), "worker");
      store.pointerStore("reports").register(token);
      statement.execute(
          "CREATE FUNCTION slow_insert() RETURNS trigger LANGUAGE plpgsql AS $$"
              + " BEGIN PERFORM pg_sleep(3); RETURN NEW; END $$");
      statement.execute(
          "CREATE TRIGGER slow_insert BEFORE INSERT ON fenceline_pointer"
              + " FOR EACH ROW EXECUTE FUNCTION slow_insert()");

      StoreException failure =
          failureWithin(
              () ->
                  store
                      .pointerStore("reports")
                      .write(token, OperationId.of("v1"), Pointer.to("v1")));

      assertThat(failure).hasMessageContaining("longer than the statement timeout of PT0.5S");
      assertThat(failure.outcomeUnknown()).isFalse();
    }
  }

  /** The step's failure, which must come well before the lock timeout (within {@link #WITHIN}). */
  private static StoreException failureWithin(ThrowingCallable step) {
    return TimedFailure.within(WITHIN, StoreException.class, step).thrown();
  }

  private static void lock(Connection holder, String sql, ResourceId resource) throws SQLException {
    holder.setAutoCommit(false);
    try (PreparedStatement select = holder.prepareStatement(sql)) {
      select.setString(1, resource.value());
      select.executeQuery().close();
    }
  }
}
