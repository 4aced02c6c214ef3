package dev.fenceline.jdbc;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fenceline.spi.ConfigurationException;
import java.time.Duration;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** The builder's timeouts are validated when set. */
class JdbcStoreTimeoutSettingsTest {

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
}
