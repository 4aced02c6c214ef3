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
package dev.fenceline.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConfigKeyTest {

  private static final List<ConfigKey> KEYS =
      List.of(
          ConfigKey.string("url")
              .required()
              .example("jdbc:h2:mem:x")
              .description("The URL.")
              .build(),
          ConfigKey.string("password").secret().description("The password.").build(),
          ConfigKey.duration("lock-timeout")
              .defaultValue(Duration.ofSeconds(8))
              .description("Lock wait.")
              .build(),
          ConfigKey.duration("probe-cache").zeroAllowed().description("Cache.").build(),
          ConfigKey.integer("pool-size", 1, 1000).defaultValue(10).description("Pool.").build(),
          ConfigKey.size("part-size", 5L << 20, 512L << 20).description("Part.").build(),
          ConfigKey.choice("acl", "open", "creator")
              .defaultValue("open")
              .description("ACL.")
              .build(),
          ConfigKey.uri("endpoint").description("Endpoint.").build(),
          ConfigKey.decimal("backoff.multiplier", 1, 100).description("Growth.").build(),
          ConfigKey.map("receipt-fields").description("Fields.").build());

  private static AdapterConfig config(Map<String, String> values) {
    return AdapterConfig.of("h2", "main", values, KEYS);
  }

  @Test
  void declaredDefaultsAreWhatTheGettersGiveForUnsetKeys() {
    AdapterConfig config = config(Map.of("url", "jdbc:h2:mem:x"));
    assertThat(config.duration("lock-timeout")).contains(Duration.ofSeconds(8));
    assertThat(config.number("pool-size")).contains(10L);
    assertThat(config.optional("acl")).contains("open");
    assertThat(config.isSet("acl")).isFalse();
    assertThat(config.optional("password")).isEmpty();
    assertThat(config.required("url")).isEqualTo("jdbc:h2:mem:x");
  }

  @Test
  void everyTypeIsReadAsItsValue() {
    AdapterConfig config =
        config(
            Map.of(
                "url", "u",
                "lock-timeout", "7d",
                "probe-cache", "0",
                "part-size", "16MiB",
                "endpoint", "http://127.0.0.1:9000",
                "backoff.multiplier", "2.5",
                "receipt-fields.payment-id", "/id",
                "receipt-fields.status", "/status"));
    assertThat(config.duration("lock-timeout")).contains(Duration.ofDays(7));
    assertThat(config.duration("probe-cache")).contains(Duration.ZERO);
    assertThat(config.number("part-size")).contains(16L << 20);
    assertThat(config.uri("endpoint")).contains(URI.create("http://127.0.0.1:9000"));
    assertThat(config.decimal("backoff.multiplier")).contains(2.5);
    assertThat(config.map("receipt-fields"))
        .containsExactly(Map.entry("payment-id", "/id"), Map.entry("status", "/status"));
  }

  @Test
  void errorsCarryTheKeyTheyAreAbout() {
    assertThatThrownBy(() -> config(Map.of("url", "u", "lock-timout", "8s")))
        .isInstanceOfSatisfying(
            ConfigurationException.class, e -> assertThat(e.key()).contains("lock-timout"))
        .hasMessage(
            "Cannot configure h2 adapter \"main\": unknown key \"lock-timout\" (did you mean"
                + " \"lock-timeout\"? known keys: [acl, backoff.multiplier, endpoint, lock-timeout,"
                + " part-size, password, pool-size, probe-cache, receipt-fields, url])");
    assertThatThrownBy(() -> config(Map.of()))
        .isInstanceOfSatisfying(
            ConfigurationException.class, e -> assertThat(e.key()).contains("url"))
        .hasMessageContaining("key \"url\" is missing (e.g. url: jdbc:h2:mem:x)");
    assertThatThrownBy(() -> config(Map.of("url", "u", "pool-size", "0")))
        .isInstanceOfSatisfying(
            ConfigurationException.class, e -> assertThat(e.key()).contains("pool-size"))
        .hasMessageContaining("key \"pool-size\" has value \"0\", which is out of range");
    assertThatThrownBy(() -> config(Map.of("url", "u", "lock-timeout", "0")))
        .hasMessageContaining("is not a positive duration");
    assertThatThrownBy(() -> config(Map.of("url", "u", "acl", "closed")))
        .hasMessageContaining("is not one of the choices (write open, creator)");
    assertThat(config(Map.of("url", "u", "receipt-fields.x.y", "/id")).map("receipt-fields"))
        .containsEntry("x.y", "/id");
  }

  @Test
  void aSecretValueIsNeverInTheMessage() {
    List<ConfigKey> keys =
        List.of(ConfigKey.integer("pin", 0, 9999).secret().description("A secret number.").build());
    assertThatThrownBy(() -> AdapterConfig.of("h2", "main", Map.of("pin", "s3cr3t-v4lue"), keys))
        .hasMessageNotContaining("s3cr3t")
        .hasMessageContaining("key \"pin\" has value (not shown), which is not a whole number");
  }

  @Test
  void inconsistentDeclarationsAreRefused() {
    assertThatThrownBy(() -> ConfigKey.string("Lock_Timeout").description("x").build())
        .hasMessageContaining("kebab-case");
    assertThatThrownBy(() -> ConfigKey.string("url").description("").build())
        .hasMessageContaining("no description");
    assertThatThrownBy(
            () -> ConfigKey.string("url").required().defaultValue("x").description("x").build())
        .hasMessageContaining("a required key has no default");
    assertThatThrownBy(
            () -> ConfigKey.integer("pool-size", 1, 10).defaultValue(0).description("x").build())
        .hasMessageContaining("its default is out of range");
  }

  @Test
  void durationsAndSizesAsPeopleWriteThem() {
    assertThat(ConfigKey.parseDuration("500ms")).contains(Duration.ofMillis(500));
    assertThat(ConfigKey.parseDuration("1h")).contains(Duration.ofHours(1));
    assertThat(ConfigKey.parseDuration("PT1.5S")).contains(Duration.ofMillis(1500));
    assertThat(ConfigKey.parseDuration("soon")).isEmpty();
    assertThat(ConfigKey.formatDuration(Duration.ofMillis(1500))).isEqualTo("1500ms");
    assertThat(ConfigKey.formatDuration(Duration.ofMinutes(10))).isEqualTo("600s");
    assertThat(ConfigKey.parseSize("512KiB")).hasValue(512L * 1024);
    assertThat(ConfigKey.parseSize("16 mib")).hasValue(16L << 20);
    assertThat(ConfigKey.parseSize("999999999999GiB")).isEmpty();
  }
}
