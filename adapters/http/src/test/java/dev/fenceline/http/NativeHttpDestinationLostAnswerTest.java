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
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.fenceline.spi.AlreadyApplied;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingStep;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Receipt;
import dev.fenceline.spi.Registered;
import dev.fenceline.spi.RejectedStale;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StepListener;
import dev.fenceline.spi.StoreException;
import dev.fenceline.spi.UntrustedTokenException;
import dev.fenceline.spi.WriteOutcome;
import dev.fenceline.tck.PausePoints;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A write whose first attempt may have landed, answered with a refusal on the retry (issue 18, item
 * 1), against {@link FakeFencedApi}. Attempt 1 of worker-5 is stopped inside the API (after its
 * commit: it landed; before the lock: it is still in flight), a refusal for the retry is arranged
 * meanwhile, and the attempt's answer is lost ({@link AnswerLosingClient}, or the attempt time
 * limit). A refusal after that never proves "nothing changed": the destination looks the key up.
 */
class NativeHttpDestinationLostAnswerTest {

  private static final HttpClient CLIENT =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  private static final String WORKER = "worker-5";

  /** How the API refuses the retry. */
  enum Refusal {
    /** A newer owner registered epoch 6: the retry with epoch 5 is answered 409 stale. */
    STALE,
    /** 400. */
    BAD_REQUEST,
    /** 401 (a bearer token that was rotated meanwhile, say). */
    UNAUTHORIZED,
    /** 404 (a route that went away). */
    NOT_FOUND,
    /** 403 with the untrusted-token marker. */
    UNTRUSTED
  }

  @TempDir Path directory;
  private FakeFencedApi api;
  private String issuer;
  private final AnswerLosingClient client = new AnswerLosingClient(CLIENT);

  @BeforeEach
  void startApi() {
    api = new FakeFencedApi(directory);
    issuer = api.store().leaseIssuer().id();
  }

  @AfterEach
  void stopApi() {
    api.close();
  }

  private NativeHttpDestination destination(
      StepListener steps, Function<URI, NativeHttpDestination.Builder> protocol) {
    return protocol
        .apply(api.profile(steps, Optional.empty()).baseUri())
        .name("reports")
        .httpClient(client)
        .attemptTimeLimit(PausePoints.TIMEOUT)
        .backoff(Duration.ofMillis(1), 2.0, Duration.ofMillis(5))
        .circuitBreaker(
            CircuitBreakerConfig.custom().slidingWindowSize(100).minimumNumberOfCalls(100).build())
        .build();
  }

  private NativeHttpDestination destination(StepListener steps) {
    return destination(steps, FakeFencedApi::configuredFor);
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

  /** Makes the API refuse the next write of epoch 5 of {@code resource} as {@code refusal} says. */
  private void arrange(Refusal refusal, ResourceId resource) {
    switch (refusal) {
      case STALE -> {
        NativeHttpDestination newOwner = destination(StepListener.NONE);
        assertThat(newOwner.register(token(resource, 6))).isInstanceOf(Registered.class);
      }
      case BAD_REQUEST -> api.answerNextWriteWith(400, "amount is missing");
      case UNAUTHORIZED -> api.answerNextWriteWith(401, "missing or wrong bearer token");
      case NOT_FOUND -> api.answerNextWriteWith(404, "no such endpoint");
      case UNTRUSTED -> api.answerNextWriteAsUntrusted("the token's signature does not verify");
    }
  }

  /**
   * Stops worker-5's first attempt at {@code step} inside the API, arranges the retry's refusal,
   * loses the attempt's answer, and, if {@code holdUntilReleased}, keeps the attempt stopped there
   * until {@link #release()}.
   */
  private final class FirstAnswerLost implements StepListener {
    private final FencingStep step;
    private final Consumer<ResourceId> arrangeRetry;
    private final boolean holdUntilReleased;
    private final AtomicBoolean fired = new AtomicBoolean();
    private final CountDownLatch released = new CountDownLatch(1);

    FirstAnswerLost(FencingStep step, Refusal refusal, boolean holdUntilReleased) {
      this(step, resource -> arrange(refusal, resource), holdUntilReleased);
    }

    FirstAnswerLost(
        FencingStep step, Consumer<ResourceId> arrangeRetry, boolean holdUntilReleased) {
      this.step = step;
      this.arrangeRetry = arrangeRetry;
      this.holdUntilReleased = holdUntilReleased;
    }

    @Override
    public void reached(FencingStep reached, FencingToken token, OperationId operation) {
      if (reached != step || !token.holder().equals(WORKER) || !fired.compareAndSet(false, true)) {
        return;
      }
      arrangeRetry.accept(token.resource());
      client.loseTheAnswer();
      if (holdUntilReleased) {
        try {
          if (!released.await(PausePoints.TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new IllegalStateException("the first attempt was never released");
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException(e);
        }
      }
    }

    void release() {
      released.countDown();
    }
  }

  private static ResourceId resource(Refusal refusal) {
    return ResourceId.of("reports/" + refusal.name().toLowerCase(Locale.ROOT));
  }

  @Test
  void aStaleAnswerToTheRetryOfAnAttemptThatLandedIsAlreadyAppliedNotRejectedStale() {
    // The reproduction, with the answer lost to the attempt time limit.
    ResourceId resource = ResourceId.of("reports/timed-out");
    StepListener steps =
        new StepListener() {
          private final AtomicBoolean fired = new AtomicBoolean();

          @Override
          public void reached(FencingStep step, FencingToken token, OperationId operation) {
            if (step == FencingStep.AFTER_COMMIT
                && token.holder().equals(WORKER)
                && fired.compareAndSet(false, true)) {
              arrange(Refusal.STALE, token.resource());
              api.awaitBusinessRequests(2); // the retry arrives after the time limit passed
            }
          }
        };
    NativeHttpDestination destination =
        FakeFencedApi.configuredFor(api.profile(steps, Optional.empty()).baseUri())
            .name("reports")
            .httpClient(CLIENT)
            .attemptTimeLimit(Duration.ofSeconds(2))
            .backoff(Duration.ofMillis(1), 2.0, Duration.ofMillis(5))
            .build();

    WriteOutcome outcome =
        destination.write(token(resource, 5), OperationId.of("landed"), report("L"));

    Receipt found = destination.lookup(resource, OperationId.of("landed")).orElseThrow();
    assertThat(outcome)
        .as("attempt 1 applied it; the retry's stale answer does not undo that")
        .isEqualTo(new AlreadyApplied(found));
    assertThat(found.epoch()).isEqualTo(Epoch.of(5));
    assertThat(api.applyCount(resource)).isEqualTo(1);
  }

  @ParameterizedTest
  @EnumSource(Refusal.class)
  void aRefusedRetryOfAnAttemptThatLandedIsTheReceiptTheLookupFinds(Refusal refusal) {
    ResourceId resource = resource(refusal);
    NativeHttpDestination destination =
        destination(new FirstAnswerLost(FencingStep.AFTER_COMMIT, refusal, false));
    client.loseTheNextAnswer();

    WriteOutcome outcome =
        destination.write(token(resource, 5), OperationId.of("landed"), report("L"));

    Receipt found = destination.lookup(resource, OperationId.of("landed")).orElseThrow();
    assertThat(outcome).isEqualTo(new AlreadyApplied(found));
    assertThat(api.applyCount(resource)).isEqualTo(1);
    assertThat(api.businessRequests()).as("the lost attempt and the refused retry").isEqualTo(2);
  }

  @Test
  void aStaleRetryWhoseLookupFindsNothingIsRejectedStaleAndTheEarlierAttemptCannotLandLater() {
    ResourceId resource = resource(Refusal.STALE);
    FirstAnswerLost inFlight = new FirstAnswerLost(FencingStep.BEFORE_LOCK, Refusal.STALE, true);
    NativeHttpDestination destination = destination(inFlight);
    client.loseTheNextAnswer();

    WriteOutcome outcome;
    try {
      outcome = destination.write(token(resource, 5), OperationId.of("in-flight"), report("F"));
    } finally {
      inFlight.release();
    }

    assertThat(outcome).isEqualTo(new RejectedStale(resource, Epoch.of(5), Epoch.of(6)));
    api.awaitBusinessRequestsHandled(2);
    assertThat(api.applyCount(resource))
        .as("the attempt still in flight reaches the epoch check after epoch 6 and is refused")
        .isZero();
    assertThat(destination.lookup(resource, OperationId.of("in-flight"))).isEmpty();
  }

  @ParameterizedTest
  @EnumSource(value = Refusal.class, names = "STALE", mode = EnumSource.Mode.EXCLUDE)
  void anotherRefusedRetryWhoseLookupFindsNothingIsOutcomeUnknownAsTheEarlierAttemptMayLand(
      Refusal refusal) {
    ResourceId resource = resource(refusal);
    FirstAnswerLost inFlight = new FirstAnswerLost(FencingStep.BEFORE_LOCK, refusal, true);
    NativeHttpDestination destination = destination(inFlight);
    client.loseTheNextAnswer();

    try {
      assertThatThrownBy(
              () -> destination.write(token(resource, 5), OperationId.of("in-flight"), report("F")))
          .isInstanceOfSatisfying(
              StoreException.class, e -> assertThat(e.outcomeUnknown()).isTrue())
          .hasMessageContaining("Cannot write operation in-flight of " + resource + " to reports")
          .hasMessageContaining("an earlier attempt's answer was lost")
          .hasMessageContaining("the lookup does not find the operation yet");
    } finally {
      inFlight.release();
    }

    api.awaitBusinessRequestsHandled(2);
    assertThat(api.applyCount(resource))
        .as(
            "the earlier attempt landed after the refusal: \"nothing changed\" would have been false")
        .isEqualTo(1);
  }

  @Test
  void aConflictAnswerToTheRetryOfAnAttemptStillInFlightIsOutcomeUnknown() {
    ResourceId resource = ResourceId.of("reports/conflict");
    FirstAnswerLost inFlight =
        new FirstAnswerLost(
            FencingStep.BEFORE_LOCK,
            ignored -> api.answerNextWriteWith(422, "key used with another request"),
            true);
    NativeHttpDestination destination = destination(inFlight);
    client.loseTheNextAnswer();

    try {
      assertThatThrownBy(
              () -> destination.write(token(resource, 5), OperationId.of("in-flight"), report("F")))
          .isInstanceOfSatisfying(
              StoreException.class, e -> assertThat(e.outcomeUnknown()).isTrue())
          .hasMessageContaining("was used before with a different request");
    } finally {
      inFlight.release();
    }

    api.awaitBusinessRequestsHandled(2);
    assertThat(api.applyCount(resource)).isEqualTo(1);
  }

  @ParameterizedTest
  @EnumSource(Refusal.class)
  void aRefusedRetryOfAnAttemptThatMayHaveLandedIsOutcomeUnknownWhenTheLookupFails(
      Refusal refusal) {
    ResourceId resource = resource(refusal);
    NativeHttpDestination destination =
        destination(new FirstAnswerLost(FencingStep.AFTER_COMMIT, refusal, false));
    api.failLookupsWith(503);
    client.loseTheNextAnswer();

    assertThatThrownBy(
            () -> destination.write(token(resource, 5), OperationId.of("landed"), report("L")))
        .isInstanceOfSatisfying(StoreException.class, e -> assertThat(e.outcomeUnknown()).isTrue())
        .hasMessageContaining("an earlier attempt's answer was lost")
        .hasMessageContaining("the lookup failed");
    assertThat(api.applyCount(resource)).isEqualTo(1);
  }

  @ParameterizedTest
  @EnumSource(Refusal.class)
  void aRefusedRetryOfAnAttemptThatMayHaveLandedIsOutcomeUnknownWithoutALookupRequest(
      Refusal refusal) {
    ResourceId resource = resource(refusal);
    NativeHttpDestination destination =
        destination(
            new FirstAnswerLost(FencingStep.AFTER_COMMIT, refusal, false),
            FakeFencedApi::configuredWithoutLookupFor);
    client.loseTheNextAnswer();

    assertThatThrownBy(
            () -> destination.write(token(resource, 5), OperationId.of("landed"), report("L")))
        .isInstanceOfSatisfying(StoreException.class, e -> assertThat(e.outcomeUnknown()).isTrue())
        .hasMessageContaining("an earlier attempt's answer was lost")
        .hasMessageContaining("no lookup request is configured");
    assertThat(api.applyCount(resource)).isEqualTo(1);
  }

  @ParameterizedTest
  @EnumSource(Refusal.class)
  void aRefusalOfTheFirstAttemptStaysAKnownRefusalWithoutALookup(Refusal refusal) {
    ResourceId resource = resource(refusal);
    NativeHttpDestination destination = destination(StepListener.NONE);
    arrange(refusal, resource);
    // A lookup would fail: the refusal is reported from the answer alone.
    api.failLookupsWith(503);

    if (refusal == Refusal.STALE) {
      assertThat(destination.write(token(resource, 5), OperationId.of("first"), report("F")))
          .isEqualTo(new RejectedStale(resource, Epoch.of(5), Epoch.of(6)));
    } else if (refusal == Refusal.UNTRUSTED) {
      assertThatThrownBy(
              () -> destination.write(token(resource, 5), OperationId.of("first"), report("F")))
          .isInstanceOf(UntrustedTokenException.class)
          .hasMessageContaining("the API refused the token as untrusted");
    } else {
      assertThatThrownBy(
              () -> destination.write(token(resource, 5), OperationId.of("first"), report("F")))
          .isInstanceOfSatisfying(
              StoreException.class, e -> assertThat(e.outcomeUnknown()).isFalse())
          .hasMessageContaining("changed nothing");
    }
    assertThat(api.applyCount(resource)).isZero();
    assertThat(api.businessRequests()).isEqualTo(1);
  }

  @ParameterizedTest
  @EnumSource(Refusal.class)
  void withoutALookupRequestTheUnknownOutcomeNamesHowToConfigureOne(Refusal refusal) {
    ResourceId resource = resource(refusal);
    NativeHttpDestination destination =
        destination(
            new FirstAnswerLost(FencingStep.AFTER_COMMIT, refusal, false),
            FakeFencedApi::configuredWithoutLookupFor);
    client.loseTheNextAnswer();

    assertThatThrownBy(
            () -> destination.write(token(resource, 5), OperationId.of("landed"), report("L")))
        .isInstanceOfSatisfying(StoreException.class, e -> assertThat(e.outcomeUnknown()).isTrue())
        .hasMessageContaining("lookupRequest(path)")
        .hasMessageContaining("lookup-request")
        .hasMessageNotContaining("look the result up");
  }

  @ParameterizedTest
  @EnumSource(Refusal.class)
  void aFailedLookupIsOneReasonInTheMessageNotASecondCannot(Refusal refusal) {
    ResourceId resource = resource(refusal);
    NativeHttpDestination destination =
        destination(new FirstAnswerLost(FencingStep.AFTER_COMMIT, refusal, false));
    api.failLookupsWith(503);
    client.loseTheNextAnswer();

    StoreException failure =
        catchThrowableOfType(
            StoreException.class,
            () -> destination.write(token(resource, 5), OperationId.of("landed"), report("L")));
    assertThat(failure.outcomeUnknown()).isTrue();
    // (the API's own message of a stale refusal may hold a "Cannot" of its own)
    assertThat(failure.getMessage())
        .startsWith("Cannot write operation landed")
        .doesNotContain("Cannot look up")
        .contains("the lookup failed (");
  }
}
