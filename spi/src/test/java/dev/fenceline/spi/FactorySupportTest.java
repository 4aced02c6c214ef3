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

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** What factories use besides declarations: apply, unchecked reading, sizes, composed adapters. */
class FactorySupportTest {

  private static final List<ConfigKey> KEYS =
      List.of(
          ConfigKey.uri("endpoint").description("Endpoint.").build(),
          ConfigKey.string("token").secret().description("Token.").build(),
          ConfigKey.size("part-size", 5L << 20, 512L << 20)
              .bounds("5MiB (the smallest part) to 512MiB")
              .defaultValue(8L << 20)
              .description("Part.")
              .build(),
          ConfigKey.duration("cache")
              .defaultValue(Duration.ofHours(24))
              .description("Cache.")
              .build(),
          ConfigKey.decimal("growth", 1, 100).defaultValue(2.0).description("Growth.").build());

  @Test
  void aRefusedSettingBecomesAnErrorAboutItsKeyWithoutCredentialsOrSecrets() {
    AdapterConfig config =
        AdapterConfig.of("s3", "files", Map.of("endpoint", "https://k:s3cr3t@host"), KEYS);

    assertThatThrownBy(
            () ->
                config.apply(
                    "endpoint",
                    "https://k:s3cr3t@host",
                    () -> {
                      throw new IllegalArgumentException("Cannot use it: no user information");
                    }))
        .isInstanceOfSatisfying(
            ConfigurationException.class, e -> assertThat(e.key()).contains("endpoint"))
        .hasMessage(
            "Cannot configure s3 adapter \"files\": key \"endpoint\" has value"
                + " \"https://****@host\": Cannot use it: no user information");
    assertThatThrownBy(
            () ->
                config.apply(
                    "token",
                    "s3cr3t",
                    () -> {
                      throw new ConfigurationException("Cannot use token s3cr3t");
                    }))
        .hasMessageStartingWith(
            "Cannot configure s3 adapter \"files\": key \"token\" has value" + " (not shown): ");
    ConfigurationException keyed = ConfigurationException.about("cache", "about the cache");
    assertThatThrownBy(
            () ->
                config.apply(
                    "endpoint",
                    "x",
                    () -> {
                      throw keyed;
                    }))
        .isSameAs(keyed);
    assertThat(config.apply("endpoint", "x", () -> "set")).isEqualTo("set");
  }

  @Test
  void anUncheckedConfigurationRefusesUnknownKeysAndLeavesValuesToCheckValues() {
    AdapterConfig config =
        AdapterConfig.unchecked("s3", "files", Map.of("part-size", "1MiB"), KEYS);
    assertThat(config.optional("part-size")).contains("1MiB");
    assertThatThrownBy(config::checkValues)
        .hasMessageContaining(
            "key \"part-size\" has value \"1MiB\", which is out of range (write a size from 5MiB"
                + " (the smallest part) to 512MiB)");
    assertThatThrownBy(
            () -> AdapterConfig.unchecked("s3", "files", Map.of("part-sise", "1MiB"), KEYS))
        .hasMessageContaining("did you mean \"part-size\"?");
  }

  @Test
  void defaultsAndRangesAreWrittenAsPeopleWriteThem() {
    assertThat(KEYS.get(2).defaultValue()).contains("8MiB");
    assertThat(KEYS.get(2).range()).contains("5MiB (the smallest part) to 512MiB");
    assertThat(KEYS.get(3).defaultValue()).contains("1d");
    assertThat(KEYS.get(4).defaultValue()).contains("2.0");
    assertThat(KEYS.get(4).range()).contains("1 to 100");
    assertThat(KEYS.get(0).range()).isEmpty();
    assertThat(ConfigKey.formatSize(16L << 20)).isEqualTo("16MiB");
    assertThat(ConfigKey.formatSize(Integer.MAX_VALUE - 8L)).isEqualTo("2147483639");
    assertThat(
            ConfigKey.duration("t")
                .defaultValue(Duration.ofMinutes(10))
                .description("T.")
                .build()
                .defaultValue())
        .contains("10m");
  }

  @Test
  void aComposedAdapterOffersWhatItWasGivenAndClosesItsStore() {
    AtomicBoolean closed = new AtomicBoolean();
    BlobStore blobs =
        (BlobStore)
            java.lang.reflect.Proxy.newProxyInstance(
                BlobStore.class.getClassLoader(),
                new Class<?>[] {BlobStore.class},
                (proxy, method, args) -> {
                  throw new UnsupportedOperationException(method.getName());
                });
    Adapter adapter = Adapter.builder(() -> closed.set(true)).blobStore(blobs).build();
    assertThat(adapter.blobStore()).containsSame(blobs);
    assertThat(adapter.leaseIssuer()).isEmpty();
    assertThat(adapter.pointerStore("x")).isEmpty();
    assertThat(adapter.intentStore("x")).isEmpty();
    assertThat(adapter.destination("x")).isEmpty();
    adapter.close();
    assertThat(closed).isTrue();
  }
}
