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
import static org.assertj.core.api.Assertions.assertThatCode;

import dev.fenceline.spi.Lease;
import dev.fenceline.spi.LeaseIssuer;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.TokenKeys;
import dev.fenceline.tck.LeaseIssuerContract;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class InMemoryLeaseIssuerTest extends LeaseIssuerContract {

  private final InMemoryLeaseIssuer.Storage storage = new InMemoryLeaseIssuer.Storage();
  private final MutableClock clock = new MutableClock(Instant.parse("2026-10-27T01:00:00Z"));
  private InMemoryLeaseIssuer issuer = new InMemoryLeaseIssuer(storage, clock);

  @Override
  protected LeaseIssuer issuer() {
    return issuer;
  }

  @Override
  protected void restartStore() {
    issuer = new InMemoryLeaseIssuer(storage, clock);
  }

  @Override
  protected void awaitExpiry(Lease lease) {
    clock.advance(lease.ttl().plus(Duration.ofMillis(1)));
  }

  @Test
  void anIssuerWithKeysSignsEveryTokenItHandsOut() {
    TokenKeys keys =
        TokenKeys.builder()
            .key("k1", "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.UTF_8))
            .build();
    InMemoryLeaseIssuer signing = new InMemoryLeaseIssuer(storage, clock, keys);

    Lease lease =
        signing
            .tryAcquire(ResourceId.of("signed/r"), "worker-a", Duration.ofMinutes(1))
            .orElseThrow();

    assertThat(lease.token().signature()).isPresent();
    assertThatCode(() -> keys.verify(lease.token(), "write")).doesNotThrowAnyException();
    assertThatCode(() -> keys.verify(signing.renew(lease).token(), "write"))
        .doesNotThrowAnyException();
  }
}
