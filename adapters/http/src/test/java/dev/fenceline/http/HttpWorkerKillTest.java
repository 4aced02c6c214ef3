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
package dev.fenceline.http;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.stubbing.ServeEvent;
import dev.fenceline.jdbc.JdbcStore;
import dev.fenceline.spi.AlreadyApplied;
import dev.fenceline.spi.Applied;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.Intent;
import dev.fenceline.spi.RejectedStale;
import dev.fenceline.spi.WriteOutcome;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real crash: worker A runs in its own JVM and is killed with SIGKILL, once after its intent is
 * committed and before it sent anything, once while its request is at the API. Worker B, newer,
 * opens the same SQLite file after the crash. Across both, every request the API received carries
 * the operation's one idempotency key and the API applied the payment exactly once.
 */
class HttpWorkerKillTest {

  private static final String KEY = HttpApiDestinationContract.KEY;

  @TempDir Path dir;
  private FakePaymentsApi api;
  private WireMockServer server;

  @BeforeEach
  void startApi() {
    api = new FakePaymentsApi();
    server = new WireMockServer(options().dynamicPort().extensions(api));
    server.start();
    server.stubFor(
        get(urlPathEqualTo("/payments"))
            .willReturn(
                aResponse()
                    .withStatus(200)
                    .withTransformers(FakePaymentsApi.NAME)
                    .withTransformerParameter("lookup", true)));
  }

  @AfterEach
  void stopApi() {
    server.stop();
  }

  @Test
  void killedAfterItsIntentBeforeSendingThenTheNewOwnerSendsUnderTheSameKeyOnce() throws Exception {
    stubPost(Duration.ZERO);
    Path database = dir.resolve("intents.db");

    Process workerA = startWorkerA(database, "after-intent");
    assertThat(firstLine(workerA)).isEqualTo("PAUSED");
    kill(workerA);
    assertThat(journal()).as("worker A died before sending").isEmpty();

    WriteOutcome outcome = workerB(database);

    assertThat(outcome).isInstanceOf(Applied.class);
    assertThat(journal()).extracting(r -> r[0]).containsExactly("GET", "POST");
    assertThat(journal()).extracting(r -> r[1]).containsOnly(KEY);
    assertThat(api.effectsPerKey()).containsExactly(Map.entry(KEY, 1L));
  }

  @Test
  void killedWhileItsRequestIsAtTheApiThenTheNewOwnerFindsItAndSendsNothing() throws Exception {
    stubPost(Duration.ofMinutes(5)); // A's answer never comes back before A is killed
    Path database = dir.resolve("intents.db");

    Process workerA = startWorkerA(database, "in-flight");
    assertThat(api.awaitEffects(1, Duration.ofSeconds(60)))
        .as("worker A's payment reached the API")
        .isTrue();
    kill(workerA);

    WriteOutcome outcome = workerB(database);

    assertThat(outcome).isInstanceOf(AlreadyApplied.class);
    assertThat(((AlreadyApplied) outcome).receipt().attributes())
        .containsEntry("payment-id", api.paymentFor(KEY))
        .containsEntry("found-by", "lookup");
    assertThat(journal()).extracting(r -> r[0]).containsExactly("POST", "GET");
    assertThat(journal()).extracting(r -> r[1]).containsOnly(KEY);
    assertThat(api.effectsPerKey()).containsExactly(Map.entry(KEY, 1L));
  }

  /** Worker B: newer epoch, a new store on the file, a new destination; then A's token again. */
  private WriteOutcome workerB(Path database) {
    try (JdbcStore store = JdbcStore.sqlite(database)) {
      HttpApiDestination destination =
          HttpApiDestination.builder()
              .name(HttpApiDestinationContract.NAME)
              .baseUri(URI.create(server.baseUrl()))
              .intentStore(store.intentStore(HttpApiDestinationContract.NAME))
              .receiptField("payment-id", "/id")
              .lookup(HttpApiDestinationContract.LOOKUP, "/data/0")
              .build();
      WriteOutcome outcome =
          destination.write(
              token(2, "worker-b"),
              HttpApiDestinationContract.OPERATION,
              HttpApiDestinationContract.PAYMENT);
      int seen = journal().size();
      assertThat(
              destination.write(
                  token(1, "worker-a"),
                  HttpApiDestinationContract.OPERATION,
                  HttpApiDestinationContract.PAYMENT))
          .as("worker A, restarted with its old token, is stale at the intent")
          .isInstanceOf(RejectedStale.class);
      assertThat(journal()).hasSize(seen);
      Intent intent =
          store
              .intentStore(HttpApiDestinationContract.NAME)
              .lookup(HttpApiDestinationContract.RESOURCE, HttpApiDestinationContract.OPERATION)
              .orElseThrow();
      assertThat(intent.completed()).isTrue();
      assertThat(intent.attempts()).isEqualTo(2);
      return outcome;
    }
  }

  private static FencingToken token(long epoch, String holder) {
    return new FencingToken(
        "issuer-1", HttpApiDestinationContract.RESOURCE, Epoch.of(epoch), holder);
  }

  private void stubPost(Duration delay) {
    server.stubFor(
        post(urlEqualTo("/payments"))
            .willReturn(
                aResponse()
                    .withStatus(201)
                    .withFixedDelay((int) delay.toMillis())
                    .withTransformers(FakePaymentsApi.NAME)
                    .withTransformerParameter("effect", true)));
  }

  /** Method and idempotency key of every request, oldest first. */
  private List<String[]> journal() {
    List<ServeEvent> events = new ArrayList<>(server.getAllServeEvents());
    Collections.reverse(events);
    return events.stream()
        .map(
            e ->
                new String[] {
                  e.getRequest().getMethod().getName(), e.getRequest().getHeader("Idempotency-Key")
                })
        .toList();
  }

  private Process startWorkerA(Path database, String mode) throws Exception {
    String java = ProcessHandle.current().info().command().orElse("java");
    return new ProcessBuilder(
            List.of(
                java,
                "-cp",
                System.getProperty("java.class.path"),
                HttpWorkerProcess.class.getName(),
                database.toString(),
                server.baseUrl(),
                mode))
        .redirectError(ProcessBuilder.Redirect.INHERIT)
        .start();
  }

  private static String firstLine(Process process) throws Exception {
    CompletableFuture<String> line =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return new BufferedReader(
                        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))
                    .readLine();
              } catch (java.io.IOException e) {
                return "IOException: " + e.getMessage();
              }
            });
    return line.get(60, TimeUnit.SECONDS);
  }

  private static void kill(Process process) throws Exception {
    process.destroyForcibly(); // SIGKILL: nothing runs in the worker after this
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).isEqualTo(137);
  }
}
