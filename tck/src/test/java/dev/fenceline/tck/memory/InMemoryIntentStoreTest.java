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

import dev.fenceline.spi.IntentStore;
import dev.fenceline.spi.LeaseIssuer;
import dev.fenceline.spi.StepListener;
import dev.fenceline.spi.TokenKeys;
import dev.fenceline.tck.ConcurrencyControl;
import dev.fenceline.tck.IntentStoreContract;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

class InMemoryIntentStoreTest extends IntentStoreContract {

  // Every reading is a millisecond later, so a store that overwrote recordedAt would be seen.
  private final Clock clock = new TickingClock(Instant.parse("2026-10-27T01:00:00Z"));
  private final InMemoryIntentStore.Storage storage = new InMemoryIntentStore.Storage();
  private final InMemoryLeaseIssuer.Storage issuerStorage = new InMemoryLeaseIssuer.Storage();

  @Override
  protected IntentStore intentStore(String name, StepListener steps, Optional<TokenKeys> keys) {
    return new InMemoryIntentStore(storage, name, steps, clock, keys.orElse(null));
  }

  @Override
  protected EpochRegistrar sameStoreRegistrar(String name) {
    // The storage holds the registered epochs; another store on it shares them.
    return new InMemoryIntentStore(storage, name, StepListener.NONE, clock, null)::register;
  }

  @Override
  protected ConcurrencyControl concurrencyControl() {
    return ConcurrencyControl.LOCKING;
  }

  @Override
  protected LeaseIssuer issuer() {
    return new InMemoryLeaseIssuer(issuerStorage, Clock.systemUTC());
  }

  @Override
  protected void restartStore() {
    // Every call to intentStore() makes a new instance over the kept storage.
  }

  private static final class TickingClock extends Clock {
    private final AtomicLong millis;

    TickingClock(Instant start) {
      this.millis = new AtomicLong(start.toEpochMilli());
    }

    @Override
    public Instant instant() {
      return Instant.ofEpochMilli(millis.incrementAndGet());
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }
  }
}
