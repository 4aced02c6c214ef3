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
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class AdapterConfigTest {

  private static final Set<String> KEYS = Set.of("url", "timeout", "strict");

  private static AdapterConfig config(Map<String, String> values) {
    return AdapterConfig.of("jdbc", "main", values, KEYS);
  }

  @Test
  void unknownKeysAreRefusedListingTheKnownOnes() {
    assertThatThrownBy(() -> config(Map.of("uri", "x")))
        .isInstanceOf(ConfigurationException.class)
        .hasMessage(
            "Cannot configure jdbc adapter \"main\": unknown key \"uri\" (known keys: [strict,"
                + " timeout, url])");
  }

  @Test
  void requiredKeysNameAnExample() {
    assertThatThrownBy(() -> config(Map.of()).required("url", "jdbc:sqlite:fenceline.db"))
        .hasMessage(
            "Cannot configure jdbc adapter \"main\": key \"url\" is missing (e.g. url:"
                + " jdbc:sqlite:fenceline.db)");
    assertThat(config(Map.of("url", "u")).required("url", "x")).isEqualTo("u");
    assertThat(config(Map.of()).optional("url")).isEmpty();
  }

  @Test
  void durationsInFourSpellings() {
    assertThat(config(Map.of("timeout", "30s")).duration("timeout"))
        .contains(Duration.ofSeconds(30));
    assertThat(config(Map.of("timeout", "250ms")).duration("timeout"))
        .contains(Duration.ofMillis(250));
    assertThat(config(Map.of("timeout", "2m")).duration("timeout")).contains(Duration.ofMinutes(2));
    assertThat(config(Map.of("timeout", "PT1.5S")).duration("timeout"))
        .contains(Duration.ofMillis(1500));
    assertThatThrownBy(() -> config(Map.of("timeout", "soon")).duration("timeout"))
        .hasMessageContaining("key \"timeout\" has value \"soon\"")
        .hasMessageContaining("30s");
  }

  @Test
  void booleansAreTrueOrFalseOnly() {
    assertThat(config(Map.of("strict", "false")).bool("strict")).contains(false);
    assertThatThrownBy(() -> config(Map.of("strict", "yes")).bool("strict"))
        .hasMessageContaining("write true or false");
  }
}
