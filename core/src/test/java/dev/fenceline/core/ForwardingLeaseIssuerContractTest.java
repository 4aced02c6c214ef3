package dev.fenceline.core;

import dev.fenceline.spi.Lease;
import dev.fenceline.spi.LeaseIssuer;
import dev.fenceline.tck.LeaseIssuerContract;
import dev.fenceline.tck.memory.InMemoryLeaseIssuer;
import dev.fenceline.tck.memory.MutableClock;
import java.time.Duration;
import java.time.Instant;

/**
 * The issuer suite through {@link ForwardingLeaseIssuer}: the decorator the core tests build their
 * scripted issuers on forwards every call, including {@code renew(lease, ttl)}.
 */
class ForwardingLeaseIssuerContractTest extends LeaseIssuerContract {

  private final InMemoryLeaseIssuer.Storage storage = new InMemoryLeaseIssuer.Storage();
  private final MutableClock clock = new MutableClock(Instant.parse("2026-10-27T01:00:00Z"));
  private LeaseIssuer issuer = forwarding();

  private LeaseIssuer forwarding() {
    return new ForwardingLeaseIssuer(new InMemoryLeaseIssuer(storage, clock)) {};
  }

  @Override
  protected LeaseIssuer issuer() {
    return issuer;
  }

  @Override
  protected void restartStore() {
    issuer = forwarding();
  }

  @Override
  protected void awaitExpiry(Lease lease) {
    clock.advance(lease.ttl().plus(Duration.ofMillis(1)));
  }
}
