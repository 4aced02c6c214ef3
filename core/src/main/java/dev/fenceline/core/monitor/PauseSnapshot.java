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

import java.time.Duration;

/**
 * What a {@link PauseMonitor} observed over its window: how late its wake-ups fired.
 *
 * <p>Percentiles are bucket bounds at most 6.25 % above the true value and never above {@link
 * #max()}, which is exact. A pause that began while the monitor was already asleep is seen shorter
 * by up to one {@link #interval()}.
 *
 * @param interval how often the monitor meant to wake up
 * @param threshold the lateness counted in {@link #pausesAboveThreshold()}
 * @param observedFor how much time the window covers (less than the configured window right after
 *     the monitor started)
 * @param wakeUps how many wake-ups were measured in the window
 * @param pausesAboveThreshold how many of them fired at least {@code threshold} late
 * @param p50 median lateness
 * @param p90 90th percentile
 * @param p99 99th percentile
 * @param p999 99.9th percentile
 * @param max the longest lateness in the window
 */
public record PauseSnapshot(
    Duration interval,
    Duration threshold,
    Duration observedFor,
    long wakeUps,
    long pausesAboveThreshold,
    Duration p50,
    Duration p90,
    Duration p99,
    Duration p999,
    Duration max) {

  /** Validates that every duration is present and not negative and the percentiles ascend. */
  public PauseSnapshot {
    requireNonNull(interval, "interval is null");
    requireNonNull(threshold, "threshold is null");
    requireNonNull(observedFor, "observedFor is null");
    requireNonNull(p50, "p50 is null");
    requireNonNull(p90, "p90 is null");
    requireNonNull(p99, "p99 is null");
    requireNonNull(p999, "p999 is null");
    requireNonNull(max, "max is null");
    if ((interval.isNegative() || interval.isZero())) {
      throw new IllegalArgumentException(
          "Cannot create a pause snapshot: interval " + interval + " is not positive");
    }
    if (threshold.isNegative() || observedFor.isNegative()) {
      throw new IllegalArgumentException(
          "Cannot create a pause snapshot: threshold "
              + threshold
              + " or observedFor "
              + observedFor
              + " is negative");
    }
    if (wakeUps < 0 || pausesAboveThreshold < 0 || pausesAboveThreshold > wakeUps) {
      throw new IllegalArgumentException(
          "Cannot create a pause snapshot: "
              + pausesAboveThreshold
              + " pauses above threshold out of "
              + wakeUps
              + " wake-ups (counts must be 0 <= pauses <= wake-ups)");
    }
    if (p50.isNegative()
        || p90.compareTo(p50) < 0
        || p99.compareTo(p90) < 0
        || p999.compareTo(p99) < 0
        || max.compareTo(p999) < 0) {
      throw new IllegalArgumentException(
          "Cannot create a pause snapshot: percentiles p50 "
              + p50
              + ", p90 "
              + p90
              + ", p99 "
              + p99
              + ", p999 "
              + p999
              + ", max "
              + max
              + " do not ascend (each must be >= the one before and not negative)");
    }
  }
}
