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
