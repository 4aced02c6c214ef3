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

import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.UnsafeStoreException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Durability is a session setting: a pool's later connections, or new sessions after an {@code
 * ALTER DATABASE}, can commit with {@code synchronous_commit=off} although the connection checked
 * when the store opened did not. Each physical connection is checked before its first step.
 */
class PostgresSessionDurabilityTest {

  private static final Duration TTL = Duration.ofSeconds(30);

  /**
   * A new connection per call, as a pool that grows hands them out; after {@link
   * #makeNewSessionsUnsafe}, each new session runs {@code SET synchronous_commit = off} first, as a
   * pool's connection init SQL would.
   */
  private static final class LaterSessionsUnsafe extends HandWrittenDataSource {
    private final String url;
    private volatile boolean unsafe;

    LaterSessionsUnsafe(String url) {
      this.url = url;
    }

    @Override
    public Connection getConnection() throws SQLException {
      Connection connection = DriverManager.getConnection(url);
      if (unsafe) {
        try (Statement statement = connection.createStatement()) {
          statement.execute("SET synchronous_commit = off");
        }
      }
      return connection;
    }

    void makeNewSessionsUnsafe() {
      unsafe = true;
    }
  }

  @Test
  void aPooledConnectionWhoseSessionCommitsWithoutWaitingForTheDiskIsRefusedWhenUsed()
      throws Exception {
    ResourceId resource = ResourceId.of("session-durability/pooled-" + System.nanoTime());
    LaterSessionsUnsafe pool = new LaterSessionsUnsafe(PostgresDatabase.shared().url());
    try (JdbcStore store = JdbcStore.builder().dataSource(pool, "later-sessions-unsafe").build()) {
      pool.makeNewSessionsUnsafe();

      assertThatThrownBy(() -> store.leaseIssuer().tryAcquire(resource, "worker-1", TTL))
          .isInstanceOf(UnsafeStoreException.class)
          .hasMessage(
              "Cannot acquire the lease on "
                  + resource
                  + ": a connection to PostgreSQL at later-sessions-unsafe has fsync = on and"
                  + " synchronous_commit = off, so a crash can lose epochs already handed out and"
                  + " the issuer would hand the same numbers out again (set both to on, and remove"
                  + " any setting of synchronous_commit per role, per database, in the URL's"
                  + " options or in the pool's connection init SQL; to accept the risk call"
                  + " unsafeAllowEpochRollbackOnCrash(true))");
      assertThat(leaseRows(resource)).as("nothing was acquired on the unsafe session").isZero();
    }
  }

  @Test
  void newSessionsAfterAnAlterDatabaseAreCheckedAndAcceptedAgainOnceItIsReset() throws Exception {
    TestDatabase database = PostgresDatabase.shared().newDatabase("fenceline_session_durability");
    ResourceId resource = ResourceId.of("session-durability/altered");
    try (JdbcStore store = database.openStore()) {
      assertThat(store.leaseIssuer().tryAcquire(resource, "worker-1", TTL)).isPresent();
      alter(database, "ALTER DATABASE fenceline_session_durability SET synchronous_commit = off");

      assertThatThrownBy(() -> store.leaseIssuer().status(resource))
          .isInstanceOf(UnsafeStoreException.class)
          .hasMessageContaining("has fsync = on and synchronous_commit = off");

      alter(database, "ALTER DATABASE fenceline_session_durability RESET synchronous_commit");
      assertThat(store.leaseIssuer().status(resource).held()).isTrue();
    }
  }

  @Test
  void anAcceptedRiskCoversLaterSessionsToo() {
    LaterSessionsUnsafe pool = new LaterSessionsUnsafe(PostgresDatabase.shared().url());
    try (JdbcStore store =
        JdbcStore.builder()
            .dataSource(pool, "later-sessions-unsafe")
            .unsafeAllowEpochRollbackOnCrash(true)
            .build()) {
      pool.makeNewSessionsUnsafe();
      ResourceId resource = ResourceId.of("session-durability/allowed-" + System.nanoTime());
      assertThat(store.leaseIssuer().tryAcquire(resource, "worker-1", TTL)).isPresent();
    }
  }

  private static int leaseRows(ResourceId resource) throws SQLException {
    try (Connection connection = PostgresDatabase.shared().connect();
        PreparedStatement select =
            connection.prepareStatement(
                "SELECT count(*) FROM fenceline_lease WHERE resource = ?")) {
      select.setString(1, resource.value());
      try (ResultSet rows = select.executeQuery()) {
        rows.next();
        return rows.getInt(1);
      }
    }
  }

  private static void alter(TestDatabase database, String sql) throws SQLException {
    try (Connection connection = database.connect();
        Statement statement = connection.createStatement()) {
      statement.execute(sql);
    }
  }
}
