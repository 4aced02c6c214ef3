package dev.fenceline.http;

import dev.fenceline.spi.IntentStore;
import dev.fenceline.spi.StepListener;
import dev.fenceline.tck.memory.InMemoryIntentStore;
import java.time.Clock;

/** The intent-mode scenarios on the in-memory reference intent store. */
class InMemoryHttpApiDestinationTest extends HttpApiDestinationContract {

  private final InMemoryIntentStore.Storage storage = new InMemoryIntentStore.Storage();

  @Override
  IntentStore openIntentStore(String name, StepListener steps) {
    return new InMemoryIntentStore(storage, name, steps, Clock.systemUTC(), null);
  }
}
