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
