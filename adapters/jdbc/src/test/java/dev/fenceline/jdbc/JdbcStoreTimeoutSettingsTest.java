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

import dev.fenceline.spi.ConfigurationException;
import java.time.Duration;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** The builder's timeouts are validated when set, and their defaults fit the default lease. */
class JdbcStoreTimeoutSettingsTest {

  /** The default lease ttl ({@code Fenceline.builder()}, YAML {@code lease.ttl}). */
  private static final Duration DEFAULT_TTL = Duration.ofSeconds(30);

  @Test
  void withTheDefaultsACallToASilentServerEndsClearlyWithinTheDefaultTtl() {
    // A step first gets a connection (login timeout: TCP connect, TLS, start-up, authentication;
    // a pooled connection is validated first), then waits at most the socket timeout for the
    // first round trip that gets no answer: the connection is then dropped and the step fails.
    Duration url = JdbcStore.DEFAULT_LOGIN_TIMEOUT.plus(JdbcStore.DEFAULT_SOCKET_TIMEOUT);
    Duration pooled = url.plus(PostgresPool.DEFAULT_VALIDATION_TIMEOUT);

    assertThat(pooled).isLessThanOrEqualTo(DEFAULT_TTL.minusSeconds(5));
    // Lock waits and slow statements also end within the ttl, each with its own clear message:
    // lock timeout < statement timeout < socket timeout.
    assertThat(JdbcStore.DEFAULT_LOCK_TIMEOUT).isLessThan(JdbcStore.DEFAULT_STATEMENT_TIMEOUT);
    assertThat(JdbcStore.DEFAULT_STATEMENT_TIMEOUT).isLessThan(JdbcStore.DEFAULT_SOCKET_TIMEOUT);
    assertThat(JdbcStore.DEFAULT_CONNECT_TIMEOUT).isLessThan(JdbcStore.DEFAULT_LOGIN_TIMEOUT);
  }

  @Test
  void everyTimeoutMustBePositiveAndTheMessageNamesTheValue() {
    Map<String, Function<Duration, JdbcStore.Builder>> setters =
        Map.of(
            "lock timeout", JdbcStore.builder()::lockTimeout,
            "statement timeout", JdbcStore.builder()::statementTimeout,
            "connect timeout", JdbcStore.builder()::connectTimeout,
            "login timeout", JdbcStore.builder()::loginTimeout,
            "socket timeout", JdbcStore.builder()::socketTimeout);
    setters.forEach(
        (name, setter) -> {
          assertThatThrownBy(() -> setter.apply(Duration.ZERO))
              .isInstanceOf(ConfigurationException.class)
              .hasMessageStartingWith("Cannot use " + name + " PT0S: it must be positive (e.g. PT");
          assertThatThrownBy(() -> setter.apply(Duration.ofSeconds(-5)))
              .isInstanceOf(ConfigurationException.class)
              .hasMessageStartingWith("Cannot use " + name + " PT-5S: it must be positive");
          assertThatThrownBy(() -> setter.apply(null))
              .isInstanceOf(NullPointerException.class)
              .hasMessage(name + " is null");
        });
  }

  @Test
  void thePoolOfTheYamlAdapterWaitsForAConnectionAtMostTheLoginTimeoutAndValidatesQuickly()
      throws Exception {
    // Nothing connects here: the pool opens its connections when the store first asks.
    try (com.zaxxer.hikari.HikariDataSource pool =
        PostgresPool.open(
            "timeouts",
            "jdbc:postgresql://127.0.0.1:1/postgres",
            java.util.Optional.empty(),
            java.util.Optional.empty(),
            2,
            JdbcStore.DEFAULT_CONNECT_TIMEOUT,
            JdbcStore.DEFAULT_LOGIN_TIMEOUT,
            JdbcStore.DEFAULT_SOCKET_TIMEOUT,
            JdbcStore.DEFAULT_LOCK_TIMEOUT,
            JdbcStore.DEFAULT_STATEMENT_TIMEOUT)) {
      assertThat(Duration.ofMillis(pool.getConnectionTimeout()))
          .isEqualTo(JdbcStore.DEFAULT_LOGIN_TIMEOUT);
      assertThat(Duration.ofMillis(pool.getValidationTimeout()))
          .isEqualTo(PostgresPool.DEFAULT_VALIDATION_TIMEOUT);
      assertThat(pool.getDataSourceProperties())
          .containsEntry("connectTimeout", "5")
          .containsEntry("loginTimeout", "8")
          .containsEntry("socketTimeout", "12")
          .as("the sessions' own lock and statement timeouts: one-statement steps need no SET")
          .containsEntry("options", "-c lock_timeout=8000 -c statement_timeout=10000");
    }
  }
}
