package dev.fenceline.tck.memory;

import dev.fenceline.spi.Lease;
import dev.fenceline.spi.LeaseIssuer;
import dev.fenceline.tck.LeaseIssuerContract;
import java.time.Duration;
import java.time.Instant;

class InMemoryLeaseIssuerTest extends LeaseIssuerContract {

  private final InMemoryLeaseIssuer.Storage storage = new InMemoryLeaseIssuer.Storage();
  private final MutableClock clock = new MutableClock(Instant.parse("2026-10-27T01:00:00Z"));
  private InMemoryLeaseIssuer issuer = new InMemoryLeaseIssuer(storage, clock);

  @Override
  protected LeaseIssuer issuer() {
    return issuer;
  }

  @Override
  protected void restartStore() {
    issuer = new InMemoryLeaseIssuer(storage, clock);
  }

  @Override
  protected void awaitExpiry(Lease lease) {
    clock.advance(lease.ttl().plus(Duration.ofMillis(1)));
  }
}
