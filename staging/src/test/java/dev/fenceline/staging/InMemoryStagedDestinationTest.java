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
package dev.fenceline.staging;

import dev.fenceline.spi.BlobKey;
import dev.fenceline.spi.BlobStore;
import dev.fenceline.spi.Lease;
import dev.fenceline.spi.LeaseIssuer;
import dev.fenceline.spi.PointerStore;
import dev.fenceline.spi.StepListener;
import dev.fenceline.spi.TokenKeys;
import dev.fenceline.tck.ConcurrencyControl;
import dev.fenceline.tck.memory.InMemoryBlobStore;
import dev.fenceline.tck.memory.InMemoryLeaseIssuer;
import dev.fenceline.tck.memory.InMemoryPointerStore;
import dev.fenceline.tck.memory.MutableClock;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/** The staged suite on the in-memory reference stores. */
class InMemoryStagedDestinationTest extends StagedDestinationContract {

  private final MutableClock issuerClock = new MutableClock(Instant.parse("2026-10-27T01:00:00Z"));
  private final InMemoryBlobStore blobs = new InMemoryBlobStore(Clock.systemUTC());
  private final InMemoryPointerStore.Storage pointers = new InMemoryPointerStore.Storage();
  private final InMemoryLeaseIssuer.Storage leases = new InMemoryLeaseIssuer.Storage();

  @Override
  protected BlobStore blobStore() {
    return blobs;
  }

  @Override
  protected PointerStore pointerStore(String name, StepListener steps, Optional<TokenKeys> keys) {
    return new InMemoryPointerStore(pointers, name, steps, Clock.systemUTC(), keys.orElse(null));
  }

  @Override
  protected ConcurrencyControl concurrencyControl() {
    return ConcurrencyControl.LOCKING; // the pointer store's
  }

  @Override
  protected void overwriteBlob(BlobKey key, byte[] bytes) {
    blobs.corrupt(key, bytes);
  }

  @Override
  protected LeaseIssuer issuer() {
    return new InMemoryLeaseIssuer(leases, issuerClock);
  }

  @Override
  protected void restartStore() {
    // New instances over the kept storage on every call.
  }

  @Override
  protected void awaitExpiry(Lease lease) {
    issuerClock.advance(lease.ttl().plus(Duration.ofMillis(1)));
  }
}
