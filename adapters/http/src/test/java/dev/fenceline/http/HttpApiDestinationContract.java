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
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.client.ScenarioMappingBuilder;
import com.github.tomakehurst.wiremock.http.Fault;
import com.github.tomakehurst.wiremock.stubbing.Scenario;
import com.github.tomakehurst.wiremock.stubbing.ServeEvent;
import com.github.tomakehurst.wiremock.stubbing.StubMapping;
import dev.fenceline.http.ApiRequest.FileBody;
import dev.fenceline.spi.AlreadyApplied;
import dev.fenceline.spi.Applied;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingStep;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.Guarantee;
import dev.fenceline.spi.Intent;
import dev.fenceline.spi.IntentStore;
import dev.fenceline.spi.OperationConflictException;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Receipt;
import dev.fenceline.spi.RejectedStale;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.WriteOutcome;
import dev.fenceline.tck.PausePoints;
import dev.fenceline.tck.memory.MutableClock;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The WireMock scenarios of the intent mode, each asserting the request journal. Subclasses supply
 * the intent store; {@link #openIntentStore} opening the same backing store again is a restart.
 */
abstract class HttpApiDestinationContract {

  static final String NAME = "payments";
  static final String SECRET = "s3cr3t-partner-token-4711";
  static final ResourceId RESOURCE = ResourceId.of("invoice-2026-10");
  static final OperationId OPERATION = OperationId.of("pay-invoice-2026-10");
  static final String KEY = IdempotencyKeys.of(NAME, RESOURCE, OPERATION);
  static final String LOOKUP = "/payments?idempotency_key={key}";
  static final ApiRequest PAYMENT =
      ApiRequest.postJson("/payments", "{\"amount\":1200,\"currency\":\"EUR\"}");

  /** Opens the intent store named {@code name}; a second call is the same store after a restart. */
  IntentStore openIntentStore(String name) {
    return openIntentStore(name, dev.fenceline.spi.StepListener.NONE);
  }

  /** Opens the intent store named {@code name}, reporting its steps to {@code steps}. */
  abstract IntentStore openIntentStore(String name, dev.fenceline.spi.StepListener steps);

  FakePaymentsApi api;
  WireMockServer server;

  @BeforeEach
  void startApi() {
    api = new FakePaymentsApi();
    server = new WireMockServer(options().dynamicPort().extensions(api));
    server.start();
  }

  @AfterEach
  void stopApi() {
    server.stop();
  }

  static FencingToken token(long epoch, String holder) {
    return new FencingToken("issuer-1", RESOURCE, Epoch.of(epoch), holder);
  }

  HttpApiDestination.Builder builder(IntentStore store) {
    return builderWithoutLookup(store).lookup(LOOKUP, "/data/0", "/idempotency_key");
  }

  /**
   * Without a lookup, declaring that the API honours keys: the rule under which attempts are
   * re-sent without asking first (the fake API honours keys unless told to ignore them).
   */
  HttpApiDestination.Builder builderWithoutLookup(IntentStore store) {
    return HttpApiDestination.builder()
        .keysHonoured(true)
        .name(NAME)
        .baseUri(URI.create(server.baseUrl()))
        .intentStore(store)
        .bearerTokenFromEnv("PARTNER_TOKEN")
        .environment(Map.of("PARTNER_TOKEN", SECRET)::get)
        .attemptTimeLimit(Duration.ofSeconds(5))
        .maxAttempts(3)
        .backoff(Duration.ofMillis(1), 2.0, Duration.ofMillis(5))
        .jitter(0.5)
        .circuitBreaker(
            CircuitBreakerConfig.custom().slidingWindowSize(100).minimumNumberOfCalls(100).build())
        .receiptField("payment-id", "/id");
  }

  HttpApiDestination destination(UnaryOperator<HttpApiDestination.Builder> tweak) {
    return tweak.apply(builder(openIntentStore(NAME))).build();
  }

  HttpApiDestination destination() {
    return destination(b -> b);
  }

  // ---- stubs -------------------------------------------------------------------------------

  static ResponseDefinitionBuilder applies(ResponseDefinitionBuilder response) {
    return response.withTransformers(FakePaymentsApi.NAME).withTransformerParameter("effect", true);
  }

  static ResponseDefinitionBuilder created() {
    return applies(aResponse().withStatus(201));
  }

  /** POST answers in order; the last one repeats. */
  void postAnswers(ResponseDefinitionBuilder... answers) {
    String state = Scenario.STARTED;
    for (int i = 0; i < answers.length; i++) {
      ScenarioMappingBuilder stub =
          post(urlEqualTo("/payments"))
              .inScenario("post")
              .whenScenarioStateIs(state)
              .willReturn(answers[i].withTransformers(FakePaymentsApi.NAME));
      if (i < answers.length - 1) {
        state = "answer-" + (i + 1);
        stub = stub.willSetStateTo(state);
      }
      server.stubFor(stub);
    }
  }

  StubMapping lookupAnswers() {
    return server.stubFor(
        get(urlPathEqualTo("/payments"))
            .willReturn(
                aResponse()
                    .withStatus(200)
                    .withTransformers(FakePaymentsApi.NAME)
                    .withTransformerParameter("lookup", true)));
  }

  StubMapping lookupUnavailable() {
    return server.stubFor(get(urlPathEqualTo("/payments")).willReturn(aResponse().withStatus(503)));
  }

  // ---- journal ------------------------------------------------------------------------------

  /** A request as the API received it. */
  record Received(String method, String url, String key, String authorization) {}

  /** Every request the API received, oldest first. */
  List<Received> journal() {
    List<ServeEvent> events = new ArrayList<>(server.getAllServeEvents());
    Collections.reverse(events);
    return events.stream()
        .map(
            e ->
                new Received(
                    e.getRequest().getMethod().getName(),
                    e.getRequest().getUrl(),
                    e.getRequest().getHeader("Idempotency-Key"),
                    e.getRequest().getHeader("Authorization")))
        .toList();
  }

  List<String> methods(List<Received> requests) {
    return requests.stream().map(Received::method).toList();
  }

  /** Every request carried the operation's one key and the bearer token. */
  void assertOneKeyAndCredentials(List<Received> requests) {
    assertThat(requests).isNotEmpty();
    assertThat(requests).extracting(Received::key).containsOnly(KEY);
    assertThat(requests).extracting(Received::authorization).containsOnly("Bearer " + SECRET);
  }

  /** The honest fake API saw exactly one effective operation, under the operation's key. */
  void assertExactlyOneEffect() {
    assertThat(api.effectsPerKey()).containsExactly(Map.entry(KEY, 1L));
  }

  // ---- scenarios ----------------------------------------------------------------------------

  @Test
  void connectionResetOnTheFirstCallThenSuccessSendsTheSameKeyTwiceWithOneEffect() {
    postAnswers(applies(aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER)), created());

    // Re-sent without asking: no lookup, keys declared honoured (with a lookup it asks first).
    WriteOutcome outcome =
        builderWithoutLookup(openIntentStore(NAME))
            .build()
            .write(token(1, "worker-a"), OPERATION, PAYMENT);

    assertThat(outcome).isInstanceOf(Applied.class);
    Receipt receipt = ((Applied) outcome).receipt();
    assertThat(receipt.attributes())
        .containsEntry("http-status", "201")
        .containsEntry("idempotency-key", KEY)
        .containsEntry("payment-id", api.paymentFor(KEY));
    assertThat(methods(journal())).containsExactly("POST", "POST");
    assertOneKeyAndCredentials(journal());
    assertExactlyOneEffect();
  }

  @Test
  void responseSlowerThanTheAttemptTimeLimitIsFoundByTheLookup() {
    postAnswers(created().withFixedDelay(1_000));
    lookupAnswers();

    WriteOutcome outcome =
        destination(b -> b.attemptTimeLimit(Duration.ofMillis(150)).maxAttempts(2))
            .write(token(1, "worker-a"), OPERATION, PAYMENT);

    assertThat(outcome).isInstanceOf(Applied.class);
    assertThat(((Applied) outcome).receipt().attributes())
        .containsEntry("found-by", "lookup")
        .containsEntry("payment-id", api.paymentFor(KEY));
    // The lost answer's attempt may have landed: the re-send asks the lookup first, which finds it.
    assertThat(methods(journal())).containsExactly("POST", "GET");
    assertOneKeyAndCredentials(journal());
    assertExactlyOneEffect();
    assertThat(openIntentStore(NAME).lookup(RESOURCE, OPERATION)).get().matches(Intent::completed);
  }

  @Test
  void fiveHundredFiveHundredThenTwoHundredIsAppliedOnce() {
    postAnswers(aResponse().withStatus(500), aResponse().withStatus(500), created());

    WriteOutcome outcome =
        builderWithoutLookup(openIntentStore(NAME))
            .build()
            .write(token(1, "worker-a"), OPERATION, PAYMENT);

    assertThat(outcome).isInstanceOf(Applied.class);
    assertThat(methods(journal())).containsExactly("POST", "POST", "POST");
    assertOneKeyAndCredentials(journal());
    assertExactlyOneEffect();
  }

  @Test
  void conflictWhileTheSameKeyIsProcessingThenSuccess() {
    postAnswers(aResponse().withStatus(409), created());

    WriteOutcome outcome =
        builderWithoutLookup(openIntentStore(NAME))
            .build()
            .write(token(1, "worker-a"), OPERATION, PAYMENT);

    assertThat(outcome).isInstanceOf(Applied.class);
    assertThat(methods(journal())).containsExactly("POST", "POST");
    assertOneKeyAndCredentials(journal());
    assertExactlyOneEffect();
  }

  @Test
  void staleWorkerIsBlockedAtTheIntentAndSendsNothing() {
    postAnswers(created());
    HttpApiDestination destination = destination();
    FencingToken newOwner = token(2, "worker-b");
    destination.register(newOwner);

    WriteOutcome stale = destination.write(token(1, "worker-a"), OPERATION, PAYMENT);

    assertThat(stale).isInstanceOf(RejectedStale.class);
    assertThat(journal()).isEmpty();
    assertThat(openIntentStore(NAME).lookup(RESOURCE, OPERATION)).isEmpty();

    assertThat(destination.write(newOwner, OPERATION, PAYMENT)).isInstanceOf(Applied.class);
    assertThat(journal()).hasSize(1);
    assertOneKeyAndCredentials(journal());
    assertExactlyOneEffect();
  }

  @Test
  void newOwnerLooksAnInDoubtOperationUpFirstAndDoesNotSendItAgain() {
    // Worker A's request lands but every answer is a 500, and the lookup is down: in doubt.
    postAnswers(applies(aResponse().withStatus(500)));
    StubMapping down = lookupUnavailable();
    ApiOutcomeUnknownException inDoubt =
        catchThrowableOfType(
            ApiOutcomeUnknownException.class,
            () -> destination().write(token(1, "worker-a"), OPERATION, PAYMENT));
    assertThat(inDoubt.outcomeUnknown()).isTrue();
    assertThat(inDoubt.idempotencyKey()).isEqualTo(KEY);
    assertThat(inDoubt.getMessage()).contains(RESOURCE.value(), OPERATION.value(), KEY, "retry");
    int sentByA = journal().size();
    // The 500 may have landed, so the re-send asks the lookup first: three attempts of the lookup
    // (a GET is retried like the call), none definite, so attempt 2 is never sent.
    assertThat(methods(journal())).containsExactly("POST", "GET", "GET", "GET");

    // Worker B takes over after a restart: a new store instance and a new destination.
    server.removeStub(down);
    lookupAnswers();
    WriteOutcome outcome =
        destination(b -> b.intentStore(openIntentStore(NAME)))
            .write(token(2, "worker-b"), OPERATION, PAYMENT);

    assertThat(outcome).isInstanceOf(AlreadyApplied.class);
    assertThat(((AlreadyApplied) outcome).receipt().attributes())
        .containsEntry("payment-id", api.paymentFor(KEY));
    assertThat(((AlreadyApplied) outcome).receipt().epoch())
        .as("A sent it under epoch 1; B only looked it up")
        .isEqualTo(Epoch.of(1));
    assertThat(openIntentStore(NAME).lookup(RESOURCE, OPERATION).orElseThrow().receipt())
        .contains(((AlreadyApplied) outcome).receipt());
    List<Received> sentByB = journal().subList(sentByA, journal().size());
    assertThat(methods(sentByB)).containsExactly("GET");
    assertOneKeyAndCredentials(journal());
    assertExactlyOneEffect();
  }

  @Test
  void newOwnerResendsAnInDoubtOperationUnderTheSameKeyWhenTheApiNeverSawIt() {
    // Worker A's requests never get processed (reset before the API applies them).
    postAnswers(aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER));
    StubMapping down = lookupUnavailable();
    assertThatThrownBy(() -> destination().write(token(1, "worker-a"), OPERATION, PAYMENT))
        .isInstanceOf(ApiOutcomeUnknownException.class);
    int sentByA = journal().size();

    server.resetScenarios();
    server.removeStub(down);
    postAnswers(created());
    lookupAnswers();
    WriteOutcome outcome =
        destination(b -> b.intentStore(openIntentStore(NAME)))
            .write(token(2, "worker-b"), OPERATION, PAYMENT);

    assertThat(outcome).isInstanceOf(Applied.class);
    List<Received> sentByB = journal().subList(sentByA, journal().size());
    assertThat(methods(sentByB)).containsExactly("GET", "POST");
    assertOneKeyAndCredentials(journal());
    assertExactlyOneEffect();
  }

  @Test
  void newOwnerSendsNothingWhileTheLookupIsUnavailable() {
    postAnswers(applies(aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER)));
    lookupUnavailable();
    assertThatThrownBy(() -> destination().write(token(1, "worker-a"), OPERATION, PAYMENT))
        .isInstanceOf(ApiOutcomeUnknownException.class);
    int sentByA = journal().size();

    ApiOutcomeUnknownException inDoubt =
        catchThrowableOfType(
            ApiOutcomeUnknownException.class,
            () ->
                destination(b -> b.intentStore(openIntentStore(NAME)))
                    .write(token(2, "worker-b"), OPERATION, PAYMENT));

    assertThat(inDoubt).as("the new owner must report the operation in doubt").isNotNull();
    assertThat(inDoubt.getMessage()).contains("nothing was sent now", KEY);
    List<Received> sentByB = journal().subList(sentByA, journal().size());
    assertThat(methods(sentByB)).containsOnly("GET");
    assertOneKeyAndCredentials(journal());
    assertExactlyOneEffect();
    assertThat(openIntentStore(NAME).lookup(RESOURCE, OPERATION).orElseThrow().completed())
        .isFalse();
  }

  @Test
  void lookupOfAPendingIntentAsksTheApi() {
    HttpApiDestination destination = destination();
    assertThat(destination.lookup(RESOURCE, OPERATION)).isEmpty();
    openIntentStore(NAME).begin(token(1, "worker-a"), OPERATION, PAYMENT.fingerprint());
    StubMapping down = lookupUnavailable();

    assertThatThrownBy(() -> destination.lookup(RESOURCE, OPERATION))
        .isInstanceOfSatisfying(
            ApiOutcomeUnknownException.class, e -> assertThat(e.outcomeUnknown()).isTrue());

    server.removeStub(down);
    lookupAnswers();
    assertThat(destination.lookup(RESOURCE, OPERATION)).isEmpty();
    assertThat(methods(journal())).containsExactly("GET", "GET", "GET", "GET");
    assertOneKeyAndCredentials(journal());
  }

  @Test
  void answerThatIsNotJsonIsStillRecordedAsApplied() {
    postAnswers(applies(aResponse().withStatus(200)).withBody("<html>ok</html>"));

    WriteOutcome outcome = destination().write(token(1, "worker-a"), OPERATION, PAYMENT);

    assertThat(outcome).isInstanceOf(Applied.class);
    assertThat(((Applied) outcome).receipt().attributes())
        .containsEntry("http-status", "200")
        .containsEntry("idempotency-key", KEY)
        .containsEntry("response-error", "the body is not JSON; fields not read")
        .doesNotContainKey("payment-id");
    assertThat(methods(journal())).containsExactly("POST");
    assertThat(openIntentStore(NAME).lookup(RESOURCE, OPERATION).orElseThrow().completed())
        .isTrue();
  }

  @Test
  void fileBodyIsSentOnEveryAttempt(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
      throws java.io.IOException {
    java.nio.file.Path file =
        java.nio.file.Files.writeString(dir.resolve("report.csv"), "a,b\n".repeat(50_000));
    ApiRequest upload =
        ApiRequest.of("PUT", "/payments", "text/csv", Map.of(), new ApiRequest.FileBody(file));
    server.stubFor(
        com.github.tomakehurst.wiremock.client.WireMock.put(urlEqualTo("/payments"))
            .inScenario("put")
            .whenScenarioStateIs(Scenario.STARTED)
            .willReturn(aResponse().withStatus(503))
            .willSetStateTo("up"));
    server.stubFor(
        com.github.tomakehurst.wiremock.client.WireMock.put(urlEqualTo("/payments"))
            .inScenario("put")
            .whenScenarioStateIs("up")
            .willReturn(created()));

    assertThat(
            builderWithoutLookup(openIntentStore(NAME))
                .build()
                .write(token(1, "worker-a"), OPERATION, upload))
        .isInstanceOf(Applied.class);

    assertThat(methods(journal())).containsExactly("PUT", "PUT");
    assertThat(server.getAllServeEvents())
        .allSatisfy(
            e ->
                assertThat(e.getRequest().getBodyAsString())
                    .isEqualTo(java.nio.file.Files.readString(file)));
    assertOneKeyAndCredentials(journal());
    assertExactlyOneEffect();
  }

  @Test
  void breakerOpensOnADeadApiAndTheOutcomeSaysUnreachable() {
    WireMockServer dead = new WireMockServer(options().dynamicPort());
    dead.start();
    URI deadUri = URI.create(dead.baseUrl());
    dead.stop();
    CircuitBreaker breaker =
        CircuitBreaker.of(
            "dead-api",
            CircuitBreakerConfig.custom()
                .slidingWindowSize(2)
                .minimumNumberOfCalls(2)
                .failureRateThreshold(50)
                .waitDurationInOpenState(Duration.ofMinutes(5))
                .build());
    HttpApiDestination destination =
        destination(b -> b.baseUri(deadUri).maxAttempts(5).circuitBreaker(breaker));

    ApiUnreachableException unreachable =
        catchThrowableOfType(
            ApiUnreachableException.class,
            () -> destination.write(token(1, "worker-a"), OPERATION, PAYMENT));

    assertThat(unreachable).as("the write must fail as unreachable").isNotNull();
    assertThat(unreachable.outcomeUnknown()).isFalse();
    assertThat(unreachable.getMessage()).contains("unreachable", "circuit breaker is open");
    assertThat(breaker.getState()).isEqualTo(CircuitBreaker.State.OPEN);
    assertThat(breaker.getMetrics().getNumberOfFailedCalls()).isEqualTo(2);
    assertThat(breaker.getMetrics().getNumberOfNotPermittedCalls()).isEqualTo(1);
    assertThat(dead.getAllServeEvents()).isEmpty();
    assertThat(journal()).isEmpty();
    Intent intent = openIntentStore(NAME).lookup(RESOURCE, OPERATION).orElseThrow();
    assertThat(intent.completed()).isFalse();
  }

  @Test
  void completedOperationAnswersAlreadyAppliedWithoutARequest() {
    postAnswers(created());
    HttpApiDestination destination = destination();
    Receipt first =
        ((Applied) destination.write(token(1, "worker-a"), OPERATION, PAYMENT)).receipt();

    WriteOutcome again =
        destination(b -> b.intentStore(openIntentStore(NAME)))
            .write(token(2, "worker-b"), OPERATION, PAYMENT);

    assertThat(again).isEqualTo(new AlreadyApplied(first));
    assertThat(journal()).hasSize(1);
    assertExactlyOneEffect();
    assertThat(destination.lookup(RESOURCE, OPERATION)).contains(first);
  }

  @Test
  void sameOperationWithAnotherRequestIsAConflictBeforeAnyRequest() {
    postAnswers(created());
    HttpApiDestination destination = destination();
    destination.write(token(1, "worker-a"), OPERATION, PAYMENT);

    ApiRequest other = ApiRequest.postJson("/payments", "{\"amount\":9999,\"currency\":\"EUR\"}");
    assertThatThrownBy(() -> destination.write(token(1, "worker-a"), OPERATION, other))
        .isInstanceOf(OperationConflictException.class)
        .hasMessageContaining(OPERATION.value());

    assertThat(journal()).hasSize(1);
    assertExactlyOneEffect();
  }

  @Test
  void unprocessableEntityMeansTheKeyWasUsedWithAnotherPayload() {
    postAnswers(aResponse().withStatus(422).withBody("{\"error\":\"key reused\"}"));

    ApiRejectedException rejected =
        catchThrowableOfType(
            ApiRejectedException.class,
            () -> destination().write(token(1, "worker-a"), OPERATION, PAYMENT));

    assertThat(rejected.status()).isEqualTo(422);
    assertThat(rejected.keyReusedWithAnotherPayload()).isTrue();
    assertThat(rejected.outcomeUnknown()).isFalse();
    assertThat(rejected.getMessage()).contains("422", KEY, "another payload");
    assertThat(methods(journal())).containsExactly("POST");
    assertOneKeyAndCredentials(journal());
    assertThat(openIntentStore(NAME).lookup(RESOURCE, OPERATION).orElseThrow().completed())
        .isFalse();
  }

  @Test
  void definiteRejectionIsNotRetriedAndKeepsTheIntent() {
    postAnswers(aResponse().withStatus(400).withBody("{\"error\":\"amount too large\"}"));

    ApiRejectedException rejected =
        catchThrowableOfType(
            ApiRejectedException.class,
            () -> destination().write(token(1, "worker-a"), OPERATION, PAYMENT));

    assertThat(rejected.status()).isEqualTo(400);
    assertThat(rejected.outcomeUnknown()).isFalse();
    assertThat(rejected.getMessage()).contains("HTTP 400", "amount too large");
    assertThat(methods(journal())).containsExactly("POST");
    assertThat(api.effectsPerKey()).isEmpty();
  }

  /**
   * The row of the failure table that makes this mode weaker than FENCED: worker A's intent was
   * recorded, then A stalls before sending; B takes over and completes the operation; A wakes up
   * and its one request still reaches the API. Only the shared idempotency key keeps it from paying
   * twice. A's stall is past its last check: to A no time passes between its intent and its request
   * (its time source stands still), as for a worker paused right after it decided to send. The
   * re-check before sending narrows this window; it cannot close it.
   */
  @Test
  void staleWorkerPausedAfterItsIntentStillSendsItsOneRequestUnderTheSameKey() throws Exception {
    postAnswers(created());
    lookupAnswers();
    dev.fenceline.tck.PausePoints steps = new dev.fenceline.tck.PausePoints();
    dev.fenceline.tck.PausePoints.Pause stalled =
        steps.pauseAt(dev.fenceline.spi.FencingStep.AFTER_COMMIT, "worker-a");
    HttpApiDestination workerA =
        destination(b -> b.intentStore(openIntentStore(NAME, steps)).nanoTime(() -> 0L));
    java.util.concurrent.CompletableFuture<WriteOutcome> a =
        java.util.concurrent.CompletableFuture.supplyAsync(
            () -> workerA.write(token(1, "worker-a"), OPERATION, PAYMENT));
    stalled.awaitReached(); // A's intent is committed; A has sent nothing

    WriteOutcome b =
        destination(x -> x.intentStore(openIntentStore(NAME)))
            .write(token(2, "worker-b"), OPERATION, PAYMENT);
    assertThat(b).isInstanceOf(Applied.class);
    assertThat(methods(journal())).containsExactly("GET", "POST");

    stalled.resume();
    Throwable late = catchThrowable(() -> a.get(30, java.util.concurrent.TimeUnit.SECONDS));

    assertThat(methods(journal()))
        .as("the stale worker's request still reached the API, after the takeover")
        .containsExactly("GET", "POST", "POST");
    assertOneKeyAndCredentials(journal());
    assertExactlyOneEffect();
    assertThat(late)
        .as(
            "B recorded its own request's result first; A, stale, is in doubt (never"
                + " AlreadyApplied with B's receipt)")
        .isInstanceOf(java.util.concurrent.ExecutionException.class)
        .cause()
        .isInstanceOf(ApiOutcomeUnknownException.class)
        .hasMessageContaining("recorded by a newer owner (epoch 2)");
  }

  @Test
  void anInDoubtOperationOlderThanTheApisKeyRetentionIsNeverSentAgain() {
    // Worker A's request is lost before the API processed it, and the lookup is down: in doubt.
    postAnswers(aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER));
    StubMapping down = lookupUnavailable();
    assertThatThrownBy(() -> destination().write(token(1, "worker-a"), OPERATION, PAYMENT))
        .isInstanceOf(ApiOutcomeUnknownException.class);
    int sentByA = journal().size();
    server.removeStub(down);
    server.resetScenarios();
    postAnswers(created());
    lookupAnswers();

    // 25 hours later worker B takes over; the API keeps keys for 24 hours, so its "not found"
    // may mean "forgotten": B must not send.
    java.time.Clock later =
        java.time.Clock.offset(java.time.Clock.systemUTC(), Duration.ofHours(25));
    ApiOutcomeUnknownException inDoubt =
        catchThrowableOfType(
            ApiOutcomeUnknownException.class,
            () ->
                destination(
                        b ->
                            b.intentStore(openIntentStore(NAME))
                                .keyRetention(Duration.ofHours(24))
                                .clock(later))
                    .write(token(2, "worker-b"), OPERATION, PAYMENT));

    assertThat(inDoubt).as("past the key retention the operation stays in doubt").isNotNull();
    assertThat(inDoubt.getMessage())
        .contains("longer than the API keeps idempotency keys", "nothing was sent now", KEY);
    assertThat(methods(journal().subList(sentByA, journal().size()))).containsExactly("GET");
    assertThat(api.effectsPerKey()).isEmpty();

    // Within the retention, the same "not found" is trusted and B re-sends under the same key.
    int sentBefore = journal().size();
    WriteOutcome outcome =
        destination(b -> b.intentStore(openIntentStore(NAME)).keyRetention(Duration.ofHours(24)))
            .write(token(2, "worker-b"), OPERATION, PAYMENT);
    assertThat(outcome).isInstanceOf(Applied.class);
    assertThat(methods(journal().subList(sentBefore, journal().size())))
        .containsExactly("GET", "POST");
    assertOneKeyAndCredentials(journal());
    assertExactlyOneEffect();
  }

  /**
   * What a false {@code keysHonoured(true)} declaration lets through: without a lookup, an API that
   * ignores idempotency keys applies a retry after a lost answer a second time, although both
   * requests carry the same key. (With a lookup the re-send asks first: {@link
   * #keyIgnoringApiWithALookupGetsOnePostWhenTheFirstAnswerIsLostAndTheLookupFindsIt}.)
   */
  @Test
  void apiThatIgnoresKeysAppliesALostAnswersRetryTwice() {
    api.ignoreKeys();
    postAnswers(applies(aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER)), created());

    WriteOutcome outcome =
        builderWithoutLookup(openIntentStore(NAME))
            .build()
            .write(token(1, "worker-a"), OPERATION, PAYMENT);

    assertThat(outcome).isInstanceOf(Applied.class);
    assertThat(methods(journal())).containsExactly("POST", "POST");
    assertOneKeyAndCredentials(journal());
    assertThat(api.effectsPerKey()).containsExactly(Map.entry(KEY, 2L));
  }

  // ---- re-sends go through the lookup first (issue 18, item 2) --------------------------------

  /** The request journal's POSTs: what the API really received as payments. */
  long posts() {
    return journal().stream().filter(r -> r.method().equals("POST")).count();
  }

  @Test
  void keyIgnoringApiWithALookupGetsOnePostWhenTheFirstAnswerIsLostAndTheLookupFindsIt() {
    api.ignoreKeys();
    // The first POST creates the payment and its answer is lost; a blind re-send would pay twice.
    postAnswers(applies(aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER)), created());
    lookupAnswers();

    // maxAttempts is the default, 3.
    WriteOutcome outcome =
        destination(b -> b.maxAttempts(3)).write(token(1, "worker-a"), OPERATION, PAYMENT);

    assertThat(methods(journal()))
        .as("the re-send asked the lookup first, and it found the payment")
        .containsExactly("POST", "GET");
    assertThat(api.effectsPerKey()).containsExactly(Map.entry(KEY, 1L));
    assertThat(outcome)
        .as("this call's first attempt is the one that landed")
        .isInstanceOf(Applied.class);
    assertThat(((Applied) outcome).receipt().attributes())
        .containsEntry("found-by", "lookup")
        .containsEntry("idempotency-key", KEY)
        .containsEntry("payment-id", "pay-1");
    assertOneKeyAndCredentials(journal());
    assertThat(openIntentStore(NAME).lookup(RESOURCE, OPERATION)).get().matches(Intent::completed);
  }

  @Test
  void keyIgnoringApiWhoseLookupSaysNotFoundGetsExactlyOneMorePostUnderTheSameKey() {
    api.ignoreKeys();
    // The first POST is lost before the API processed it.
    postAnswers(aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER), created());
    lookupAnswers();

    WriteOutcome outcome = destination().write(token(1, "worker-a"), OPERATION, PAYMENT);

    assertThat(methods(journal())).containsExactly("POST", "GET", "POST");
    assertThat(api.effectsPerKey()).containsExactly(Map.entry(KEY, 1L));
    assertThat(outcome).isInstanceOf(Applied.class);
    assertThat(((Applied) outcome).receipt().attributes())
        .containsEntry("http-status", "201")
        .containsEntry("payment-id", "pay-1");
    assertOneKeyAndCredentials(journal());
  }

  @Test
  void keyIgnoringApiWhoseLookupCannotTellGetsNoSecondPostAndTheOutcomeIsInDoubt() {
    api.ignoreKeys();
    postAnswers(applies(aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER)), created());
    StubMapping down = lookupUnavailable();

    ApiOutcomeUnknownException fiveHundreds =
        catchThrowableOfType(
            ApiOutcomeUnknownException.class,
            () -> destination().write(token(1, "worker-a"), OPERATION, PAYMENT));

    assertThat(fiveHundreds).as("a lookup answering 503 cannot tell").isNotNull();
    assertThat(fiveHundreds.outcomeUnknown()).isTrue();
    assertThat(fiveHundreds.getMessage())
        .contains("the lookup answered HTTP 503", "attempt 2 was not sent", KEY);
    assertThat(methods(journal())).containsExactly("POST", "GET", "GET", "GET");
    assertThat(api.effectsPerKey()).containsExactly(Map.entry(KEY, 1L));

    // The same with a lookup that does not answer within the attempt time limit.
    server.removeStub(down);
    server.stubFor(
        get(urlPathEqualTo("/payments"))
            .willReturn(
                aResponse()
                    .withStatus(200)
                    .withFixedDelay(2_000)
                    .withTransformers(FakePaymentsApi.NAME)
                    .withTransformerParameter("lookup", true)));
    server.resetScenarios();
    OperationId other = OperationId.of("pay-invoice-2026-10-again");
    int before = journal().size();

    ApiOutcomeUnknownException slow =
        catchThrowableOfType(
            ApiOutcomeUnknownException.class,
            () ->
                destination(b -> b.attemptTimeLimit(Duration.ofMillis(200)).maxAttempts(2))
                    .write(token(1, "worker-a"), other, PAYMENT));

    assertThat(slow).as("a lookup that times out cannot tell").isNotNull();
    assertThat(slow.getMessage()).contains("the lookup failed", "attempt 2 was not sent");
    assertThat(methods(journal().subList(before, journal().size())))
        .containsExactly("POST", "GET", "GET");
    assertThat(api.effectsPerKey().values()).containsExactly(1L, 1L);
  }

  @Test
  void aLaterCallAfterAnInDoubtIntentAsksTheLookupBeforeEverySend() {
    api.ignoreKeys();
    // Call 1: the POST never reaches the API's processing, and the lookup is down: in doubt.
    postAnswers(aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER));
    StubMapping down = lookupUnavailable();
    assertThatThrownBy(() -> destination().write(token(1, "worker-a"), OPERATION, PAYMENT))
        .isInstanceOf(ApiOutcomeUnknownException.class);
    assertThat(methods(journal())).containsExactly("POST", "GET", "GET", "GET");
    int sentByCall1 = journal().size();

    // Call 2, the same worker retrying: the lookup says "never saw it", the re-sent POST lands but
    // its answer is lost again, and the next re-send asks the lookup first, which finds it.
    server.removeStub(down);
    server.resetScenarios();
    postAnswers(applies(aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER)), created());
    lookupAnswers();
    WriteOutcome outcome =
        destination(b -> b.intentStore(openIntentStore(NAME)))
            .write(token(1, "worker-a"), OPERATION, PAYMENT);

    assertThat(methods(journal().subList(sentByCall1, journal().size())))
        .containsExactly("GET", "POST", "GET");
    assertThat(api.effectsPerKey()).containsExactly(Map.entry(KEY, 1L));
    assertThat(outcome)
        .as("the API never saw the operation before this call sent it")
        .isInstanceOf(Applied.class);
    assertThat(((Applied) outcome).receipt().attributes()).containsEntry("found-by", "lookup");

    // Call 3, a retry of the completed operation: answered from the record, nothing sent.
    int sentBefore = journal().size();
    assertThat(destination().write(token(1, "worker-a"), OPERATION, PAYMENT))
        .isInstanceOf(AlreadyApplied.class);
    assertThat(journal()).hasSize(sentBefore);
  }

  @Test
  void withKeysHonouredDeclaredAndNoLookupReSendsGoOutAsBeforeUnderTheSameKey() {
    postAnswers(
        applies(aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER)),
        aResponse().withStatus(503),
        created());

    WriteOutcome outcome =
        builderWithoutLookup(openIntentStore(NAME))
            .keysHonoured(true)
            .build()
            .write(token(1, "worker-a"), OPERATION, PAYMENT);

    assertThat(outcome).isInstanceOf(Applied.class);
    assertThat(methods(journal())).containsExactly("POST", "POST", "POST");
    assertOneKeyAndCredentials(journal());
    assertExactlyOneEffect();
  }

  @Test
  void crashAfterTheIntentThenANewOwnerSendsUnderTheSameKeyOnce() {
    postAnswers(created());
    lookupAnswers();
    // Worker A records its intent, then its process dies before sending anything.
    FencingToken workerA = token(1, "worker-a");
    openIntentStore(NAME).begin(workerA, OPERATION, PAYMENT.fingerprint());

    // After a restart, worker B (newer epoch) uses a new store instance and a new destination.
    WriteOutcome outcome =
        destination(b -> b.intentStore(openIntentStore(NAME)))
            .write(token(2, "worker-b"), OPERATION, PAYMENT);
    assertThat(outcome).isInstanceOf(Applied.class);

    // Worker A comes back and tries again: stale at the intent, nothing sent.
    assertThat(destination().write(workerA, OPERATION, PAYMENT)).isInstanceOf(RejectedStale.class);

    assertThat(methods(journal())).containsExactly("GET", "POST");
    assertOneKeyAndCredentials(journal());
    assertExactlyOneEffect();
  }

  @Test
  void theBearerTokenNeverAppearsInMessagesExceptionsOrLogs() {
    List<String> shown = new ArrayList<>();
    java.util.logging.Logger logger = java.util.logging.Logger.getLogger("dev.fenceline.http");
    java.util.logging.Level level = logger.getLevel();
    java.util.logging.Handler collect =
        new java.util.logging.Handler() {
          @Override
          public void publish(java.util.logging.LogRecord record) {
            synchronized (shown) {
              shown.add(new java.util.logging.SimpleFormatter().format(record));
            }
          }

          @Override
          public void flush() {}

          @Override
          public void close() {}
        };
    collect.setLevel(java.util.logging.Level.ALL);
    logger.setLevel(java.util.logging.Level.ALL);
    logger.addHandler(collect);
    try {
      HttpApiDestination destination = destination();
      shown.add(destination.toString());
      // The API echoes the Authorization header into an error body.
      server.stubFor(
          post(urlEqualTo("/echo"))
              .willReturn(
                  aResponse()
                      .withStatus(401)
                      .withBody("{\"error\":\"bad token Bearer " + SECRET + "\"}")));
      server.stubFor(post(urlEqualTo("/fail")).willReturn(aResponse().withStatus(500)));
      server.stubFor(post(urlEqualTo("/reused")).willReturn(aResponse().withStatus(422)));
      server.stubFor(
          post(urlEqualTo("/garbled"))
              .willReturn(aResponse().withStatus(200).withBody("not json " + SECRET)));
      server.stubFor(
          post(urlEqualTo("/reset"))
              .willReturn(aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER)));
      lookupUnavailable();
      for (String path : List.of("/echo", "/fail", "/reused", "/garbled", "/reset")) {
        OperationId operation = OperationId.of("op" + path.replace('/', '-'));
        try {
          destination.write(token(1, "worker-a"), operation, ApiRequest.postJson(path, "{}"));
        } catch (RuntimeException e) {
          shown.addAll(messages(e));
        }
        try {
          shown.add(String.valueOf(destination.lookup(RESOURCE, operation)));
        } catch (RuntimeException e) {
          shown.addAll(messages(e));
        }
      }
      WireMockServer dead = new WireMockServer(options().dynamicPort());
      dead.start();
      URI deadUri = URI.create(dead.baseUrl());
      dead.stop();
      try {
        destination(b -> b.baseUri(deadUri)).write(token(1, "worker-a"), OPERATION, PAYMENT);
      } catch (RuntimeException e) {
        shown.addAll(messages(e));
      }
      try {
        builder(openIntentStore(NAME))
            .environment(Map.of("PARTNER_TOKEN", SECRET + " with space")::get)
            .build();
      } catch (RuntimeException e) {
        shown.addAll(messages(e));
      }
    } finally {
      logger.removeHandler(collect);
      logger.setLevel(level);
    }

    assertThat(journal()).extracting(Received::authorization).contains("Bearer " + SECRET);
    assertThat(shown).hasSizeGreaterThan(15);
    assertThat(shown)
        .anyMatch(m -> m.contains("HTTP 401"))
        .anyMatch(m -> m.contains("DEBUG") || m.contains("FINE"));
    assertThat(shown).noneMatch(m -> m.contains(SECRET));
  }

  /** Message and toString of an exception and each of its causes and suppressed exceptions. */
  static List<String> messages(Throwable e) {
    List<String> out = new ArrayList<>();
    for (Throwable t = e; t != null; t = t.getCause()) {
      out.add(String.valueOf(t.getMessage()));
      out.add(t.toString());
      for (Throwable suppressed : t.getSuppressed()) {
        out.addAll(messages(suppressed));
      }
      java.io.StringWriter trace = new java.io.StringWriter();
      t.printStackTrace(new java.io.PrintWriter(trace));
      out.add(trace.toString());
    }
    return out;
  }

  @Test
  void intentModeReportsFencedAtIntentWithLookup() {
    HttpApiDestination destination = destination();
    assertThat(destination.guarantee()).isEqualTo(Guarantee.FENCED_AT_INTENT);
    assertThat(destination.capabilities())
        .containsExactlyInAnyOrder(
            dev.fenceline.spi.Capability.FENCED_INTENT,
            dev.fenceline.spi.Capability.IDEMPOTENCY_KEY,
            dev.fenceline.spi.Capability.RESULT_LOOKUP);
  }

  // ---- review fixes: lookups that cannot tell, doubt without a lookup, stale and late retries
  // ----

  /** A time source that has advanced two seconds at every reading: every gap is a stall. */
  static LongSupplier stallingTicker() {
    AtomicLong now = new AtomicLong();
    return () -> now.addAndGet(Duration.ofSeconds(2).toNanos());
  }

  @Test
  void lookupAnsweringAnEmptyListIsNotFoundAndNothingIsRecordedAsApplied() {
    // No record pointer: the lookup endpoint answers a bare list, empty when nothing matches.
    postAnswers(aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER));
    server.stubFor(
        get(urlPathEqualTo("/payments/by-key/" + KEY))
            .willReturn(aResponse().withStatus(200).withBody("[]")));
    HttpApiDestination destination =
        builderWithoutLookup(openIntentStore(NAME)).lookup("/payments/by-key/{key}").build();

    ApiOutcomeUnknownException inDoubt =
        catchThrowableOfType(
            ApiOutcomeUnknownException.class,
            () -> destination.write(token(1, "worker-a"), OPERATION, PAYMENT));

    assertThat(inDoubt).as("an empty list must not count as found").isNotNull();
    assertThat(inDoubt.getMessage()).contains("the lookup did not find it");
    // Each re-send asked first ("not found": sent again), and so did the end of the retries.
    assertThat(methods(journal())).containsExactly("POST", "GET", "POST", "GET", "POST", "GET");
    assertThat(api.effectsPerKey()).isEmpty();
    assertThat(openIntentStore(NAME).lookup(RESOURCE, OPERATION).orElseThrow().completed())
        .isFalse();
  }

  @Test
  void lookupAnsweringTwoHundredThatIsNotJsonCannotTellAndNothingIsRecorded() {
    postAnswers(aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER));
    server.stubFor(
        get(urlPathEqualTo("/payments/by-key/" + KEY))
            .willReturn(aResponse().withStatus(200).withBody("OK")));
    HttpApiDestination destination =
        builderWithoutLookup(openIntentStore(NAME)).lookup("/payments/by-key/{key}").build();

    ApiOutcomeUnknownException inDoubt =
        catchThrowableOfType(
            ApiOutcomeUnknownException.class,
            () -> destination.write(token(1, "worker-a"), OPERATION, PAYMENT));

    assertThat(inDoubt).as("a 200 that is not JSON cannot tell").isNotNull();
    assertThat(inDoubt.getMessage()).contains("not JSON");
    // The re-send asked first; the lookup could not tell, so attempt 2 was never sent.
    assertThat(methods(journal())).containsExactly("POST", "GET");
    assertThat(openIntentStore(NAME).lookup(RESOURCE, OPERATION).orElseThrow().completed())
        .isFalse();
  }

  @Test
  void lookupWhoseRecordCarriesAnotherKeyIsNeitherFoundNorNotFound() {
    // A lookup that ignores its key filter answers someone else's payment.
    server.stubFor(
        get(urlPathEqualTo("/payments"))
            .willReturn(
                aResponse()
                    .withStatus(200)
                    .withBody(
                        "{\"data\":[{\"id\":\"pay-77\",\"idempotency_key\":\"someone-else\"}]}")));
    postAnswers(aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER));

    ApiOutcomeUnknownException inDoubt =
        catchThrowableOfType(
            ApiOutcomeUnknownException.class,
            () -> destination().write(token(1, "worker-a"), OPERATION, PAYMENT));
    assertThat(inDoubt).as("someone else's record is not ours").isNotNull();
    assertThat(inDoubt.getMessage())
        .contains("\"someone-else\"", "/idempotency_key", "does not filter by key");
    int sentByA = journal().size();

    // A new owner asks the same lookup: it cannot tell either, so it sends nothing.
    assertThatThrownBy(
            () ->
                destination(b -> b.intentStore(openIntentStore(NAME)))
                    .write(token(2, "worker-b"), OPERATION, PAYMENT))
        .isInstanceOf(ApiOutcomeUnknownException.class)
        .hasMessageContaining("does not filter by key");
    assertThat(methods(journal().subList(sentByA, journal().size()))).containsExactly("GET");
    assertThat(openIntentStore(NAME).lookup(RESOURCE, OPERATION).orElseThrow().completed())
        .isFalse();
  }

  @Test
  void refusalAfterAnEarlierCallMayHaveLandedIsReportedAsOutcomeUnknown() {
    // Worker A's request lands, its answers are lost, and there is no lookup: in doubt.
    postAnswers(applies(aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER)));
    assertThatThrownBy(
            () ->
                builderWithoutLookup(openIntentStore(NAME))
                    .build()
                    .write(token(1, "worker-a"), OPERATION, PAYMENT))
        .isInstanceOf(ApiOutcomeUnknownException.class);
    int sentByA = journal().size();
    server.resetScenarios();
    postAnswers(aResponse().withStatus(400).withBody("{\"error\":\"duplicate\"}"));

    ApiRejectedException rejected =
        catchThrowableOfType(
            ApiRejectedException.class,
            () ->
                builderWithoutLookup(openIntentStore(NAME))
                    .resendInDoubtWithoutLookup(true)
                    .build()
                    .write(token(2, "worker-b"), OPERATION, PAYMENT));

    assertThat(rejected.status()).isEqualTo(400);
    assertThat(rejected.outcomeUnknown())
        .as("worker A's request may have landed before B's refusal")
        .isTrue();
    assertThat(rejected.getMessage()).contains("an earlier attempt of this operation may have");
    assertThat(methods(journal().subList(sentByA, journal().size()))).containsExactly("POST");
    assertExactlyOneEffect();
  }

  @Test
  void unprocessableEntityAfterALostAnswerIsReportedAsOutcomeUnknown() {
    postAnswers(
        applies(aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER)),
        aResponse().withStatus(422));

    // No lookup (keys declared honoured): the re-send goes out without asking and is refused.
    ApiRejectedException rejected =
        catchThrowableOfType(
            ApiRejectedException.class,
            () ->
                builderWithoutLookup(openIntentStore(NAME))
                    .build()
                    .write(token(1, "worker-a"), OPERATION, PAYMENT));

    assertThat(rejected.status()).isEqualTo(422);
    assertThat(rejected.outcomeUnknown()).as("the first attempt may have landed").isTrue();
    assertThat(rejected.getMessage())
        .contains("holds another payload under idempotency key " + KEY, "may have landed");
    assertThat(methods(journal())).containsExactly("POST", "POST");
    assertExactlyOneEffect();
  }

  @Test
  void fileBodyChangedBetweenAttemptsIsNotSentAgainAndTheOutcomeIsUnknown(@TempDir Path dir)
      throws IOException {
    Path file = Files.writeString(dir.resolve("report.csv"), "a,b\n".repeat(1_000));
    ApiRequest upload =
        ApiRequest.of("POST", "/payments", "text/csv", Map.of(), new FileBody(file));
    postAnswers(applies(aResponse().withStatus(503)), created());
    // The file is rewritten while the API holds the first attempt.
    api.beforeNextRequest(() -> rewrite(file, "x,y\n".repeat(2_000)));

    // No lookup (keys declared honoured), so nothing but the file check stands before attempt 2.
    ApiOutcomeUnknownException inDoubt =
        catchThrowableOfType(
            ApiOutcomeUnknownException.class,
            () ->
                builderWithoutLookup(openIntentStore(NAME))
                    .build()
                    .write(token(1, "worker-a"), OPERATION, upload));

    assertThat(inDoubt).as("the first attempt reached the API").isNotNull();
    assertThat(inDoubt.getMessage())
        .contains(file.toString(), "changed since its fingerprint was taken", "put the file back");
    assertThat(methods(journal())).as("the changed file is never sent").containsExactly("POST");
    assertExactlyOneEffect();
  }

  @Test
  void fileBodyChangedBeforeTheFirstAttemptSendsNothingAndTheOutcomeIsKnown(@TempDir Path dir)
      throws IOException {
    Path file = Files.writeString(dir.resolve("report.csv"), "a,b\n".repeat(1_000));
    ApiRequest upload =
        ApiRequest.of("POST", "/payments", "text/csv", Map.of(), new FileBody(file));
    postAnswers(created());
    // Same size, other content, one minute newer: only the modification time tells.
    FileTime taken = Files.getLastModifiedTime(file);
    rewrite(file, "x,y\n".repeat(1_000));
    Files.setLastModifiedTime(file, FileTime.from(taken.toInstant().plusSeconds(60)));

    dev.fenceline.spi.StoreException refused =
        catchThrowableOfType(
            dev.fenceline.spi.StoreException.class,
            () -> destination().write(token(1, "worker-a"), OPERATION, upload));

    assertThat(refused).isNotNull().isNotInstanceOf(ApiOutcomeUnknownException.class);
    assertThat(refused.outcomeUnknown()).isFalse();
    assertThat(refused.getMessage())
        .startsWith("Cannot send operation " + OPERATION)
        .contains(file.toString(), "no request of it reached the API", "new operation ID");
    assertThat(journal()).isEmpty();
  }

  static void rewrite(Path file, String content) {
    try {
      Files.writeString(file, content);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Test
  void withoutALookupAPossiblySentOperationStaysInDoubtAndNothingIsSent() {
    postAnswers(applies(aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER)));
    assertThatThrownBy(
            () ->
                builderWithoutLookup(openIntentStore(NAME))
                    .build()
                    .write(token(1, "worker-a"), OPERATION, PAYMENT))
        .isInstanceOf(ApiOutcomeUnknownException.class);
    int sentByA = journal().size();
    server.resetScenarios();
    postAnswers(created());

    ApiOutcomeUnknownException inDoubt =
        catchThrowableOfType(
            ApiOutcomeUnknownException.class,
            () ->
                builderWithoutLookup(openIntentStore(NAME))
                    .build()
                    .write(token(2, "worker-b"), OPERATION, PAYMENT));

    assertThat(inDoubt).as("no lookup, so nothing says the API never saw it").isNotNull();
    assertThat(inDoubt.getMessage())
        .contains("no lookup request is configured", "resendInDoubtWithoutLookup", KEY);
    assertThat(journal()).hasSize(sentByA);
    assertExactlyOneEffect();
    assertThat(openIntentStore(NAME).lookup(RESOURCE, OPERATION).orElseThrow().completed())
        .isFalse();
  }

  @Test
  void blindResendWithoutALookupAnswersAlreadyAppliedAndNeverPastTheKeyRetention() {
    postAnswers(applies(aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER)));
    assertThatThrownBy(
            () ->
                builderWithoutLookup(openIntentStore(NAME))
                    .build()
                    .write(token(1, "worker-a"), OPERATION, PAYMENT))
        .isInstanceOf(ApiOutcomeUnknownException.class);
    int sentByA = journal().size();
    server.resetScenarios();
    postAnswers(created());

    // Past the key retention even the opt-in sends nothing.
    java.time.Clock later =
        java.time.Clock.offset(java.time.Clock.systemUTC(), Duration.ofHours(25));
    assertThatThrownBy(
            () ->
                builderWithoutLookup(openIntentStore(NAME))
                    .resendInDoubtWithoutLookup(true)
                    .keyRetention(Duration.ofHours(24))
                    .clock(later)
                    .build()
                    .write(token(2, "worker-b"), OPERATION, PAYMENT))
        .isInstanceOf(ApiOutcomeUnknownException.class)
        .hasMessageContaining("longer than the API keeps idempotency keys");
    assertThat(journal()).hasSize(sentByA);

    // Within it the opt-in re-sends under the same key; the API replays A's payment.
    WriteOutcome outcome =
        builderWithoutLookup(openIntentStore(NAME))
            .resendInDoubtWithoutLookup(true)
            .build()
            .write(token(2, "worker-b"), OPERATION, PAYMENT);

    assertThat(outcome)
        .as("the effect may be worker A's: this call cannot claim it applied it")
        .isInstanceOf(AlreadyApplied.class);
    assertThat(((AlreadyApplied) outcome).receipt().attributes())
        .containsEntry("payment-id", api.paymentFor(KEY));
    assertThat(methods(journal().subList(sentByA, journal().size()))).containsExactly("POST");
    assertOneKeyAndCredentials(journal());
    assertExactlyOneEffect();
  }

  /**
   * Worker A (epoch 1) records its intent for {@link #PAYMENT} and stalls before its first attempt
   * (its clock jumps past the re-check threshold); {@code meanwhile} runs, then A goes on. The API
   * answers POSTs with {@code created()} and lookups from its state.
   *
   * @return A's outcome
   */
  private WriteOutcome workerAStalledBeforeItsFirstAttempt(Runnable meanwhile) {
    postAnswers(created());
    lookupAnswers();
    PausePoints steps = new PausePoints();
    PausePoints.Pause stalled = steps.pauseAt(FencingStep.AFTER_COMMIT, "worker-a");
    HttpApiDestination workerA =
        destination(b -> b.intentStore(openIntentStore(NAME, steps)).nanoTime(stallingTicker()));
    CompletableFuture<WriteOutcome> a =
        CompletableFuture.supplyAsync(
            () -> workerA.write(token(1, "worker-a"), OPERATION, PAYMENT));
    stalled.awaitReached();
    meanwhile.run();
    stalled.resume();
    return a.join();
  }

  @Test
  void workerStalledBeforeItsFirstAttemptIsRejectedAsStaleWhenANewerOwnerCompletedTheOperation() {
    AtomicReference<WriteOutcome> b = new AtomicReference<>();
    WriteOutcome late =
        workerAStalledBeforeItsFirstAttempt(
            () ->
                b.set(
                    destination(x -> x.intentStore(openIntentStore(NAME)))
                        .write(token(2, "worker-b"), OPERATION, PAYMENT)));
    assertThat(b.get()).isInstanceOf(Applied.class);

    assertThat(late)
        .as(
            "epoch 2 was registered and completed the operation with its own request: the stale"
                + " call is rejected, never answered with the newer owner's receipt")
        .isEqualTo(new RejectedStale(RESOURCE, Epoch.of(1), Epoch.of(2)));
    assertThat(methods(journal()))
        .as("the stalled worker read its intent again and sent nothing")
        .containsExactly("GET", "POST");
    assertExactlyOneEffect();
  }

  @Test
  void workerStalledBeforeItsFirstAttemptAnswersAlreadyAppliedWhenACallOfItsEpochCompletedIt() {
    // The same owner retries the operation in another call (same token) and completes it.
    AtomicReference<WriteOutcome> retry = new AtomicReference<>();
    WriteOutcome late =
        workerAStalledBeforeItsFirstAttempt(
            () ->
                retry.set(
                    destination(x -> x.intentStore(openIntentStore(NAME)))
                        .write(token(1, "worker-a"), OPERATION, PAYMENT)));
    assertThat(retry.get()).isInstanceOf(Applied.class);

    assertThat(late).isEqualTo(new AlreadyApplied(((Applied) retry.get()).receipt()));
    assertThat(methods(journal()))
        .as("the stalled call read its intent again and sent nothing")
        .containsExactly("GET", "POST");
    assertExactlyOneEffect();
  }

  @Test
  void workerStalledBeforeItsFirstAttemptIsRejectedAsStaleOnceANewerOwnerBeganTheOperation() {
    // Worker B begins the operation and is still at it.
    WriteOutcome late =
        workerAStalledBeforeItsFirstAttempt(
            () ->
                openIntentStore(NAME)
                    .begin(token(2, "worker-b"), OPERATION, PAYMENT.fingerprint()));

    assertThat(late).isEqualTo(new RejectedStale(RESOURCE, Epoch.of(1), Epoch.of(2)));
    assertThat(journal()).isEmpty();
  }

  /**
   * While the API holds worker A's (epoch 1) first request, worker B (epoch 2) takes over and
   * writes the operation, which B must get {@link Applied}; then A's request goes on. A's call must
   * end in doubt.
   *
   * @param outcomeOfB receives B's outcome
   * @return A's in-doubt failure (null if A ended otherwise, which the caller's assertion reports)
   */
  private ApiOutcomeUnknownException workerAInDoubtAfterBTookOverDuringItsFirstAttempt(
      AtomicReference<WriteOutcome> outcomeOfB) {
    lookupAnswers();
    HttpApiDestination workerA = destination(b -> b.attemptTimeLimit(Duration.ofSeconds(30)));
    HttpApiDestination workerB = destination(b -> b.intentStore(openIntentStore(NAME)));
    api.beforeNextRequest(
        () -> outcomeOfB.set(workerB.write(token(2, "worker-b"), OPERATION, PAYMENT)));

    ApiOutcomeUnknownException inDoubt =
        catchThrowableOfType(
            ApiOutcomeUnknownException.class,
            () -> workerA.write(token(1, "worker-a"), OPERATION, PAYMENT));

    assertThat(outcomeOfB.get()).isInstanceOf(Applied.class);
    return inDoubt;
  }

  @Test
  void retryIsNotSentAndTheCallIsInDoubtWhenANewerOwnerCompletedTheOperationMeanwhile() {
    postAnswers(aResponse().withStatus(500), created());
    AtomicReference<WriteOutcome> b = new AtomicReference<>();
    ApiOutcomeUnknownException inDoubt = workerAInDoubtAfterBTookOverDuringItsFirstAttempt(b);

    assertThat(inDoubt)
        .as(
            "A is stale and its first attempt reached the API: in doubt, never AlreadyApplied"
                + " with B's receipt")
        .isNotNull();
    assertThat(inDoubt.getMessage())
        .contains("a newer owner (epoch 2) took the resource over", "attempt 2 was not sent");
    assertThat(methods(journal()))
        .as("A's first attempt, B's lookup and request; A's retry never went out")
        .containsExactlyInAnyOrder("POST", "GET", "POST");
    assertExactlyOneEffect();
  }

  @Test
  void aCallWhoseRequestTheApiAnsweredWithANewerOwnersResultIsInDoubt() {
    // A's request waits at the API while B takes over: B's lookup finds nothing, B's request
    // makes the payment, and A's request is answered with B's stored result (same key).
    postAnswers(created());
    AtomicReference<WriteOutcome> b = new AtomicReference<>();
    ApiOutcomeUnknownException inDoubt = workerAInDoubtAfterBTookOverDuringItsFirstAttempt(b);

    assertThat(((Applied) b.get()).receipt().epoch()).isEqualTo(Epoch.of(2));
    assertThat(inDoubt)
        .as("B recorded its own request's result first: A cannot say AlreadyApplied with it")
        .isNotNull();
    assertThat(inDoubt.getMessage())
        .contains("recorded by a newer owner (epoch 2)", "which one is not known");
    assertThat(methods(journal())).containsExactlyInAnyOrder("POST", "GET", "POST");
    assertExactlyOneEffect();
  }

  @Test
  void aCallWhoseLandedRequestANewerOwnerRecordedFirstIsStillApplied() {
    // A's request lands, but its answer is a 500. Before A's retry, A asks the lookup; while the
    // API holds that lookup, B takes over, finds A's payment and records it under A's epoch.
    postAnswers(applies(aResponse().withStatus(500)), created());
    lookupAnswers();
    HttpApiDestination workerA = destination(b -> b.attemptTimeLimit(Duration.ofSeconds(30)));
    HttpApiDestination workerB = destination(b -> b.intentStore(openIntentStore(NAME)));
    AtomicReference<WriteOutcome> b = new AtomicReference<>();
    api.beforeNextRequest( // A's POST
        () ->
            api.beforeNextRequest( // A's lookup before its retry
                () -> b.set(workerB.write(token(2, "worker-b"), OPERATION, PAYMENT))));

    WriteOutcome a = workerA.write(token(1, "worker-a"), OPERATION, PAYMENT);

    assertThat(b.get())
        .as("B sent nothing: A's payment was there")
        .isInstanceOf(AlreadyApplied.class);
    Receipt receipt = ((AlreadyApplied) b.get()).receipt();
    assertThat(receipt.epoch()).isEqualTo(Epoch.of(1));
    assertThat(a)
        .as("the payment is A's request's: A's call applied it, whoever recorded it first")
        .isEqualTo(new Applied(receipt));
    assertThat(methods(journal())).containsExactlyInAnyOrder("POST", "GET", "GET");
    assertExactlyOneEffect();
  }

  @Test
  void retryIsNotSentWhenANewerOwnerBeganTheOperationAfterThisCallsAttemptMayHaveLanded() {
    postAnswers(applies(aResponse().withStatus(500)), created());
    lookupAnswers();
    HttpApiDestination workerA = destination(b -> b.attemptTimeLimit(Duration.ofSeconds(30)));
    // While the API holds A's first attempt, worker B begins the operation.
    api.beforeNextRequest(
        () -> openIntentStore(NAME).begin(token(2, "worker-b"), OPERATION, PAYMENT.fingerprint()));

    ApiOutcomeUnknownException inDoubt =
        catchThrowableOfType(
            ApiOutcomeUnknownException.class,
            () -> workerA.write(token(1, "worker-a"), OPERATION, PAYMENT));

    assertThat(inDoubt).as("A's first attempt may have landed: not stale, in doubt").isNotNull();
    assertThat(inDoubt.getMessage()).contains("a newer owner (epoch 2) took the resource over");
    assertThat(methods(journal())).containsExactly("POST");
    assertExactlyOneEffect();
  }

  @Test
  void retryIsNotSentOnceANewerOwnerRegisteredTheResourceEvenBeforeItBeganTheOperation() {
    postAnswers(aResponse().withStatus(503), created());
    lookupAnswers();
    HttpApiDestination workerA = destination();
    // While the API holds A's first attempt, worker B only registers its newer epoch.
    api.beforeNextRequest(() -> openIntentStore(NAME).register(token(2, "worker-b")));

    ApiOutcomeUnknownException inDoubt =
        catchThrowableOfType(
            ApiOutcomeUnknownException.class,
            () -> workerA.write(token(1, "worker-a"), OPERATION, PAYMENT));

    assertThat(inDoubt).as("A's first attempt reached the API: in doubt, not stale").isNotNull();
    assertThat(inDoubt.getMessage())
        .contains("a newer owner (epoch 2) took the resource over", "attempt 2 was not sent");
    assertThat(methods(journal())).containsExactly("POST");
  }

  @Test
  void retryIsNotSentOnceTheOperationIsOlderThanTheApisKeyRetention() {
    postAnswers(applies(aResponse().withStatus(500)), created());
    lookupAnswers();
    MutableClock clock = new MutableClock(Instant.now());
    HttpApiDestination destination =
        destination(b -> b.keyRetention(Duration.ofHours(24)).clock(clock));
    // The first attempt lands, and 25 hours pass before its answer (a long stall).
    api.beforeNextRequest(() -> clock.advance(Duration.ofHours(25)));

    ApiOutcomeUnknownException inDoubt =
        catchThrowableOfType(
            ApiOutcomeUnknownException.class,
            () -> destination.write(token(1, "worker-a"), OPERATION, PAYMENT));

    assertThat(inDoubt).as("the API may have forgotten the key of the landed attempt").isNotNull();
    assertThat(inDoubt.getMessage())
        .contains("longer than the API keeps idempotency keys", "attempt 2 was not sent");
    assertThat(methods(journal())).containsExactly("POST");
    assertExactlyOneEffect();
  }
}
