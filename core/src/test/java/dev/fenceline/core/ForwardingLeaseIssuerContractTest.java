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
package dev.fenceline.core;

import dev.fenceline.spi.Lease;
import dev.fenceline.spi.LeaseIssuer;
import dev.fenceline.tck.LeaseIssuerContract;
import dev.fenceline.tck.memory.InMemoryLeaseIssuer;
import dev.fenceline.tck.memory.MutableClock;
import java.time.Duration;
import java.time.Instant;

/**
 * The issuer suite through {@link ForwardingLeaseIssuer}: the decorator the core tests build their
 * scripted issuers on forwards every call, including {@code renew(lease, ttl)}.
 */
class ForwardingLeaseIssuerContractTest extends LeaseIssuerContract {

  private final InMemoryLeaseIssuer.Storage storage = new InMemoryLeaseIssuer.Storage();
  private final MutableClock clock = new MutableClock(Instant.parse("2026-10-27T01:00:00Z"));
  private LeaseIssuer issuer = forwarding();

  private LeaseIssuer forwarding() {
    return new ForwardingLeaseIssuer(new InMemoryLeaseIssuer(storage, clock)) {};
  }

  @Override
  protected LeaseIssuer issuer() {
    return issuer;
  }

  @Override
  protected void restartStore() {
    issuer = forwarding();
  }

  @Override
  protected void awaitExpiry(Lease lease) {
    clock.advance(lease.ttl().plus(Duration.ofMillis(1)));
  }
}
