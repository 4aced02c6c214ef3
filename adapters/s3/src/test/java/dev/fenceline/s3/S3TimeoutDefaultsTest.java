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
package dev.fenceline.s3;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fenceline.spi.BlobKey;
import dev.fenceline.spi.StoreException;
import dev.fenceline.tck.SilentServer;
import dev.fenceline.tck.TimedFailure;
import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;

/**
 * With its default timeouts, one call of an S3 store to an endpoint that accepts connections and
 * never answers ends with a clear {@link StoreException} well within the default lease ttl (30 s).
 */
class S3TimeoutDefaultsTest {

  /** The default lease ttl ({@code Fenceline.builder()}, YAML {@code lease.ttl}). */
  private static final Duration DEFAULT_TTL = Duration.ofSeconds(30);

  private static final Duration WITHIN_DEFAULT_TTL = DEFAULT_TTL.minusSeconds(5);

  @Test
  void theDefaultCallTimeoutBoundsEveryRequestWithItsRetriesWellBelowTheDefaultTtl() {
    assertThat(S3Store.DEFAULT_CALL_TIMEOUT).isLessThanOrEqualTo(WITHIN_DEFAULT_TTL);
    assertThat(S3Store.DEFAULT_ATTEMPT_TIMEOUT).isLessThanOrEqualTo(S3Store.DEFAULT_CALL_TIMEOUT);
    assertThat(S3Store.DEFAULT_SOCKET_TIMEOUT).isLessThan(S3Store.DEFAULT_CALL_TIMEOUT);
    assertThat(S3Store.DEFAULT_CONNECT_TIMEOUT).isLessThan(S3Store.DEFAULT_SOCKET_TIMEOUT);
  }

  @Test
  void withTheDefaultsACallToASilentEndpointFailsClearlyWithinTheDefaultTtl() throws Exception {
    try (SilentServer silent = SilentServer.start("s3")) {
      try (S3Store store =
          S3Store.builder("reports")
              .endpoint(URI.create("http://127.0.0.1:" + silent.port()))
              .pathStyle(true)
              .region("us-east-1")
              .credentials(
                  StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local")))
              .build()) {
        TimedFailure<StoreException> timed =
            TimedFailure.within(
                WITHIN_DEFAULT_TTL,
                StoreException.class,
                () -> store.blobStore().stat(BlobKey.of("reports/a.csv")));
        StoreException failure = timed.thrown();
        Duration took = timed.took();
        System.out.println(
            "silent S3 endpoint, default timeouts: the call failed after " + took + ": " + failure);

        assertThat(failure).isNotNull();
        assertThat(silent.acceptedConnections()).isPositive();
        // A timeout ended it (the socket timeout of the first attempt at least), not a refusal.
        assertThat(took).isGreaterThanOrEqualTo(S3Store.DEFAULT_SOCKET_TIMEOUT.minusMillis(500));
      }
    }
  }
}
