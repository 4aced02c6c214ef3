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

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fenceline.http.StallingApi.Complete;
import dev.fenceline.http.StallingApi.Endless;
import dev.fenceline.http.StallingApi.Received;
import dev.fenceline.http.StallingApi.StallAfter;
import dev.fenceline.spi.AlreadyApplied;
import dev.fenceline.spi.Applied;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.Intent;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StepListener;
import dev.fenceline.spi.StoreException;
import dev.fenceline.spi.WriteOutcome;
import dev.fenceline.tck.memory.InMemoryIntentStore;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.retry.RetryConfig;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The attempt time limit covers the whole exchange, body included, and a body is never kept beyond
 * its bound: against {@link StallingApi}, which sends headers and then stalls or never ends. The
 * JUnit timeouts only detect a hang (the bug these tests guard against); they order nothing.
 */
class AttemptTimeLimitTest {

  private static final HttpClient CLIENT =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  private static final Duration LIMIT = Duration.ofMillis(300);

  /** Far above the limit, far below the JUnit timeouts: an attempt ending within it ended early. */
  private static final Duration ENDED_WITHIN = Duration.ofSeconds(4);

  private static final ResourceId RESOURCE = ResourceId.of("invoice-7");
  private static final OperationId OPERATION = OperationId.of("pay-invoice-7");
  private static final String NAME = "payments";
  private static final String KEY = IdempotencyKeys.of(NAME, RESOURCE, OPERATION);
  private static final ApiRequest PAYMENT = ApiRequest.postJson("/payments", "{\"amount\":7}");

  private final StallingApi api = new StallingApi();

  @AfterEach
  void stopApi() {
    api.close();
  }

  private ApiCalls calls(Duration limit, int maxAttempts, int maxResponseBytes) {
    return new ApiCalls(
        CLIENT,
        api.baseUri(),
        "Idempotency-Key",
        null,
        limit,
        ResilienceSettings.DEFAULT_CALL_TIME_LIMIT,
        System::nanoTime,
        RetryConfig.custom().maxAttempts(maxAttempts).waitDuration(Duration.ofMillis(1)).build(),
        CircuitBreaker.ofDefaults("test"),
        maxResponseBytes,
        "test");
  }

  private static FencingToken token() {
    return new FencingToken("issuer-1", RESOURCE, Epoch.of(1), "worker-a");
  }

  private static Duration since(long start) {
    return Duration.ofNanos(System.nanoTime() - start);
  }

  @Test
  @Timeout(value = 20, unit = TimeUnit.SECONDS)
  void anAttemptWhoseBodyStallsAfterItsHeadersEndsAtTheTimeLimitAndHangsUp() throws Exception {
    api.answer("GET", new StallAfter(200, "{\"id\":", 1000));

    long start = System.nanoTime();
    ApiCalls.SendReport report =
        calls(LIMIT, 1, 1024)
            .call("GET", api.baseUri().resolve("/things/1"), Map.of(), r -> false, false);

    assertThat(since(start)).isLessThan(ENDED_WITHIN);
    ApiCalls.Response response = report.response();
    assertThat(response.status()).as("the status line is a definite answer").isEqualTo(200);
    assertThat(new String(response.body(), StandardCharsets.UTF_8)).isEqualTo("{\"id\":");
    assertThat(response.truncated()).isFalse();
    assertThat(response.bodyError())
        .hasValue("its body did not arrive within the attempt time limit of PT0.3S");
    assertThat(api.awaitHangups(1, Duration.ofSeconds(10)))
        .as("cancelling the exchange closed the connection (JDK 17 cancel(true) on HTTP/1.1)")
        .isTrue();
  }

  @Test
  @Timeout(value = 20, unit = TimeUnit.SECONDS)
  void aHugeBodyIsCutAtTheBoundAndTheReadStops() throws Exception {
    api.answer("GET", new Endless(200));
    int bound = 64 * 1024;

    long start = System.nanoTime();
    ApiCalls.SendReport report =
        calls(Duration.ofSeconds(60), 1, bound)
            .call("GET", api.baseUri().resolve("/huge"), Map.of(), r -> false, false);

    assertThat(since(start))
        .as("the read stopped at the bound, not at the 60 s time limit")
        .isLessThan(ENDED_WITHIN);
    ApiCalls.Response response = report.response();
    assertThat(response.body()).as("the kept bytes").hasSize(bound);
    assertThat(response.truncated()).isTrue();
    assertThat(response.bodyError()).isEmpty();
    assertThat(api.awaitHangups(1, Duration.ofSeconds(10))).as("the client hung up").isTrue();
    assertThat(api.endlessBytesWritten())
        .as("the server could only fill the socket buffers beyond what was read")
        .isLessThan(32L * 1024 * 1024);
  }

  // ---- intent mode ----------------------------------------------------------------------------

  private final InMemoryIntentStore.Storage storage = new InMemoryIntentStore.Storage();

  private InMemoryIntentStore intents() {
    return new InMemoryIntentStore(storage, NAME, StepListener.NONE, Clock.systemUTC(), null);
  }

  private HttpApiDestination intentMode(int maxAttempts) {
    return HttpApiDestination.builder()
        .name(NAME)
        .baseUri(api.baseUri())
        .intentStore(intents())
        .httpClient(CLIENT)
        .attemptTimeLimit(LIMIT)
        .maxAttempts(maxAttempts)
        .backoff(Duration.ofMillis(1), 2.0, Duration.ofMillis(5))
        .circuitBreaker(
            CircuitBreakerConfig.custom().slidingWindowSize(100).minimumNumberOfCalls(100).build())
        .receiptField("payment-id", "/id")
        .lookup("/payments?idempotency_key={key}", "/data/0")
        .build();
  }

  @Test
  @Timeout(value = 20, unit = TimeUnit.SECONDS)
  void intentModeRecordsASuccessWhoseBodyStallsAsAppliedWithinTheTimeLimit() {
    api.answer("POST", new StallAfter(201, "{\"id\":\"pay_", 200));

    long start = System.nanoTime();
    WriteOutcome outcome = intentMode(3).write(token(), OPERATION, PAYMENT);

    assertThat(since(start)).isLessThan(ENDED_WITHIN);
    assertThat(outcome).isInstanceOf(Applied.class);
    assertThat(((Applied) outcome).receipt().attributes())
        .containsEntry("http-status", "201")
        .containsEntry("idempotency-key", KEY)
        .containsEntry(
            "response-error",
            "its body did not arrive within the attempt time limit of PT0.3S; fields not read")
        .doesNotContainKey("payment-id");
    assertThat(api.methods())
        .as("a 2xx is a definite answer: no retry, no lookup")
        .containsExactly("POST");
    assertThat(intents().lookup(RESOURCE, OPERATION)).get().matches(Intent::completed);
  }

  @Test
  @Timeout(value = 20, unit = TimeUnit.SECONDS)
  void intentModeRetriesAServerErrorWhoseBodyStallsThenLooksUpAndStaysInDoubt() {
    api.answer("POST", new StallAfter(503, "{\"error\":", 200));
    api.answer("GET", new Complete(200, Map.of(), "{\"data\":[]}"));

    long start = System.nanoTime();
    assertThatThrownBy(() -> intentMode(3).write(token(), OPERATION, PAYMENT))
        .isInstanceOf(ApiOutcomeUnknownException.class)
        .hasMessageContaining("the last of 3 attempt(s) answered HTTP 503");

    assertThat(since(start))
        .as("three attempts of 0.3 s, each re-send and the end asking the lookup")
        .isLessThan(ENDED_WITHIN);
    // A 503 may have landed: every re-send asks the lookup first ("not found" here).
    assertThat(api.methods()).containsExactly("POST", "GET", "POST", "GET", "POST", "GET");
    assertThat(api.journal())
        .extracting(received -> received.header("Idempotency-Key"))
        .containsOnly(KEY);
    assertThat(intents().lookup(RESOURCE, OPERATION).orElseThrow().completed()).isFalse();
  }

  // ---- native mode ----------------------------------------------------------------------------

  private NativeHttpDestination nativeMode(int maxAttempts) {
    return NativeHttpDestination.builder()
        .name(NAME)
        .baseUri(api.baseUri())
        .httpClient(CLIENT)
        .attemptTimeLimit(LIMIT)
        .maxAttempts(maxAttempts)
        .backoff(Duration.ofMillis(1), 2.0, Duration.ofMillis(5))
        .replayMarkedBy(ReplayMarker.header("Idempotent-Replayed", "true"))
        .registerRequest("/fencing/register")
        .currentEpochRequest("/fencing/epoch?resource={resource}")
        .build();
  }

  @Test
  @Timeout(value = 20, unit = TimeUnit.SECONDS)
  void nativeModeRetriesASuccessWhoseBodyStallsAndTakesTheReceiptFromTheReplay() {
    String receipt = "{\"epoch\":1,\"recorded-at\":\"2026-10-27T10:15:30Z\"}";
    api.answer(
        "POST",
        new StallAfter(201, "{\"epoch\":1,", 200),
        new Complete(201, Map.of("Idempotent-Replayed", "true"), receipt));

    long start = System.nanoTime();
    WriteOutcome outcome = nativeMode(3).write(token(), OPERATION, PAYMENT);

    assertThat(since(start)).isLessThan(ENDED_WITHIN);
    assertThat(outcome).isInstanceOf(AlreadyApplied.class);
    assertThat(((AlreadyApplied) outcome).receipt().epoch()).isEqualTo(Epoch.of(1));
    assertThat(api.methods()).containsExactly("POST", "POST");
    assertThat(api.journal())
        .extracting(Received::path, received -> received.header("Idempotency-Key"))
        .containsOnly(org.assertj.core.groups.Tuple.tuple("/payments", KEY));
  }

  @Test
  @Timeout(value = 20, unit = TimeUnit.SECONDS)
  void nativeModeRetriesAServerErrorWhoseBodyStallsAndReportsTheOutcomeUnknown() {
    api.answer("POST", new StallAfter(503, "{\"message\":", 200));

    long start = System.nanoTime();
    assertThatThrownBy(() -> nativeMode(2).write(token(), OPERATION, PAYMENT))
        .isInstanceOfSatisfying(StoreException.class, e -> assertThat(e.outcomeUnknown()).isTrue())
        .hasMessageContaining("the API answered 503");

    assertThat(since(start)).isLessThan(ENDED_WITHIN);
    assertThat(api.methods()).containsExactly("POST", "POST");
  }
}
