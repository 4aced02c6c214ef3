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
package dev.fenceline.core.monitor;

import static java.util.Objects.requireNonNull;

import dev.fenceline.core.MonotonicClock;
import java.time.Duration;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counters of the fencing events that tell whether leases are too short or too long (R8):
 * takeovers, lost leases and stale rejections. The code that sees an event records it; {@link
 * FencelineMeterBinder} publishes the counters as Micrometer meters and {@link LeaseAdvice} reads
 * {@link #counts()}. Thread-safe and cheap to record.
 */
public final class FencingMetrics {

  private final MonotonicClock clock;
  private final long createdNanos;
  private final LongAdder takeovers = new LongAdder();
  private final LongAdder lostLeases = new LongAdder();
  private final LongAdder staleRejections = new LongAdder();

  /** Counters starting at zero now. */
  public FencingMetrics() {
    this(MonotonicClock.SYSTEM);
  }

  FencingMetrics(MonotonicClock clock) {
    this.clock = requireNonNull(clock, "clock is null");
    this.createdNanos = clock.nanoTime();
  }

  /**
   * This process acquired a lease whose earlier holder had not released it (it expired): the holder
   * crashed, was cut off, or paused longer than the lease.
   */
  public void recordTakeover() {
    takeovers.increment();
  }

  /** This process lost a lease it held (a renewal was refused or came too late). */
  public void recordLostLease() {
    lostLeases.increment();
  }

  /** A destination refused a write of this process because its epoch was stale. */
  public void recordStaleRejection() {
    staleRejections.increment();
  }

  /** Takeovers recorded so far. */
  public long takeovers() {
    return takeovers.sum();
  }

  /** Lost leases recorded so far. */
  public long lostLeases() {
    return lostLeases.sum();
  }

  /** Stale rejections recorded so far. */
  public long staleRejections() {
    return staleRejections.sum();
  }

  /** All three totals and how long they were collected. */
  public FencingCounts counts() {
    return new FencingCounts(
        takeovers(),
        lostLeases(),
        staleRejections(),
        Duration.ofNanos(Math.max(0, clock.nanoTime() - createdNanos)));
  }

  @Override
  public String toString() {
    return "FencingMetrics[takeovers "
        + takeovers()
        + ", lost leases "
        + lostLeases()
        + ", stale rejections "
        + staleRejections()
        + "]";
  }
}
