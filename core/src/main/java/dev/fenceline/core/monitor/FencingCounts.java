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
 * Totals of {@link FencingMetrics} since it was created.
 *
 * @param takeovers leases this process acquired while an earlier holder's lease had expired
 *     unreleased (a crash, or a pause longer than the lease)
 * @param lostLeases leases this process held and lost before releasing them
 * @param staleRejections writes a destination refused because their epoch was stale
 * @param observedFor how long the counts were collected
 */
public record FencingCounts(
    long takeovers, long lostLeases, long staleRejections, Duration observedFor) {

  /** No events over no time. */
  public static final FencingCounts NONE = new FencingCounts(0, 0, 0, Duration.ZERO);

  /** Validates that the counts and the duration are not negative. */
  public FencingCounts {
    requireNonNull(observedFor, "observedFor is null");
    if (takeovers < 0 || lostLeases < 0 || staleRejections < 0 || observedFor.isNegative()) {
      throw new IllegalArgumentException(
          "Cannot create fencing counts: takeovers "
              + takeovers
              + ", lost leases "
              + lostLeases
              + ", stale rejections "
              + staleRejections
              + ", observed for "
              + observedFor
              + " (none may be negative)");
    }
  }
}
