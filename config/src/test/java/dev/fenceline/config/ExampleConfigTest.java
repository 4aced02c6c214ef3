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

import dev.fenceline.spi.Guarantee;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The documented example at the repository root loads and every destination opens. */
class ExampleConfigTest {

  private static final Path EXAMPLE = Path.of("..", "examples", "fenceline.yaml");

  @TempDir Path home;

  @Test
  void theExampleLoadsAndEachDestinationReportsItsGuaranteeAndWhy() throws Exception {
    Files.createDirectories(home.resolve("reports"));
    Map<String, String> environment =
        Map.of("FENCELINE_HOME", home.toString(), "PAYMENTS_API_TOKEN", "example-token-value");
    try (FencelineConfig config = FencelineConfig.load(EXAMPLE, environment::get)) {
      assertThat(config.storeNames()).containsExactly("main", "reports-dir");
      assertThat(config.destinationNames()).containsExactly("reports", "payments-api");
      assertThat(config.lease().holder()).isEqualTo("worker-a@host-1");

      assertThat(config.describe())
          .extracting(
              DestinationReport::name,
              DestinationReport::type,
              DestinationReport::guarantee,
              DestinationReport::strategy)
          .containsExactly(
              org.assertj.core.groups.Tuple.tuple(
                  "reports",
                  "vfs",
                  Guarantee.FENCED_BY_STAGING,
                  Strategy.STAGED_WITH_POINTER_STORE),
              org.assertj.core.groups.Tuple.tuple(
                  "payments-api", "http", Guarantee.FENCED_AT_INTENT, Strategy.FENCED_AT_INTENT));
      assertThat(config.describe().toString()).doesNotContain("example-token-value");
      assertThat(Files.exists(home.resolve("fenceline.db"))).isTrue();
    }
  }
}
