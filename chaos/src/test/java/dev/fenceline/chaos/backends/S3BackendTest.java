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
package dev.fenceline.chaos.backends;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fenceline.config.FencelineConfig;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class S3BackendTest {

  @TempDir Path dir;

  @Test
  void publishesThroughTheYamlWithConditionalWritesThroughTheProxy() throws Exception {
    try (S3Backend backend = S3Backend.start(dir.resolve("s3"))) {
      for (String option : backend.jvmOptions()) {
        String[] pair = option.substring(2).split("=", 2);
        System.setProperty(pair[0], pair[1]);
      }
      Path yaml = backend.writeConfig(dir);
      try (FencelineConfig config = FencelineConfig.load(yaml)) {
        assertThat(config.destination("files").why()).contains("bucket");
        Probe probe = new Probe(config, dir.resolve("payloads"));
        Probe.Published before = probe.publishNew("files", "r0", "job-1-0");
        long conditional = backend.conditionalWrites();
        assertThat(conditional).as("conditional writes seen by the proxy").isPositive();
        probe.assertSurvivedAndPublishAgain("files", before, "job-1-1");
        assertThat(backend.conditionalWrites()).isGreaterThan(conditional);
        System.out.printf(
            "s3: %s; %d conditional writes serialized%n",
            config.destination("files").why(), backend.conditionalWrites());
      }
      assertThat(backend.storeFaults().kinds()).isEmpty();
      assertThatThrownBy(() -> backend.storeFaults().inject("store-kill", new Random(1)))
          .isInstanceOf(IllegalArgumentException.class);
      assertThat(backend.endpoints()).containsKeys("s3", "s3-server");
    }
  }
}
