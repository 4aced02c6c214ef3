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

import dev.fenceline.config.FencelineConfig;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ServeBackendTest {

  @TempDir Path dir;

  @Test
  void servesABackendInAChildProcessUntilStdinCloses() throws Exception {
    Process process =
        new ProcessBuilder(
                Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                ServeBackend.class.getName(),
                "http",
                dir.toString())
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .start();
    try {
      BufferedReader out =
          new BufferedReader(
              new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
      String line;
      String ready = null;
      while ((line = out.readLine()) != null) {
        if (line.startsWith("ready ")) {
          ready = line.substring("ready ".length());
          break;
        }
      }
      assertThat(ready).isEqualTo(dir.resolve("fenceline.yaml").toString());
      try (FencelineConfig config = FencelineConfig.load(Path.of(ready))) {
        new Probe(config, dir.resolve("payloads")).publishNew("payments", "r0", "job-1-0");
      }
      process.getOutputStream().close();
      assertThat(process.waitFor(20, TimeUnit.SECONDS)).as("exits when stdin closes").isTrue();
      assertThat(process.exitValue()).isZero();
    } finally {
      process.destroyForcibly();
    }
  }

  @Test
  void refusesAnUnknownBackend() {
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> ServeBackend.start("redis", dir))
        .hasMessageContaining("postgres, zookeeper, s3 or http");
  }
}
