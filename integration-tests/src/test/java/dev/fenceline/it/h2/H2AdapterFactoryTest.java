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
package dev.fenceline.it.h2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fenceline.spi.AdapterFactory;
import dev.fenceline.spi.ConfigKey;
import dev.fenceline.spi.ConfigurationException;
import dev.fenceline.spi.StoreRole;
import java.nio.file.Path;
import java.util.Map;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code h2-test} factory as a configuration file meets it: found by {@link ServiceLoader}, its
 * keys declared, and its errors about a key carrying that key, with the same "did you mean" as the
 * built-in adapters and the password never shown.
 */
class H2AdapterFactoryTest {

  @TempDir Path directory;

  private static AdapterFactory factory() {
    return ServiceLoader.load(AdapterFactory.class).stream()
        .map(ServiceLoader.Provider::get)
        .filter(factory -> factory.name().equals("h2-test"))
        .findFirst()
        .orElseThrow();
  }

  @Test
  void isFoundByNameAndDeclaresItsKeysAndRole() {
    AdapterFactory factory = factory();

    assertThat(factory.roles()).containsExactly(StoreRole.DESTINATION);
    assertThat(factory.configKeys())
        .extracting(ConfigKey::name)
        .containsExactly("url", "user", "password", "lock-timeout");
    assertThat(factory.configKeys())
        .filteredOn(ConfigKey::secret)
        .extracting(ConfigKey::name)
        .containsExactly("password");
  }

  @Test
  void aMisspeltKeyIsRefusedWithTheClosestKnownOne() {
    Map<String, String> config =
        Map.of("url", "jdbc:h2:" + directory.resolve("fence"), "lock-timout", "5s");

    assertThatThrownBy(() -> factory().validate("fences", config))
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("Cannot configure h2-test adapter \"fences\"")
        .hasMessageContaining("did you mean \"lock-timeout\"?")
        .satisfies(e -> assertThat(((ConfigurationException) e).key()).contains("lock-timout"));
  }

  @Test
  void aBadValueNamesItsKeyAndAMissingUrlIsRefusedBeforeAnythingOpens() {
    assertThatThrownBy(() -> factory().validate("fences", Map.of("password", "s3cr3t")))
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("key \"url\" is missing (e.g. url: jdbc:h2:/var/lib/app/fence)")
        .satisfies(e -> assertThat(((ConfigurationException) e).key()).contains("url"));
    assertThatThrownBy(
            () ->
                factory()
                    .create(
                        "fences",
                        Map.of("url", "jdbc:sqlite:x.db", "password", "s3cr3t", "user", "sa")))
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("which is not an H2 URL")
        .hasMessageNotContaining("s3cr3t");
  }
}
