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

import dev.fenceline.config.ConfiguredDestination;
import dev.fenceline.config.FencelineConfig;
import dev.fenceline.core.HeldLease;
import dev.fenceline.spi.Applied;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Receipt;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StoreException;
import dev.fenceline.spi.WriteOutcome;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HttpBackendTest {

  @TempDir Path dir;

  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  @Test
  void theFakeApiHonoursKeysAndLooksThemUp() throws Exception {
    try (HttpBackend api = HttpBackend.start(dir)) {
      assertThat(post(api, "/payments/r0", "k1", "a").statusCode()).isEqualTo(201);
      HttpResponse<String> replay = post(api, "/payments/r0", "k1", "a");
      assertThat(replay.statusCode()).isEqualTo(201);
      assertThat(replay.headers().firstValue("Idempotent-Replayed")).contains("true");
      assertThat(post(api, "/payments/r0", "k1", "b").statusCode()).isEqualTo(422);
      assertThat(get(api, "/payments?idempotency_key=k1").body())
          .contains("\"idempotency_key\":\"k1\"", "\"id\":\"pay-1\"");
      assertThat(get(api, "/payments?idempotency_key=k2").body()).isEqualTo("{\"data\":[]}");
      assertThat(api.payments()).isEqualTo(1);
    }
  }

  @Test
  void publishesThroughTheYamlAndSurvives5xxAndDroppedAnswersWithOneEffectPerOperation()
      throws Exception {
    try (HttpBackend api = HttpBackend.start(dir.resolve("api"))) {
      Path yaml = api.writeConfig(dir);
      try (FencelineConfig config = FencelineConfig.load(yaml)) {
        Probe probe = new Probe(config, dir.resolve("payloads"));
        Probe.Published before = probe.publishNew("payments", "r0", "job-1-0");
        assertThat(before.receipt().attribute("payment-id")).contains("pay-1");
        assertThat(api.payments()).isEqualTo(1);

        ResourceId r1 = ResourceId.of("r1");
        OperationId o5 = OperationId.of("job-2-0");
        HeldLease lease = config.fenceline().tryAcquire(r1).orElseThrow();
        try {
          config.fenceline().register(lease, config.destination("payments").destination());
          api.storeFaults().inject("api-5xx", new Random(1));
          assertThat(post(api, "/payments/x", "k-5xx", "a").statusCode()).isEqualTo(503);
          assertThatThrownBy(
                  () ->
                      config.destination("payments").publish(lease.token(), o5, probe.payload(o5)))
              .isInstanceOf(StoreException.class);
          assertThat(api.payments()).as("nothing applied while the API answers 503").isEqualTo(1);
          api.storeFaults().heal();
          // This process's circuit breaker is now open (30 s, not configurable in the YAML): a
          // fresh process on the same intents (a new chaos worker) resolves the operation.
          try (FencelineConfig other = FencelineConfig.load(yaml)) {
            ConfiguredDestination payments = other.destination("payments");
            WriteOutcome after = payments.publish(lease.token(), o5, probe.payload(o5));
            assertThat(after).isInstanceOf(Applied.class);
            assertThat(api.payments()).isEqualTo(2);

            OperationId drop = OperationId.of("job-2-1");
            api.storeFaults().inject("api-drop-answers", new Random(2));
            assertThatThrownBy(() -> post(api, "/payments/x", "k-drop", "a"))
                .isInstanceOf(IOException.class);
            int postsBefore = api.postsReceived();
            WriteOutcome dropped = payments.publish(lease.token(), drop, probe.payload(drop));
            int postsDuring = api.postsReceived() - postsBefore;
            // The API applied it once (the lookup found it), although its answer never came.
            assertThat(api.payments()).isEqualTo(4); // job-2-1 and the raw k-drop POST
            assertThat(postsDuring).isEqualTo(1);
            Receipt receipt = ((Applied) dropped).receipt();
            assertThat(receipt.attribute("payment-id")).contains("pay-4");
            api.storeFaults().heal();
            assertThat(payments.destination().lookup(r1, drop)).contains(receipt);
            Probe fresh = new Probe(other, dir.resolve("payloads"));
            fresh.assertSurvivedAndPublishAgain("payments", before, "job-1-1");
            assertThat(api.payments()).isEqualTo(5);
          }
        } finally {
          lease.close();
        }
      }
    }
  }

  private HttpResponse<String> post(HttpBackend api, String path, String key, String body)
      throws IOException, InterruptedException {
    return http.send(
        HttpRequest.newBuilder(URI.create(api.baseUri() + path))
            .header("Idempotency-Key", key)
            .timeout(Duration.ofSeconds(5))
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> get(HttpBackend api, String path)
      throws IOException, InterruptedException {
    return http.send(
        HttpRequest.newBuilder(URI.create(api.baseUri() + path))
            .timeout(Duration.ofSeconds(5))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
