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
import dev.fenceline.spi.StepListener;
import dev.fenceline.spi.TokenKeys;
import dev.fenceline.spi.UnsupportedCapabilityException;
import java.util.Optional;

/**
 * The reference intent store as a store that cannot check signed tokens would be offered: it says
 * so ({@code supportsTokenKeys()} false) and refuses keys, and the suite checks that refusal.
 */
class UnsignedInMemoryIntentStoreTest extends InMemoryIntentStoreTest {

  @Override
  protected boolean supportsTokenKeys() {
    return false;
  }

  @Override
  protected IntentStore intentStore(String name, StepListener steps, Optional<TokenKeys> keys) {
    if (keys.isPresent()) {
      throw new UnsupportedCapabilityException(
          "Cannot check signed tokens at intent store " + name + ": it keeps no keys");
    }
    return super.intentStore(name, steps, keys);
  }
}
