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
package dev.fenceline.junit.story;

import static dev.fenceline.junit.FencelineAssertions.assertThat;

import dev.fenceline.core.Fenceline;
import dev.fenceline.core.HeldLease;
import dev.fenceline.junit.FencelineLab;
import dev.fenceline.junit.FencelineTest;
import dev.fenceline.junit.InMemoryDestination;
import dev.fenceline.junit.WorkerThread;
import dev.fenceline.spi.FencingStep;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.WriteOutcome;
import dev.fenceline.tck.PausePoints;
import java.time.Duration;
import org.junit.jupiter.api.Test;

@FencelineTest
class StaleOwnerStoryTest {

  static final ResourceId NIGHTLY_REPORT = ResourceId.of("nightly-report");
  static final OperationId TONIGHTS_REPORT = OperationId.of("report-2026-10-27");

  @Test
  void workerAStallsPastItsLeaseAndItsLatePublishIsRejected(
      FencelineLab lab, InMemoryDestination<String> reports) {
    Fenceline workerA = lab.worker("worker-a", Duration.ofSeconds(10)); // a 10 s lease
    Fenceline workerB = lab.worker("worker-b", Duration.ofSeconds(10));
    lab.skipToEpoch(NIGHTLY_REPORT, 33); // earlier nights used epochs 1 to 32

    // 1. A works with token 33, then stalls on its way to the destination.
    HeldLease leaseA = lab.acquire(workerA, NIGHTLY_REPORT);
    assertThat(leaseA).hasEpoch(33);
    workerA.register(leaseA, reports);
    PausePoints.Pause stall = lab.pauseAt(FencingStep.BEFORE_LOCK, "worker-a");
    WorkerThread<WriteOutcome> a =
        lab.start(
            "worker-a", () -> workerA.publish(leaseA, reports, TONIGHTS_REPORT, "A's report"));
    stall.awaitReached();

    // 2. A stalls for 15 s: the lease expires, B gets token 34 and registers it.
    lab.advance(Duration.ofSeconds(15));
    HeldLease leaseB = lab.acquire(workerB, NIGHTLY_REPORT);
    assertThat(leaseB).hasEpoch(34);
    workerB.register(leaseB, reports);

    // 3. B publishes with 34.
    assertThat(workerB.publish(leaseB, reports, TONIGHTS_REPORT, "B's report")).wasApplied();

    // 4. A wakes up, does not know it stalled, and publishes with 33: rejected.
    stall.resume();
    assertThat(a.join()).isRejectedAsStale().byCurrentEpoch(34);
    assertThat(reports)
        .hasRejectedAsStale(leaseA.token())
        .hasPublished(NIGHTLY_REPORT, "B's report");
  }
}
