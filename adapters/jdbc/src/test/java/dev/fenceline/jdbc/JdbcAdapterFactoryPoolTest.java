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

import dev.fenceline.spi.Adapter;
import dev.fenceline.spi.ConfigurationException;
import dev.fenceline.spi.LeaseIssuer;
import dev.fenceline.spi.ResourceId;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The jdbc adapter pools PostgreSQL connections with HikariCP (on this module's test path). */
class JdbcAdapterFactoryPoolTest {

  private static int connectionsTo(String database) throws SQLException {
    try (Connection connection = PostgresDatabase.shared().connect();
        Statement statement = connection.createStatement();
        ResultSet rows =
            statement.executeQuery(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = '" + database + "'")) {
      rows.next();
      return rows.getInt(1);
    }
  }

  /**
   * The number of connections to {@code database} once it has dropped to zero, or the last count
   * seen when {@code bound} has passed.
   */
  private static int connectionsOnceSettled(String database, Duration bound) throws Exception {
    long deadline = System.nanoTime() + bound.toNanos();
    while (true) {
      int connections = connectionsTo(database);
      if (connections == 0 || System.nanoTime() > deadline) {
        return connections;
      }
      Thread.sleep(20);
    }
  }

  @Test
  void aPostgresStoreKeepsPooledConnectionsBetweenStepsAndClosesThemWithTheAdapter()
      throws Exception {
    PostgresDatabase server = PostgresDatabase.shared();
    server.newDatabase("pooled");
    String url = server.url().replace("/postgres?", "/pooled?");
    assertThat(url).contains("/pooled");

    try (Adapter adapter =
        new JdbcAdapterFactory().create("main", Map.of("url", url, "pool-size", "3"))) {
      LeaseIssuer issuer = adapter.leaseIssuer().orElseThrow();
      assertThat(issuer.tryAcquire(ResourceId.of("r"), "w", Duration.ofSeconds(30))).isPresent();

      // Without a pool every step closes its connection; the pool keeps at least one open.
      assertThat(connectionsTo("pooled")).isBetween(1, 3);
      adapter.close();
      // A backend stays listed in pg_stat_activity for a moment after its client closed the
      // connection (it exits asynchronously; seen under load): wait for it, with a bound.
      assertThat(connectionsOnceSettled("pooled", Duration.ofSeconds(20)))
          .as("connections to \"pooled\" after the adapter closed its pool")
          .isZero();
    }
  }

  @Test
  void poolSizeIsForPostgresOnlyAndAWholeNumber() {
    JdbcAdapterFactory factory = new JdbcAdapterFactory();
    assertThatThrownBy(
            () -> factory.create("main", Map.of("url", "jdbc:sqlite:x.db", "pool-size", "4")))
        .isInstanceOf(ConfigurationException.class)
        .hasMessage(
            "Cannot configure jdbc adapter \"main\": key \"pool-size\" is for PostgreSQL only"
                + " (remove it; SQLite opens a connection per step)");
    assertThatThrownBy(
            () ->
                factory.create(
                    "main", Map.of("url", "jdbc:postgresql://127.0.0.1:1/x", "pool-size", "many")))
        .hasMessageContaining("key \"pool-size\" has value \"many\" (write a whole number");
  }
}
