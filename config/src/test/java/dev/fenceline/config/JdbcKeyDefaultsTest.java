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
package dev.fenceline.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fenceline.jdbc.JdbcAdapterFactory;
import dev.fenceline.jdbc.JdbcStore;
import dev.fenceline.spi.AdapterConfig;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The YAML defaults of a jdbc store are the Java builder's: the defaults the jdbc factory declares
 * (read by the configuration file and listed in the reference) are JdbcStore's own constants.
 */
class JdbcKeyDefaultsTest {

  @Test
  void theYamlTimeoutDefaultsAreJdbcStoresOwn() {
    AdapterConfig defaults =
        AdapterConfig.of(new JdbcAdapterFactory(), "main", Map.of("url", "jdbc:sqlite:x.db"));
    assertThat(defaults.duration("lock-timeout")).contains(JdbcStore.DEFAULT_LOCK_TIMEOUT);
    assertThat(defaults.duration("statement-timeout"))
        .contains(JdbcStore.DEFAULT_STATEMENT_TIMEOUT);
    assertThat(defaults.duration("connect-timeout")).contains(JdbcStore.DEFAULT_CONNECT_TIMEOUT);
    assertThat(defaults.duration("login-timeout")).contains(JdbcStore.DEFAULT_LOGIN_TIMEOUT);
    assertThat(defaults.duration("socket-timeout")).contains(JdbcStore.DEFAULT_SOCKET_TIMEOUT);
    assertThat(defaults.duration("migration-timeout"))
        .contains(JdbcStore.DEFAULT_MIGRATION_TIMEOUT);
  }
}
