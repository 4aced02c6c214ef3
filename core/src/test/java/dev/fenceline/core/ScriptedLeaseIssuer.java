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
import dev.fenceline.spi.ResourceId;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;

/**
 * A lease issuer over an in-memory one whose calls take a chosen time on the worker's fake
 * monotonic clock, and whose renewals a test can script (fail, block, refuse).
 */
final class ScriptedLeaseIssuer extends ForwardingLeaseIssuer {

  private final AtomicLong nanos;
  private volatile Duration delay = Duration.ZERO;
  private volatile UnaryOperator<Lease> renewal;

  ScriptedLeaseIssuer(LeaseIssuer delegate, AtomicLong nanos) {
    super(delegate);
    this.nanos = requireNonNull(nanos, "nanos is null");
    this.renewal = delegate::renew;
  }

  /** Every acquire and renew takes {@code delay} of the worker's monotonic time from now on. */
  ScriptedLeaseIssuer answeringAfter(Duration delay) {
    this.delay = requireNonNull(delay, "delay is null");
    return this;
  }

  /** Renewals do {@code renewal} from now on; {@code delegate::renew} is the default. */
  void renewWith(UnaryOperator<Lease> renewal) {
    this.renewal = requireNonNull(renewal, "renewal is null");
  }

  @Override
  public Optional<Lease> tryAcquire(ResourceId resource, String holder, Duration ttl) {
    nanos.addAndGet(delay.toNanos());
    return delegate.tryAcquire(resource, holder, ttl);
  }

  /** Both renew methods take the script: {@code renew(lease)} arrives here with its own ttl. */
  @Override
  public Lease renew(Lease lease, Duration ttl) {
    nanos.addAndGet(delay.toNanos());
    return renewal.apply(new Lease(lease.token(), lease.expiresAt(), ttl));
  }
}
