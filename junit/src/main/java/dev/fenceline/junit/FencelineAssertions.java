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
package dev.fenceline.junit;

import dev.fenceline.core.HeldLease;
import dev.fenceline.spi.WriteOutcome;
import org.assertj.core.api.Assertions;

/**
 * AssertJ assertions for fenced writes, leases and destinations, with failure messages that say
 * what happened instead. It extends AssertJ's {@link Assertions}, so one static import serves both:
 *
 * <pre>{@code
 * import static dev.fenceline.junit.FencelineAssertions.assertThat;
 *
 * assertThat(lateWrite).isRejectedAsStale().byCurrentEpoch(34);
 * assertThat(reports).hasRejectedAsStale(leaseA.token()).hasPublished(nightlyReport, "B's report");
 * assertThat(leaseB).hasEpoch(34);
 * }</pre>
 */
public final class FencelineAssertions extends Assertions {

  private FencelineAssertions() {}

  /** Assertions on the outcome of a write. */
  public static WriteOutcomeAssert assertThat(WriteOutcome actual) {
    return new WriteOutcomeAssert(actual);
  }

  /** Assertions on a worker's lease. */
  public static HeldLeaseAssert assertThat(HeldLease actual) {
    return new HeldLeaseAssert(actual);
  }

  /** Assertions on the writes a destination received and what it publishes. */
  public static <C> DestinationAssert<C> assertThat(RecordingDestination<C> actual) {
    return new DestinationAssert<>(actual);
  }
}
