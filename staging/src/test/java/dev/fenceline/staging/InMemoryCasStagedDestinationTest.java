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
