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

import dev.fenceline.spi.Lease;
import dev.fenceline.spi.LeaseLostException;
import dev.fenceline.spi.ResourceId;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Lease steps at their edges, where the one-statement forms must keep the answers of the old
 * transactions: a refused renewal is a loss even if the database cannot say why, and the epoch
 * never repeats, not even at its largest value.
 */
class JdbcLeaseIssuerEdgeTest {

  private static final ResourceId RESOURCE = ResourceId.of("report");

  @TempDir Path directory;

  /**
   * The renewal statement found the lease taken over: that is a loss (the holder must stop now),
   * even when the second connection, which only reads why, cannot be opened.
   */
  @Test
  void aRefusedRenewalIsALossEvenIfTheReasonCannotBeRead() throws SQLException {
    SqliteDatabase database = new SqliteDatabase(directory);
    AtomicInteger connectionsLeft = new AtomicInteger(Integer.MAX_VALUE);
    DataSource dataSource = failingAfter(database.url(), connectionsLeft);
    try (JdbcStore store = JdbcStore.builder().dataSource(dataSource, "sqlite-test").build()) {
      Lease first =
          store.leaseIssuer().tryAcquire(RESOURCE, "a", Duration.ofMillis(1)).orElseThrow();
      expire(database);
      store.leaseIssuer().tryAcquire(RESOURCE, "b", Duration.ofMinutes(1)).orElseThrow();

      connectionsLeft.set(1); // the renewal's statement gets a connection, nothing after it
      assertThatThrownBy(() -> store.leaseIssuer().renew(first))
          .isInstanceOf(LeaseLostException.class);
    }
  }

  /**
   * At the largest epoch the next grant must fail: SQLite turns an overflowing integer sum into a
   * REAL, which reads back as the same largest epoch, so two holders would share one epoch.
   */
  @Test
  void theLargestEpochIsNeverHandedOutTwiceOnSqlite() throws SQLException {
    SqliteDatabase database = new SqliteDatabase(directory);
    try (JdbcStore store = database.openStore()) {
      try (Connection connection = database.connect();
          Statement statement = connection.createStatement()) {
        statement.execute(
            "INSERT INTO fenceline_lease VALUES ('report', " + Long.MAX_VALUE + ", NULL, 0)");
      }
      Optional<Lease> granted;
      try {
        granted = store.leaseIssuer().tryAcquire(RESOURCE, "a", Duration.ofMinutes(1));
      } catch (RuntimeException refused) {
        granted = Optional.empty();
      }
      assertThat(granted)
          .as("epoch %d was the newest; it must not be handed out again", Long.MAX_VALUE)
          .isEmpty();
    }
  }

  /** A fractional ttl is stored rounded up (never ends early) and the lease carries that ttl. */
  @Test
  void aFractionalTtlIsRoundedUpToWholeMillisecondsAndTheLeaseCarriesIt() throws SQLException {
    // Long enough for the renewal to find it held on a slow machine.
    Duration fractional = Duration.ofSeconds(30).plusNanos(500_000);
    SqliteDatabase database = new SqliteDatabase(directory);
    try (JdbcStore store = database.openStore()) {
      Lease acquired = store.leaseIssuer().tryAcquire(RESOURCE, "a", fractional).orElseThrow();
      Lease renewed = store.leaseIssuer().renew(acquired, fractional);

      assertThat(acquired.ttl()).isEqualTo(Duration.ofMillis(30_001));
      assertThat(renewed.ttl()).isEqualTo(Duration.ofMillis(30_001));
    }
  }

  private static void expire(SqliteDatabase database) throws SQLException {
    try (Connection connection = database.connect();
        Statement statement = connection.createStatement()) {
      statement.execute("UPDATE fenceline_lease SET expires_at_ms = 0");
    }
  }

  /** Connections to {@code url}; once {@code left} reaches 0, opening one fails. */
  private static DataSource failingAfter(String url, AtomicInteger left) {
    return Intercepted.wrap(
        DataSource.class,
        null,
        (none, method, args) -> {
          if (method.getName().equals("getConnection")) {
            if (left.getAndDecrement() <= 0) {
              throw new SQLException("connection refused (test)", "08001");
            }
            return DriverManager.getConnection(url);
          }
          return Intercepted.invoke(method, none, args);
        });
  }
}
