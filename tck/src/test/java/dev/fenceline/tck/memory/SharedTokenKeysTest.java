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
package dev.fenceline.tck.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.Lease;
import dev.fenceline.spi.Registered;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StepListener;
import dev.fenceline.spi.TokenKeys;
import dev.fenceline.spi.UntrustedTokenException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * What the README's trust boundary says about signed tokens: a signature binds issuer, resource,
 * epoch and holder, not a destination, so every destination holding the keys accepts the token.
 */
class SharedTokenKeysTest {

  private static final byte[] SHARED =
      "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.UTF_8);
  private static final byte[] OTHER =
      "fedcba9876543210fedcba9876543210".getBytes(StandardCharsets.UTF_8);
  private static final ResourceId RESOURCE = ResourceId.of("reports/nightly");

  private final MutableClock clock = new MutableClock(Instant.parse("2026-10-27T01:00:00Z"));
  private final TokenKeys shared = TokenKeys.builder().key("k1", SHARED).build();

  private InMemoryPointerStore destination(String name, TokenKeys keys) {
    return new InMemoryPointerStore(
        new InMemoryPointerStore.Storage(), name, StepListener.NONE, clock, keys);
  }

  @Test
  void aSignedTokenIsAcceptedByEveryDestinationThatSharesTheKeys() {
    InMemoryLeaseIssuer issuer =
        new InMemoryLeaseIssuer(new InMemoryLeaseIssuer.Storage(), clock, shared);
    Lease lease = issuer.tryAcquire(RESOURCE, "worker-a", Duration.ofSeconds(30)).orElseThrow();
    FencingToken token = lease.token();

    // Made for "reports", the same token also registers at "invoices": the keys are the boundary.
    assertThat(destination("reports", shared).register(token)).isInstanceOf(Registered.class);
    assertThat(destination("invoices", shared).register(token)).isInstanceOf(Registered.class);
    // A destination with its own keys is outside that boundary.
    InMemoryPointerStore elsewhere =
        destination("payroll", TokenKeys.builder().key("k1", OTHER).build());
    assertThatThrownBy(() -> elsewhere.register(token))
        .isInstanceOf(UntrustedTokenException.class)
        .hasMessageContaining("does not verify");
  }
}
