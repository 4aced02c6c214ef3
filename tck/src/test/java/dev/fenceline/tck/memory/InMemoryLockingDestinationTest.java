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

import dev.fenceline.spi.Destination;
import dev.fenceline.spi.LeaseIssuer;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StepListener;
import dev.fenceline.spi.TokenKeys;
import dev.fenceline.tck.ConcurrencyControl;
import dev.fenceline.tck.DestinationContract;
import java.time.Clock;
import java.util.Optional;

/**
 * The destination suite on {@link InMemoryLockingDestination}: the locking steps over maps pass it,
 * and so do the suite's checks of what a store that claims no optional capability must refuse.
 */
class InMemoryLockingDestinationTest extends DestinationContract<String> {

  private final InMemoryLockingDestination.Storage storage =
      new InMemoryLockingDestination.Storage();
  private final InMemoryLeaseIssuer.Storage issuerStorage = new InMemoryLeaseIssuer.Storage();

  @Override
  protected Destination<String> destination(
      String name, StepListener steps, Optional<TokenKeys> keys) {
    return new InMemoryLockingDestination(storage, name, steps, keys);
  }

  @Override
  protected boolean supportsTokenKeys() {
    return false;
  }

  @Override
  protected ConcurrencyControl concurrencyControl() {
    return ConcurrencyControl.LOCKING;
  }

  @Override
  protected String change(ResourceId resource, String payload) {
    return payload;
  }

  @Override
  protected Optional<String> published(ResourceId resource) {
    return storage.payload("tck", resource);
  }

  @Override
  protected long applyCount(ResourceId resource) {
    return storage.version("tck", resource);
  }

  @Override
  protected LeaseIssuer issuer() {
    return new InMemoryLeaseIssuer(issuerStorage, Clock.systemUTC());
  }

  @Override
  protected void restartStore() {
    // Every destination() is a new instance over the kept storage.
  }
}
