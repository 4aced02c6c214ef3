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
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class InterpolationTest {

  private static final Map<String, String> ENV = Map.of("HOME_DIR", "/srv", "EMPTY", "");

  private static Interpolation.Result resolve(String text) throws Interpolation.Unresolved {
    return Interpolation.resolve(text, ENV::get);
  }

  @Test
  void replacesVariablesAndDefaultsAsAShellDoes() throws Exception {
    assertThat(resolve("${HOME_DIR}/db").value()).isEqualTo("/srv/db");
    assertThat(resolve("${HOME_DIR}/db").variables()).isEqualTo(List.of("HOME_DIR"));
    assertThat(resolve("${MISSING:-/var/lib}").value()).isEqualTo("/var/lib");
    assertThat(resolve("${EMPTY:-fallback}").value()).isEqualTo("fallback");
    assertThat(resolve("${EMPTY}").value()).isEmpty();
    assertThat(resolve("${MISSING:-}").value()).isEmpty();
    assertThat(resolve("cost $$5 and $${HOME_DIR}").value()).isEqualTo("cost $$5 and ${HOME_DIR}");
    assertThat(resolve("no references").variables()).isEmpty();
  }

  @Test
  void anUnsetVariableWithoutDefaultOrAnUnclosedReferenceIsAnError() {
    assertThatThrownBy(() -> resolve("${MISSING}"))
        .isInstanceOf(Interpolation.Unresolved.class)
        .hasMessage("environment variable MISSING is not set");
    assertThatThrownBy(() -> resolve("${HOME_DIR"))
        .isInstanceOf(Interpolation.Unresolved.class)
        .hasMessageContaining("not closed");
  }

  @Test
  void durationsReadTheUnitsPeopleWrite() {
    assertThat(Durations.parse("500ms")).contains(Duration.ofMillis(500));
    assertThat(Durations.parse("10s")).contains(Duration.ofSeconds(10));
    assertThat(Durations.parse("2m")).contains(Duration.ofMinutes(2));
    assertThat(Durations.parse("1h")).contains(Duration.ofHours(1));
    assertThat(Durations.parse("PT30S")).contains(Duration.ofSeconds(30));
    assertThat(Durations.parse("0")).contains(Duration.ZERO);
    assertThat(Durations.parse("ten seconds")).isEmpty();
    assertThat(Durations.parse("10")).isEmpty();
    assertThat(Durations.format(Duration.ofMillis(1500))).isEqualTo("1500ms");
    assertThat(Durations.format(Duration.ofHours(1))).isEqualTo("3600s");
  }
}
