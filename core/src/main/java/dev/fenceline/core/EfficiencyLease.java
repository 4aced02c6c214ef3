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

import dev.fenceline.spi.ResourceId;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * A lease that only avoids duplicate work, such as two workers computing the same heavy report. It
 * has no fencing token and cannot be passed to {@link Fenceline#publish}: it protects efficiency,
 * not correctness (R10).
 *
 * <p>Two holders can overlap: a worker that stalls past its lease keeps working until it notices,
 * while another acquires. That is acceptable only when a duplicate or late run wastes effort and
 * harms nothing, for example because its result goes through a fenced publish or is idempotent.
 * Whenever an invariant is at stake (a single publish target, a balance), acquire with {@link
 * Fenceline#tryAcquire} and publish with the {@link HeldLease}'s token, so the destination rejects
 * a stale writer.
 *
 * <p>Renewal, the safety margin and {@link #onLost} behave as for {@link HeldLease}. Thread-safe.
 * Closing it stops renewal and releases the lease at the issuer.
 */
public final class EfficiencyLease implements AutoCloseable {

  private final HeldLease lease;

  EfficiencyLease(HeldLease lease) {
    this.lease = requireNonNull(lease, "lease is null");
  }

  /** The leased resource. */
  public ResourceId resource() {
    return lease.lease().resource();
  }

  /** What this worker believes about its lease (see {@link HeldLease#state()}). */
  public HeldLease.State state() {
    return lease.state();
  }

  /** Why and when the lease was lost, or empty while held or after a release. */
  public Optional<LeaseLoss> loss() {
    return lease.loss();
  }

  /**
   * True while the local deadline (ttl minus the safety margin) has not passed: keep working. A
   * hint, not a guarantee that no other worker runs.
   */
  public boolean isLocallyValid() {
    return lease.isLocallyValid();
  }

  /** Time left until the local deadline, zero if passed or the lease is not held. */
  public Duration remaining() {
    return lease.remaining();
  }

  /**
   * Runs {@code listener} once when the lease is lost, so the work can stop early; same contract as
   * {@link HeldLease#onLost}.
   */
  public void onLost(Consumer<? super LeaseLoss> listener) {
    lease.onLost(listener);
  }

  /**
   * Renews the lease now (see {@link HeldLease#renewNow()}).
   *
   * @return true if renewed; false if the lease was lost or is not held
   * @throws dev.fenceline.spi.StoreException if the issuer could not be reached before the local
   *     deadline
   */
  public boolean renewNow() {
    return lease.renewNow();
  }

  /**
   * Stops renewal and releases the lease at the issuer (see {@link HeldLease#close()}).
   *
   * @throws dev.fenceline.spi.StoreException if the issuer could not be reached; the lease then
   *     expires by itself
   */
  @Override
  public void close() {
    lease.close();
  }

  @Override
  public String toString() {
    return "EfficiencyLease[" + resource() + ", " + state() + ", remaining " + remaining() + "]";
  }
}
