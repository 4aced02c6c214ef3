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

import dev.fenceline.spi.PointerStore;
import dev.fenceline.spi.StepListener;
import dev.fenceline.spi.TokenKeys;
import dev.fenceline.tck.ConcurrencyControl;
import dev.fenceline.tck.memory.InMemoryCasPointerStore;
import java.time.Clock;
import java.util.Optional;

/** The staged suite over the compare-and-swap reference pointer store. */
class InMemoryCasStagedDestinationTest extends InMemoryStagedDestinationTest {

  private final InMemoryCasPointerStore.Storage pointers = new InMemoryCasPointerStore.Storage();

  @Override
  protected PointerStore pointerStore(String name, StepListener steps, Optional<TokenKeys> keys) {
    return new InMemoryCasPointerStore(pointers, name, steps, Clock.systemUTC(), keys.orElse(null));
  }

  @Override
  protected ConcurrencyControl concurrencyControl() {
    return ConcurrencyControl.COMPARE_AND_SWAP; // the pointer store's
  }
}
