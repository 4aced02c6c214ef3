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
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static com.github.tomakehurst.wiremock.stubbing.Scenario.STARTED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.github.tomakehurst.wiremock.WireMockServer;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.tck.memory.InMemoryIntentStore;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * One overall deadline per write (issue 18 item 5): a write's sends, backoffs and lookups share the
 * call time limit, so with the default settings a write to an API that is too slow ends within it,
 * inside the default lease ttl of 30 s, however many lookups the re-sends ask first.
 */
class CallTimeLimitTest {

  /** Below the default lease ttl of 30 s, with room for the intent store and the JVM. */
  private static final Duration BOUND = Duration.ofSeconds(25);

  private static final ResourceId RESOURCE = ResourceId.of("invoice-7");

  private WireMockServer server;

  @BeforeEach
  void startApi() {
    server = new WireMockServer(options().dynamicPort());
    server.start();
  }

  @AfterEach
  void stopApi() {
    server.stop();
  }

  @Test
  void theDefaultCallTimeLimitIsInsideTheDefaultLeaseTtlAndTheTargetOf22Seconds() {
    assertThat(HttpApiDestination.DEFAULT_CALL_TIME_LIMIT)
        .isEqualTo(ResilienceSettings.DEFAULT_CALL_TIME_LIMIT)
        .isLessThanOrEqualTo(Duration.ofSeconds(22))
        .isGreaterThan(HttpApiDestination.DEFAULT_ATTEMPT_TIME_LIMIT);
    assertThat(new ResilienceSettings().callTimeLimit())
        .isEqualTo(ResilienceSettings.DEFAULT_CALL_TIME_LIMIT);
  }

  @Test
  void theDefaultClientsConnectTimeoutIsNeverLongerThanAnAttempt() {
    assertThat(ResilienceSettings.defaultConnectTimeout(Duration.ofMillis(800)))
        .isEqualTo(Duration.ofMillis(800));
    assertThat(ResilienceSettings.defaultConnectTimeout(Duration.ofSeconds(3)))
        .isEqualTo(HttpApiDestination.DEFAULT_CONNECT_TIMEOUT)
        .isEqualTo(Duration.ofSeconds(2));
    assertThat(
            ResilienceSettings.defaultClient(Duration.ofMillis(800)).connectTimeout().orElseThrow())
        .isEqualTo(Duration.ofMillis(800));
  }

  @Test
  void aDeadlineCountsDownFromItsLimitAndPasses() {
    AtomicLong now = new AtomicLong(1_000);
    ApiCalls.Deadline deadline = new ApiCalls.Deadline(Duration.ofSeconds(20), now::get);
    assertThat(deadline.remaining()).isEqualTo(Duration.ofSeconds(20));
    now.addAndGet(Duration.ofSeconds(19).toNanos());
    assertThat(deadline.remaining()).isEqualTo(Duration.ofSeconds(1));
    assertThat(deadline.passed()).isFalse();
    now.addAndGet(Duration.ofSeconds(2).toNanos());
    assertThat(deadline.remaining()).isZero();
    assertThat(deadline.passed()).isTrue();
  }

  @Test
  void aCallTimeLimitThatIsNotPositiveIsRefused() {
    assertThat(
            catchThrowableOfType(
                dev.fenceline.spi.ConfigurationException.class,
                () -> HttpApiDestination.builder().callTimeLimit(Duration.ZERO)))
        .hasMessageContaining("Cannot use call time limit PT0S");
  }

  /**
   * Every POST outlasts the attempt time limit (its answer is lost, so it may have landed), and
   * every lookup (the one before each re-send and the one after the last send) times out twice and
   * then answers 404: each lookup alone takes about 3 + 0.75 + 3 + 1.5 s. Without a shared deadline
   * the write took 3 sends + 3 such lookups + backoffs, about 40 s, past the ttl.
   */
  @Test
  void withTheDefaultsAWriteToASlowApiWhoseLookupsRetryEndsInDoubtWithinTheBound() {
    server.stubFor(
        post(urlPathEqualTo("/payments"))
            .willReturn(aResponse().withStatus(201).withFixedDelay(4_000).withBody("{}")));
    // A lookup round: two attempts time out, the third answers 404; then the next round.
    server.stubFor(
        get(urlPathMatching("/payments/by-key/.*"))
            .inScenario("lookup")
            .whenScenarioStateIs(STARTED)
            .willSetStateTo("second")
            .willReturn(aResponse().withStatus(404).withFixedDelay(4_000)));
    server.stubFor(
        get(urlPathMatching("/payments/by-key/.*"))
            .inScenario("lookup")
            .whenScenarioStateIs("second")
            .willSetStateTo("third")
            .willReturn(aResponse().withStatus(404).withFixedDelay(4_000)));
    server.stubFor(
        get(urlPathMatching("/payments/by-key/.*"))
            .inScenario("lookup")
            .whenScenarioStateIs("third")
            .willSetStateTo(STARTED)
            .willReturn(aResponse().withStatus(404)));
    HttpApiDestination destination =
        HttpApiDestination.builder()
            .name("payments")
            .baseUri(URI.create(server.baseUrl()))
            .intentStore(InMemoryIntentStore.create("payments"))
            .lookup("/payments/by-key/{key}")
            // The default breaker opens after 5 failed attempts and would end the write early;
            // this test is about the time limits, so its breaker never opens.
            .circuitBreaker(
                CircuitBreakerConfig.custom()
                    .slidingWindowSize(100)
                    .minimumNumberOfCalls(100)
                    .build())
            .build();
    FencingToken token = new FencingToken("issuer-1", RESOURCE, Epoch.of(1), "worker-a");

    long start = System.nanoTime();
    ApiOutcomeUnknownException failure =
        assertTimeoutPreemptively(
            Duration.ofSeconds(90),
            () ->
                catchThrowableOfType(
                    ApiOutcomeUnknownException.class,
                    () ->
                        destination.write(
                            token,
                            OperationId.of("pay-invoice-7"),
                            ApiRequest.postJson("/payments", "{\"amount\":7}"))));
    Duration took = Duration.ofNanos(System.nanoTime() - start);
    System.out.println(
        "slow HTTP API, slow lookups, default settings: the write ended after "
            + took
            + ": "
            + failure);

    assertThat(took).isLessThanOrEqualTo(BOUND);
    assertThat(failure).isNotNull();
    assertThat(failure.outcomeUnknown()).isTrue();
    assertThat(failure)
        .hasMessageContaining("call time limit of PT20S")
        .hasMessageContaining("raise callTimeLimit");
    // It got as far as a re-send after a lookup: the deadline, not the first lookup, ended it.
    assertThat(server.findAll(postRequestedFor(urlPathEqualTo("/payments")))).hasSizeGreaterThan(1);
    assertThat(server.findAll(getRequestedFor(urlPathMatching("/payments/by-key/.*"))))
        .hasSizeGreaterThan(3);
  }
}
