package dev.fenceline.tck.memory;

import dev.fenceline.spi.Destination;
import dev.fenceline.spi.Lease;
import dev.fenceline.spi.LeaseIssuer;
import dev.fenceline.spi.Pointer;
import dev.fenceline.spi.PointerState;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StepListener;
import dev.fenceline.tck.DestinationContract;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

class InMemoryPointerStoreTest extends DestinationContract<Pointer> {

  private final MutableClock clock = new MutableClock(Instant.parse("2026-10-27T01:00:00Z"));
  private final InMemoryPointerStore.Storage storage = new InMemoryPointerStore.Storage();
  private final InMemoryLeaseIssuer.Storage issuerStorage = new InMemoryLeaseIssuer.Storage();

  @Override
  protected Destination<Pointer> destination(StepListener steps) {
    return new InMemoryPointerStore(storage, steps, clock);
  }

  @Override
  protected Pointer change(ResourceId resource, String payload) {
    return Pointer.to(payload);
  }

  @Override
  protected Optional<String> published(ResourceId resource) {
    return store().current(resource).map(state -> state.pointer().target());
  }

  @Override
  protected long applyCount(ResourceId resource) {
    return store().current(resource).map(PointerState::version).orElse(0L);
  }

  @Override
  protected LeaseIssuer issuer() {
    return new InMemoryLeaseIssuer(issuerStorage, clock);
  }

  @Override
  protected void restartStore() {
    // Every call to destination() and issuer() makes a new instance over the kept storage.
  }

  @Override
  protected void awaitExpiry(Lease lease) {
    clock.advance(lease.ttl().plus(Duration.ofMillis(1)));
  }

  private InMemoryPointerStore store() {
    return new InMemoryPointerStore(storage, StepListener.NONE, clock);
  }
}
