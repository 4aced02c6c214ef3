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

import dev.fenceline.spi.Lease;
import dev.fenceline.spi.LeaseIssuer;
import dev.fenceline.spi.PointerStore;
import dev.fenceline.spi.StepListener;
import dev.fenceline.spi.TokenKeys;
import dev.fenceline.tck.ConcurrencyControl;
import dev.fenceline.tck.PointerStoreContract;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

class InMemoryPointerStoreTest extends PointerStoreContract {

  final MutableClock clock = new MutableClock(Instant.parse("2026-10-27T01:00:00Z"));
  private final InMemoryPointerStore.Storage storage = new InMemoryPointerStore.Storage();
  private final InMemoryLeaseIssuer.Storage issuerStorage = new InMemoryLeaseIssuer.Storage();

  @Override
  protected PointerStore pointerStore(String name, StepListener steps, Optional<TokenKeys> keys) {
    return new InMemoryPointerStore(storage, name, steps, clock, keys.orElse(null));
  }

  @Override
  protected ConcurrencyControl concurrencyControl() {
    return ConcurrencyControl.LOCKING;
  }

  @Override
  protected LeaseIssuer issuer() {
    return new InMemoryLeaseIssuer(issuerStorage, clock);
  }

  @Override
  protected void restartStore() {
    // Every call to pointerStore() and issuer() makes a new instance over the kept storage.
  }

  @Override
  protected void awaitExpiry(Lease lease) {
    clock.advance(lease.ttl().plus(Duration.ofMillis(1)));
  }
}
