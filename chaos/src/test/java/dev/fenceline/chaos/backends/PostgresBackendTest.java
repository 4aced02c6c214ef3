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
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StoreException;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PostgresBackendTest {

  @TempDir Path dir;

  @Test
  void publishesThroughTheYamlAndKeepsEpochsAndReceiptsAcrossARestartAndAKill() throws Exception {
    try (PostgresBackend backend = PostgresBackend.start(dir.resolve("pg"))) {
      Path yaml = backend.writeConfig(dir);
      String port = backend.jdbcUrl();
      try (FencelineConfig config = FencelineConfig.load(yaml)) {
        Probe probe = new Probe(config, dir.resolve("payloads"));
        int round = 0;
        for (String kind : backend.storeFaults().kinds()) {
          round++;
          Probe.Published files = probe.publishNew("files", "r-" + kind, "job-" + round + "-0");

          String what = backend.storeFaults().inject(kind, new Random(round));
          assertThat(backend.running()).as(what).isFalse();
          // While it is down, a call to the issuer fails (connection refused), within the
          // configured login timeout (2 s) plus slack, and so does a publish.
          Probe.Timed acquire =
              Probe.time(() -> config.fenceline().tryAcquire(ResourceId.of("r-down")));
          assertThat(acquire.thrown()).as(what).isInstanceOf(StoreException.class);
          assertThat(acquire.millis()).isLessThan(10_000);
          assertThatThrownBy(
                  () ->
                      config
                          .destination("files")
                          .destination()
                          .lookup(files.resource(), OperationId.of("any")))
              .isInstanceOf(StoreException.class);

          backend.storeFaults().heal();
          assertThat(backend.running()).isTrue();
          assertThat(backend.jdbcUrl()).as("same port after " + kind).isEqualTo(port);
          long recovered =
              Probe.awaitRecovery(
                  () -> config.destination("files").destination().currentEpoch(files.resource()),
                  20_000);
          System.out.printf(
              "postgres %s: %s; calls work again %d ms after heal%n", kind, what, recovered);
          probe.assertSurvivedAndPublishAgain("files", files, "job-" + round + "-1");
        }
        assertThat(round).isEqualTo(2);
      }
      assertThatThrownBy(() -> backend.storeFaults().inject("leader-kill", new Random(1)))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("store-restart");
    }
  }
}
