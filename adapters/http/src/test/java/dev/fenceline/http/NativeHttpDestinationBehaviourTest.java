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

import dev.fenceline.spi.AlreadyApplied;
import dev.fenceline.spi.Applied;
import dev.fenceline.spi.Capability;
import dev.fenceline.spi.ConfigurationException;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingStep;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.Guarantee;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Receipt;
import dev.fenceline.spi.RejectedStale;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StepListener;
import dev.fenceline.spi.StoreException;
import dev.fenceline.spi.UnsupportedCapabilityException;
import dev.fenceline.tck.PausePoints;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the native mode claims, and how it answers failures, against {@link FakeFencedApi}. */
class NativeHttpDestinationBehaviourTest {

  private static final HttpClient CLIENT =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  private static final String SECRET = "sk_test_51Hq0nOTaREALtoken7c1e";

  @TempDir Path directory;
  private FakeFencedApi api;
  private String issuer;

  @BeforeEach
  void startApi() {
    api = new FakeFencedApi(directory);
    issuer = api.store().leaseIssuer().id();
  }

  @AfterEach
  void stopApi() {
    api.close();
  }

  private NativeHttpDestination.Builder builder(StepListener steps) {
    return FakeFencedApi.configuredFor(api.profile(steps, Optional.empty()).baseUri())
        .name("reports")
        .httpClient(CLIENT)
        .attemptTimeLimit(Duration.ofSeconds(30))
        .backoff(Duration.ofMillis(1), 2.0, Duration.ofMillis(5))
        // Tests that script errors must not trip the breaker; one test sets a tight breaker.
        .circuitBreaker(
            CircuitBreakerConfig.custom().slidingWindowSize(100).minimumNumberOfCalls(100).build());
  }

  private FencingToken token(ResourceId resource, long epoch) {
    return new FencingToken(issuer, resource, Epoch.of(epoch), "worker-" + epoch);
  }

  private static ApiRequest report(String payload) {
    return ApiRequest.of(
        "POST",
        "/reports",
        "text/plain",
        Map.of(),
        new ApiRequest.BytesBody(payload.getBytes(StandardCharsets.UTF_8)));
  }

  @Test
  void aConfigurationWithoutReplayReportsAGuaranteeBelowFenced() {
    NativeHttpDestination complete = builder(StepListener.NONE).build();
    NativeHttpDestination noReplay =
        NativeHttpDestination.builder()
            .name("reports")
            .baseUri(URI.create("https://api.example.com/v1"))
            .registerRequest("/fencing/register")
            .currentEpochRequest("/fencing/epoch?resource={resource}")
            .lookupRequest("/operations?key={idempotency-key}")
            .build();
    NativeHttpDestination tokensOnly =
        NativeHttpDestination.builder()
            .name("reports")
            .baseUri(URI.create("https://api.example.com/v1"))
            .registerRequest("/fencing/register")
            .currentEpochRequest("/fencing/epoch?resource={resource}")
            .build();

    assertThat(complete.capabilities())
        .containsExactlyInAnyOrder(
            Capability.NATIVE_EPOCH_CHECK, Capability.OPERATION_RECORD, Capability.RESULT_LOOKUP);
    assertThat(complete.guarantee()).isEqualTo(Guarantee.FENCED);
    assertThat(noReplay.capabilities())
        .as("an API that checks tokens but does not replay results: no epoch check is claimed")
        .isEqualTo(EnumSet.of(Capability.RESULT_LOOKUP));
    assertThat(noReplay.guarantee()).isEqualTo(Guarantee.UNGUARDED);
    assertThat(tokensOnly.capabilities()).isEmpty();
    assertThat(tokensOnly.guarantee()).isEqualTo(Guarantee.UNGUARDED);
    assertThatThrownBy(() -> tokensOnly.lookup(ResourceId.of("r"), OperationId.of("op")))
        .isInstanceOf(UnsupportedCapabilityException.class)
        .hasMessageContaining("Cannot look up operation op of r at reports")
        .hasMessageContaining("call lookupRequest(path)");
  }

  @Test
  void aStaleTokenIsRejectedWithTheApisCurrentEpochAndTheTableIsUnchanged() {
    ResourceId resource = ResourceId.of("reports/nightly");
    NativeHttpDestination destination = builder(StepListener.NONE).build();
    assertThat(destination.write(token(resource, 34), OperationId.of("b"), report("B")))
        .isInstanceOf(Applied.class);

    assertThat(destination.write(token(resource, 33), OperationId.of("a"), report("A")))
        .isEqualTo(new RejectedStale(resource, Epoch.of(33), Epoch.of(34)));

    assertThat(api.businessRequests()).as("both requests reached the API").isEqualTo(2);
    assertThat(api.applyCount(resource)).isEqualTo(1);
    assertThat(api.published(resource)).contains("B");
    assertThat(destination.lookup(resource, OperationId.of("a"))).isEmpty();
  }

  @Test
  void aReplayGivesTheReceiptOfTheFirstAnswerByteForByte() {
    ResourceId resource = ResourceId.of("reports/replay");
    NativeHttpDestination destination = builder(StepListener.NONE).build();
    Receipt first =
        ((Applied) destination.write(token(resource, 3), OperationId.of("r-1"), report("x")))
            .receipt();

    assertThat(destination.write(token(resource, 4), OperationId.of("r-1"), report("x")))
        .isEqualTo(new AlreadyApplied(first));
    assertThat(first.epoch()).isEqualTo(Epoch.of(3));
    assertThat(first.destination()).isEqualTo("reports");
    assertThat(first.attributes()).containsEntry("rows", "1");
    assertThat(api.applyCount(resource)).isEqualTo(1);
  }

  @Test
  void theBearerTokenIsSentButNeverAppearsInMessages() {
    api.requireBearer(SECRET);
    ResourceId resource = ResourceId.of("payments/acct-42");
    NativeHttpDestination destination =
        builder(StepListener.NONE)
            .bearerTokenFromEnv("PAYMENTS_API_TOKEN")
            .environment(Map.of("PAYMENTS_API_TOKEN", SECRET)::get)
            .build();

    assertThat(destination.write(token(resource, 1), OperationId.of("p-1"), report("pay")))
        .isInstanceOf(Applied.class);
    assertThat(api.lastAuthorization()).contains("Bearer " + SECRET);

    // An API that echoes the credential in its error text.
    api.answerNextWriteWith(400, "rejected Authorization: Bearer " + SECRET);
    assertThatThrownBy(
            () -> destination.write(token(resource, 1), OperationId.of("p-2"), report("pay")))
        .isInstanceOfSatisfying(StoreException.class, e -> assertThat(e.outcomeUnknown()).isFalse())
        .hasMessageContaining("rejected Authorization: Bearer ***")
        .hasMessageNotContaining(SECRET);
    for (int attempt = 0; attempt < 3; attempt++) {
      api.answerNextWriteWith(503, "upstream said " + SECRET);
    }
    assertThatThrownBy(
            () -> destination.write(token(resource, 1), OperationId.of("p-3"), report("pay")))
        .hasMessageNotContaining(SECRET);
    NativeHttpDestination wrongToken =
        builder(StepListener.NONE)
            .bearerTokenFromEnv("PAYMENTS_API_TOKEN")
            .environment(Map.of("PAYMENTS_API_TOKEN", SECRET + "x")::get)
            .build();
    assertThatThrownBy(
            () -> wrongToken.write(token(resource, 1), OperationId.of("p-4"), report("pay")))
        .hasMessageContaining("the API answered 401")
        .hasMessageNotContaining(SECRET);
    assertThat(destination.toString()).doesNotContain(SECRET);
    assertThatThrownBy(
            () ->
                builder(StepListener.NONE)
                    .bearerTokenFromEnv("PAYMENTS_API_TOKEN")
                    .environment(Map.of("PAYMENTS_API_TOKEN", SECRET + " \n")::get)
                    .build())
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("PAYMENTS_API_TOKEN")
        .hasMessageNotContaining(SECRET);
    assertThatThrownBy(
            () ->
                builder(StepListener.NONE)
                    .baseUri(URI.create("https://user:" + SECRET + "@api.example.com/v1")))
        .isInstanceOf(ConfigurationException.class)
        .hasMessageNotContaining(SECRET);
  }

  @Test
  void anAnswerLostToTheAttemptTimeoutIsOutcomeUnknownAndTheLookupFindsTheOperation() {
    ResourceId resource = ResourceId.of("reports/lost");
    PausePoints pauses = new PausePoints();
    PausePoints.Pause afterCommit = pauses.pauseAt(FencingStep.AFTER_COMMIT, "worker-5");
    // One attempt: a retry would be answered with the replay, and this test is about the lost one.
    NativeHttpDestination impatient =
        builder(pauses).attemptTimeLimit(Duration.ofMillis(300)).maxAttempts(1).build();
    NativeHttpDestination destination = builder(StepListener.NONE).build();

    CompletableFuture<Void> waitForCommit = CompletableFuture.runAsync(afterCommit::awaitReached);
    assertThatThrownBy(
            () -> impatient.write(token(resource, 5), OperationId.of("lost-1"), report("L")))
        .isInstanceOfSatisfying(StoreException.class, e -> assertThat(e.outcomeUnknown()).isTrue())
        .hasMessageContaining("Cannot write operation lost-1 of reports/lost to reports")
        .hasMessageContaining("no answer within the attempt time limit of PT0.3S")
        .hasMessageContaining("retry with the same operation ID");
    waitForCommit.join();
    afterCommit.resume();

    Receipt found = destination.lookup(resource, OperationId.of("lost-1")).orElseThrow();
    assertThat(destination.write(token(resource, 5), OperationId.of("lost-1"), report("L")))
        .isEqualTo(new AlreadyApplied(found));
    assertThat(api.applyCount(resource)).isEqualTo(1);
  }

  @Test
  void aRefusedConnectionIsAFailureWhereNothingWasApplied() throws IOException {
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0)) {
      closedPort = socket.getLocalPort();
    }
    NativeHttpDestination unreachable =
        builder(StepListener.NONE).baseUri(URI.create("http://127.0.0.1:" + closedPort)).build();

    assertThatThrownBy(
            () ->
                unreachable.write(token(ResourceId.of("r"), 1), OperationId.of("op"), report("x")))
        .isInstanceOfSatisfying(StoreException.class, e -> assertThat(e.outcomeUnknown()).isFalse())
        .hasMessageContaining("the connection failed")
        .hasMessageContaining("nothing reached the API");
  }

  @Test
  void a5xxOrAStaleStatusWithoutAnEpochIsOutcomeUnknownAndOtherClientErrorsAreNot() {
    ResourceId resource = ResourceId.of("reports/errors");
    NativeHttpDestination destination = builder(StepListener.NONE).build();

    for (int attempt = 0; attempt < 3; attempt++) {
      api.answerNextWriteWith(500, "database on fire");
    }
    assertThatThrownBy(
            () -> destination.write(token(resource, 1), OperationId.of("e-1"), report("x")))
        .isInstanceOfSatisfying(StoreException.class, e -> assertThat(e.outcomeUnknown()).isTrue())
        .hasMessage(
            "Cannot write operation e-1 of reports/errors to reports: the API answered 500:"
                + " database on fire (the API may have applied it; retry with the same operation"
                + " ID, which sends the same idempotency key, or look the result up)");
    for (int attempt = 0; attempt < 3; attempt++) {
      api.answerNextWriteWith(409, "a request with this key is in progress");
    }
    assertThatThrownBy(
            () -> destination.write(token(resource, 1), OperationId.of("e-2"), report("x")))
        .as("409 without a current epoch: the same key is still being processed")
        .isInstanceOfSatisfying(StoreException.class, e -> assertThat(e.outcomeUnknown()).isTrue());
    api.answerNextWriteWith(400, "amount is missing");
    assertThatThrownBy(
            () -> destination.write(token(resource, 1), OperationId.of("e-3"), report("x")))
        .isInstanceOfSatisfying(StoreException.class, e -> assertThat(e.outcomeUnknown()).isFalse())
        .hasMessageContaining("the API answered 400: amount is missing")
        .hasMessageContaining("changed nothing");
    assertThat(api.applyCount(resource)).isZero();
    assertThat(api.businessRequests())
        .as(
            "500 and 409 without an epoch were retried under the same key (3 attempts each), 400 not")
        .isEqualTo(3 + 3 + 1);
  }

  @Test
  void aServerErrorIsRetriedUnderTheSameKeyAndTheOperationIsAppliedOnce() {
    ResourceId resource = ResourceId.of("reports/retried");
    NativeHttpDestination destination = builder(StepListener.NONE).build();
    api.answerNextWriteWith(503, "try again");

    assertThat(destination.write(token(resource, 1), OperationId.of("r-1"), report("R")))
        .isInstanceOf(Applied.class);

    assertThat(api.businessRequests()).as("the 503, then the retry").isEqualTo(2);
    assertThat(api.applyCount(resource)).isEqualTo(1);
  }

  @Test
  void withoutAReplayMarkerAWriteIsSentOnceBecauseARetryCouldApplyItTwice() {
    ResourceId resource = ResourceId.of("reports/no-replay");
    NativeHttpDestination noReplay =
        NativeHttpDestination.builder()
            .name("reports")
            .baseUri(api.profile(StepListener.NONE, Optional.empty()).baseUri())
            .httpClient(CLIENT)
            .registerRequest("/fencing/register")
            .currentEpochRequest("/fencing/epoch?resource={resource}")
            .maxAttempts(5)
            .backoff(Duration.ofMillis(1), 2.0, Duration.ofMillis(5))
            .build();
    api.answerNextWriteWith(500, "maybe applied");

    assertThatThrownBy(() -> noReplay.write(token(resource, 1), OperationId.of("n-1"), report("N")))
        .isInstanceOfSatisfying(StoreException.class, e -> assertThat(e.outcomeUnknown()).isTrue());

    assertThat(api.businessRequests()).as("no retry without replay").isEqualTo(1);
  }

  @Test
  void theCircuitBreakerOpensOnADeadApiAndThenNothingIsSent() throws IOException {
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0)) {
      closedPort = socket.getLocalPort();
    }
    NativeHttpDestination dead =
        builder(StepListener.NONE)
            .baseUri(URI.create("http://127.0.0.1:" + closedPort))
            .maxAttempts(2)
            .circuitBreaker(
                CircuitBreakerConfig.custom()
                    .slidingWindowSize(2)
                    .minimumNumberOfCalls(2)
                    .waitDurationInOpenState(Duration.ofMinutes(5))
                    .build())
            .build();

    assertThatThrownBy(
            () -> dead.write(token(ResourceId.of("r"), 1), OperationId.of("d-1"), report("x")))
        .isInstanceOfSatisfying(StoreException.class, e -> assertThat(e.outcomeUnknown()).isFalse())
        .hasMessageContaining("the connection failed")
        .hasMessageContaining("on the last of 2 attempts");
    assertThat(dead.circuitBreaker().getState()).isEqualTo(CircuitBreaker.State.OPEN);
    assertThatThrownBy(
            () -> dead.write(token(ResourceId.of("r"), 1), OperationId.of("d-2"), report("x")))
        .isInstanceOfSatisfying(StoreException.class, e -> assertThat(e.outcomeUnknown()).isFalse())
        .hasMessageContaining("the circuit breaker is open")
        .hasMessageContaining("nothing reached the API");
  }

  @Test
  void aRequestThatSetsTheConfiguredTokenHeaderIsRefusedBeforeSending() {
    NativeHttpDestination destination = builder(StepListener.NONE).tokenHeader("X-Fence").build();
    ApiRequest sneaky =
        ApiRequest.of(
            "POST",
            "/reports",
            "text/plain",
            Map.of("x-fence", "v1;issuer=other"),
            new ApiRequest.BytesBody(new byte[0]));

    assertThatThrownBy(
            () -> destination.write(token(ResourceId.of("r"), 1), OperationId.of("op"), sneaky))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("the request sets header X-Fence");
    assertThat(api.businessRequests()).isZero();
  }

  @Test
  void theBuilderNamesWhatIsMissingOrClashing() {
    NativeHttpDestination.Builder base =
        NativeHttpDestination.builder()
            .name("payments")
            .baseUri(URI.create("https://api.example.com"));
    assertThatThrownBy(base::build)
        .isInstanceOf(ConfigurationException.class)
        .hasMessageStartingWith("Cannot build native HTTP destination payments: no register");
    base.registerRequest("/fencing/register");
    assertThatThrownBy(base::build).hasMessageContaining("no current-epoch request");
    base.currentEpochRequest("/epoch/{resource}");
    assertThatThrownBy(() -> base.untrustedTokenStatus(409).build())
        .hasMessageContaining("stale token status 409, untrusted token status 409");
    base.untrustedTokenStatus(403);
    assertThatThrownBy(() -> base.idempotencyKeyHeader("fencing-token").build())
        .hasMessageContaining("both Fencing-Token");
    base.idempotencyKeyHeader("Idempotency-Key");
    assertThatThrownBy(() -> base.staleTokenStatus(503))
        .hasMessageContaining("Cannot use stale token status 503: a refusal is a 4xx status");
    assertThatThrownBy(() -> base.epochPointer("epoch"))
        .hasMessageContaining("Cannot use epoch pointer \"epoch\": it is not a JSON pointer");
    assertThatThrownBy(() -> base.lookupRequest("/operations/{resource}"))
        .hasMessageContaining("lacks the placeholder {idempotency-key}");
    assertThatThrownBy(() -> base.lookupRequest("/operations/{key}"))
        .hasMessageContaining("unknown placeholder {key}");
    assertThatThrownBy(() -> base.tokenHeader("Authorization"))
        .hasMessageContaining("Cannot use token header \"Authorization\"");
    assertThatThrownBy(() -> base.baseUri(URI.create("ftp://api.example.com")))
        .hasMessageContaining("give an absolute http or https URI");
    assertThatThrownBy(() -> base.attemptTimeLimit(Duration.ZERO))
        .hasMessageContaining("Cannot use attempt time limit PT0S: it must be positive");
    assertThatThrownBy(() -> ReplayMarker.status(409))
        .hasMessageContaining("Cannot use status 409 as the replay marker");
    assertThatThrownBy(() -> base.maxAttempts(0))
        .as("the same validation as the intent mode's builder")
        .hasMessageContaining("Cannot use max attempts 0: expected 1 to 20");
    assertThatThrownBy(() -> base.backoff(Duration.ofSeconds(2), 2.0, Duration.ofSeconds(1)))
        .hasMessageContaining("Cannot use max backoff PT1S");
    assertThatThrownBy(() -> base.jitter(1.0)).hasMessageContaining("backoff jitter 1.0");
    assertThatThrownBy(() -> base.bearerTokenFromEnv("NOT SET").build())
        .hasMessageContaining("it is not a variable name");
    assertThatThrownBy(() -> base.bearerTokenFromEnv("UNSET_VAR").environment(name -> null).build())
        .hasMessageContaining(
            "Cannot read the bearer token from environment variable UNSET_VAR: it is not set or"
                + " blank");
  }
}
