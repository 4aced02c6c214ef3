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

import com.sun.net.httpserver.HttpServer;
import dev.fenceline.http.HttpApiDestination;
import dev.fenceline.spi.AlreadyApplied;
import dev.fenceline.spi.Applied;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.ResourceId;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An http destination from the file sends the configured request with the file as its body. */
class HttpDestinationWiringTest {

  /** One request as the fake API saw it. */
  record Seen(
      String method,
      String path,
      String contentType,
      String key,
      String authorization,
      String body) {}

  @TempDir Path directory;
  private HttpServer api;
  private final List<Seen> seen = new CopyOnWriteArrayList<>();

  @BeforeEach
  void startApi() throws Exception {
    api = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    api.createContext(
        "/",
        exchange -> {
          seen.add(
              new Seen(
                  exchange.getRequestMethod(),
                  exchange.getRequestURI().getRawPath(),
                  exchange.getRequestHeaders().getFirst("Content-Type"),
                  exchange.getRequestHeaders().getFirst("X-Request-Key"),
                  exchange.getRequestHeaders().getFirst("Authorization"),
                  new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8)));
          byte[] answer = "{\"id\":\"pay-77\"}".getBytes(StandardCharsets.UTF_8);
          exchange.getResponseHeaders().add("Content-Type", "application/json");
          exchange.sendResponseHeaders(201, answer.length);
          exchange.getResponseBody().write(answer);
          exchange.close();
        });
    api.start();
  }

  @AfterEach
  void stopApi() {
    api.stop(0);
  }

  @Test
  void publishesTheFileWithTheRequestTemplateKeyAndBearerTokenOnce() throws Exception {
    String yaml =
        ConfigFiles.sqliteAndDirectory(directory)
            + """
            allow-fenced-at-intent: true
            destinations:
              payments:
                type: http
                base-uri: http://127.0.0.1:%d/v1
                bearer-token-env: PAYMENTS_TOKEN
                idempotency-key-header: X-Request-Key
                max-attempts: 2
                keys-honoured: true
                backoff: {initial: 10ms, max: 20ms}
                receipt-fields: {payment-id: /id}
                request: {method: PUT, path: '/reports/{resource}/{operation}', content-type: application/json}
            """
                .formatted(api.getAddress().getPort());
    Path file = directory.resolve("payment.json");
    Files.writeString(file, "{\"amount\":42}");
    try (FencelineConfig config =
        ConfigFiles.load(directory, yaml, Map.of("PAYMENTS_TOKEN", "secret-bearer-1"))) {
      ConfiguredDestination payments = config.destination("payments");
      assertThat(payments.destination()).isInstanceOf(HttpApiDestination.class);
      assertThat(payments.why()).contains("main (jdbc)").contains("cannot compare epochs");
      // No lookup: max-attempts 2 re-sends blind, as declared by keys-honoured: true.
      assertThat(((HttpApiDestination) payments.destination()).resendRule())
          .isEqualTo(HttpApiDestination.ResendRule.KEYS_HONOURED);
      assertThat(payments.report().resendRule())
          .hasValueSatisfying(rule -> assertThat(rule).startsWith("keys honoured"));
      FencingToken token =
          config
              .issuer()
              .tryAcquire(ResourceId.of("orders/7"), "worker-a", Duration.ofSeconds(30))
              .orElseThrow()
              .token();

      var first = payments.publish(token, OperationId.of("pay 1"), file);
      var second = payments.publish(token, OperationId.of("pay 1"), file);

      assertThat(first).isInstanceOf(Applied.class);
      assertThat(((Applied) first).receipt().attributes()).containsEntry("payment-id", "pay-77");
      assertThat(second).isInstanceOf(AlreadyApplied.class);
      assertThat(seen).hasSize(1);
      Seen request = seen.get(0);
      assertThat(request.method()).isEqualTo("PUT");
      assertThat(request.path()).isEqualTo("/v1/reports/orders%2F7/pay%201");
      assertThat(request.contentType()).isEqualTo("application/json");
      assertThat(request.key()).isNotBlank();
      assertThat(request.authorization()).isEqualTo("Bearer secret-bearer-1");
      assertThat(request.body()).isEqualTo("{\"amount\":42}");
      assertThat(config.toString() + payments + config.describe())
          .doesNotContain("secret-bearer-1");
    }
  }
}
