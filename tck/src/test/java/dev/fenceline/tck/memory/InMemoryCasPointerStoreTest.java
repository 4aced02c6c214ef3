package dev.fenceline.tck.memory;

import dev.fenceline.spi.PointerStore;
import dev.fenceline.spi.StepListener;
import dev.fenceline.spi.TokenKeys;
import dev.fenceline.tck.ConcurrencyControl;
import java.util.Optional;

/** The pointer-store suite on the compare-and-swap reference store: nobody waits, all linearize. */
class InMemoryCasPointerStoreTest extends InMemoryPointerStoreTest {

  private final InMemoryCasPointerStore.Storage storage = new InMemoryCasPointerStore.Storage();

  @Override
  protected PointerStore pointerStore(String name, StepListener steps, Optional<TokenKeys> keys) {
    return new InMemoryCasPointerStore(storage, name, steps, clock, keys.orElse(null));
  }

  @Override
  protected ConcurrencyControl concurrencyControl() {
    return ConcurrencyControl.COMPARE_AND_SWAP;
  }
}
