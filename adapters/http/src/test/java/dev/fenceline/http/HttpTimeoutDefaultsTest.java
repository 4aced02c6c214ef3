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

import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StoreException;
import dev.fenceline.tck.SilentServer;
import dev.fenceline.tck.TimedFailure;
import dev.fenceline.tck.memory.InMemoryIntentStore;
import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * With the default settings, one write to an HTTP API that accepts connections and never answers
 * ends with a clear in-doubt error well within the default lease ttl (30 s).
 */
class HttpTimeoutDefaultsTest {

  /** The default lease ttl ({@code Fenceline.builder()}, YAML {@code lease.ttl}). */
  private static final Duration DEFAULT_TTL = Duration.ofSeconds(30);

  private static final Duration WITHIN_DEFAULT_TTL = DEFAULT_TTL.minusSeconds(5);

  @Test
  void theDefaultsBoundAWriteWithItsRetriesAndItsLookupWellBelowTheDefaultTtl() {
    // Default 3 attempts; waits of 500 ms × 2^n, ±50% jitter, at most the max backoff.
    int attempts = 3;
    Duration waits = Duration.ZERO;
    for (int retry = 0; retry < attempts - 1; retry++) {
      Duration wait = Duration.ofMillis(750).multipliedBy(1L << retry);
      waits =
          waits.plus(
              wait.compareTo(ResilienceSettings.DEFAULT_MAX_BACKOFF) < 0
                  ? wait
                  : ResilienceSettings.DEFAULT_MAX_BACKOFF);
    }
    Duration oneExchange =
        HttpApiDestination.DEFAULT_ATTEMPT_TIME_LIMIT.multipliedBy(attempts).plus(waits);
    // The sends, then the lookup that tries to decide what happened.
    Duration write = oneExchange.multipliedBy(2);

    assertThat(write).isLessThanOrEqualTo(WITHIN_DEFAULT_TTL);
    assertThat(HttpApiDestination.DEFAULT_CONNECT_TIMEOUT)
        .isLessThan(HttpApiDestination.DEFAULT_ATTEMPT_TIME_LIMIT);
  }

  @Test
  void withTheDefaultsAWriteToASilentApiEndsInDoubtWithinTheDefaultTtl() throws Exception {
    try (SilentServer silent = SilentServer.start("api")) {
      HttpApiDestination destination =
          HttpApiDestination.builder()
              .name("payments")
              .baseUri(URI.create("http://127.0.0.1:" + silent.port()))
              .intentStore(InMemoryIntentStore.create("payments"))
              .lookup("/payments/by-key/{key}")
              .build();
      ResourceId resource = ResourceId.of("invoice-7");
      FencingToken token = new FencingToken("issuer-1", resource, Epoch.of(1), "worker-a");
      TimedFailure<StoreException> timed =
          TimedFailure.within(
              WITHIN_DEFAULT_TTL,
              StoreException.class,
              () ->
                  destination.write(
                      token,
                      OperationId.of("pay-invoice-7"),
                      ApiRequest.postJson("/payments", "{\"amount\":7}")));
      StoreException failure = timed.thrown();
      Duration took = timed.took();
      System.out.println(
          "silent HTTP API, default settings: the write ended after " + took + ": " + failure);

      assertThat(failure).isInstanceOf(ApiOutcomeUnknownException.class);
      assertThat(failure.outcomeUnknown()).isTrue();
      assertThat(silent.acceptedConnections()).isPositive();
      // The attempt time limit ended it, not a refused connection.
      assertThat(took).isGreaterThanOrEqualTo(HttpApiDestination.DEFAULT_ATTEMPT_TIME_LIMIT);
    }
  }
}
