package dev.fenceline.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fenceline.jdbc.JdbcStore;
import org.junit.jupiter.api.Test;

/** The YAML defaults of a jdbc store are the Java builder's (config cannot compile against it). */
class JdbcStoreConfigDefaultsTest {

  @Test
  void theYamlTimeoutDefaultsAreJdbcStoresOwn() {
    assertThat(JdbcStoreConfig.DEFAULT_LOCK_TIMEOUT).isEqualTo(JdbcStore.DEFAULT_LOCK_TIMEOUT);
    assertThat(JdbcStoreConfig.DEFAULT_STATEMENT_TIMEOUT)
        .isEqualTo(JdbcStore.DEFAULT_STATEMENT_TIMEOUT);
    assertThat(JdbcStoreConfig.DEFAULT_CONNECT_TIMEOUT)
        .isEqualTo(JdbcStore.DEFAULT_CONNECT_TIMEOUT);
    assertThat(JdbcStoreConfig.DEFAULT_LOGIN_TIMEOUT).isEqualTo(JdbcStore.DEFAULT_LOGIN_TIMEOUT);
    assertThat(JdbcStoreConfig.DEFAULT_SOCKET_TIMEOUT).isEqualTo(JdbcStore.DEFAULT_SOCKET_TIMEOUT);
    assertThat(JdbcStoreConfig.DEFAULT_MIGRATION_TIMEOUT)
        .isEqualTo(JdbcStore.DEFAULT_MIGRATION_TIMEOUT);
  }
}
