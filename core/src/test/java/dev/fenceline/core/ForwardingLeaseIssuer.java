package dev.fenceline.core;

import static java.util.Objects.requireNonNull;

import dev.fenceline.spi.Lease;
import dev.fenceline.spi.LeaseIssuer;
import dev.fenceline.spi.LeaseStatus;
import dev.fenceline.spi.ResourceId;
import java.time.Duration;
import java.util.Optional;

/**
 * A lease issuer that forwards every call it must implement (the default ones are its own, so
 * {@code renew(lease)} arrives here as {@code renew(lease, lease.ttl())}); tests override the calls
 * they interfere with.
 */
abstract class ForwardingLeaseIssuer implements LeaseIssuer {

  final LeaseIssuer delegate;

  ForwardingLeaseIssuer(LeaseIssuer delegate) {
    this.delegate = requireNonNull(delegate, "delegate is null");
  }

  @Override
  public String id() {
    return delegate.id();
  }

  @Override
  public Optional<Lease> tryAcquire(ResourceId resource, String holder, Duration ttl) {
    return delegate.tryAcquire(resource, holder, ttl);
  }

  @Override
  public Lease renew(Lease lease, Duration ttl) {
    return delegate.renew(lease, ttl);
  }

  @Override
  public boolean release(Lease lease) {
    return delegate.release(lease);
  }

  @Override
  public LeaseStatus status(ResourceId resource) {
    return delegate.status(resource);
  }
}
