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

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The conditional-write-serializing proxy in front of S3Proxy. (Publishing through the YAML, with
 * conditional writes through the proxy, is what {@code dev.fenceline.chaos.runs.S3ChaosRunTest}
 * does under faults.)
 */
class S3BackendTest {

  @TempDir Path dir;

  /**
   * Two writers race 30 times on one key with the same If-Match ETag through the proxy: exactly one
   * wins each time (S3Proxy 4.1.0 alone let both win 13 times in 40, TEST-SERVERS.md).
   */
  @Test
  void theProxyMakesIfMatchWritesAtomic() throws Exception {
    try (S3Backend backend = S3Backend.start(dir.resolve("s3"))) {
      java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
      String base = backend.endpoints().get("s3") + "/" + S3Backend.BUCKET + "/race-";
      java.util.concurrent.ExecutorService pool =
          java.util.concurrent.Executors.newFixedThreadPool(2);
      try {
        int doubleWins = 0;
        for (int i = 0; i < 30; i++) {
          java.net.URI key = java.net.URI.create(base + i);
          String etag =
              http.send(
                      java.net.http.HttpRequest.newBuilder(key)
                          .PUT(java.net.http.HttpRequest.BodyPublishers.ofString("v0"))
                          .build(),
                      java.net.http.HttpResponse.BodyHandlers.discarding())
                  .headers()
                  .firstValue("ETag")
                  .orElseThrow();
          java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
          java.util.List<java.util.concurrent.Future<Integer>> racers = new java.util.ArrayList<>();
          for (int w = 0; w < 2; w++) {
            String body = "v" + (w + 1);
            racers.add(
                pool.submit(
                    () -> {
                      go.await();
                      return http.send(
                              java.net.http.HttpRequest.newBuilder(key)
                                  .header("If-Match", etag)
                                  .PUT(java.net.http.HttpRequest.BodyPublishers.ofString(body))
                                  .build(),
                              java.net.http.HttpResponse.BodyHandlers.discarding())
                          .statusCode();
                    }));
          }
          go.countDown();
          int wins = 0;
          for (var racer : racers) {
            int status = racer.get();
            assertThat(status).isIn(200, 412);
            wins += status == 200 ? 1 : 0;
          }
          assertThat(wins).isPositive();
          doubleWins += wins - 1;
        }
        assertThat(doubleWins).as("races in which both If-Match writes won").isZero();
      } finally {
        pool.shutdownNow();
      }
    }
  }
}
