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

import static dev.fenceline.junit.FencelineAssertions.assertThat;
import static dev.fenceline.junit.FencelineAssertions.assertThatThrownBy;

import dev.fenceline.core.Fenceline;
import dev.fenceline.core.HeldLease;
import dev.fenceline.spi.Capability;
import dev.fenceline.spi.FencingStep;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Pointer;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.WriteOutcome;
import dev.fenceline.tck.PausePoints;
import dev.fenceline.tck.memory.InMemoryPointerStore;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Your own destination under the lab: created with the lab's pause points as its step listener,
 * wrapped for a journal. The TCK's in-memory pointer store stands in for a store of yours.
 */
@FencelineTest
class RecordingDestinationTest {

  private static final ResourceId REPORT = ResourceId.of("nightly-report");
  private static final OperationId TONIGHT = OperationId.of("report-2026-10-27");

  @Test
  void aStaleWorkerFrozenInsideYourDestinationIsRejectedThereAndRecorded(FencelineLab lab) {
    InMemoryPointerStore store =
        new InMemoryPointerStore(
            new InMemoryPointerStore.Storage(), "pointers", lab.pausePoints(), lab.clock());
    RecordingDestination<Pointer> pointers = lab.record(store);
    Fenceline workerA = lab.worker("worker-a", Duration.ofSeconds(10));
    Fenceline workerB = lab.worker("worker-b", Duration.ofSeconds(10));
    HeldLease leaseA = lab.acquire(workerA, REPORT);
    PausePoints.Pause stall = lab.pauseAt(FencingStep.BEFORE_LOCK, "worker-a");
    WorkerThread<WriteOutcome> a =
        lab.start(
            "worker-a", () -> workerA.publish(leaseA, pointers, TONIGHT, Pointer.to("report-a")));
    stall.awaitReached();

    lab.expire(REPORT);
    HeldLease leaseB = lab.acquire(workerB, REPORT);
    workerB.register(leaseB, pointers);
    assertThat(workerB.publish(leaseB, pointers, TONIGHT, Pointer.to("report-b"))).wasApplied();
    stall.resume();

    assertThat(a.join()).isRejectedAsStale().byCurrentEpoch(2);
    assertThat(pointers).hasRejectedAsStale(leaseA.token()).hasApplied(leaseB.token());
    assertThat(store.current(REPORT).orElseThrow().pointer().target()).isEqualTo("report-b");
  }

  @Test
  void everyCallGoesToYourDestinationAndFailuresAreRecorded(FencelineLab lab) {
    InMemoryPointerStore store =
        new InMemoryPointerStore(
            new InMemoryPointerStore.Storage(), "pointers", lab.pausePoints(), lab.clock());
    RecordingDestination<Pointer> pointers = new RecordingDestination<>(store);
    HeldLease lease = lab.acquire(lab.worker("worker-a"), REPORT);

    assertThat(pointers.recorded()).isSameAs(store);
    assertThat(pointers.name()).isEqualTo("pointers");
    assertThat(pointers.capabilities()).isEqualTo(store.capabilities());
    assertThat(pointers.guarantee()).isEqualTo(store.guarantee());
    assertThat(pointers.capabilities()).contains(Capability.RESULT_LOOKUP);
    pointers.register(lease.token());
    assertThat(pointers.currentEpoch(REPORT)).isEqualTo(store.currentEpoch(REPORT));
    pointers.write(lease.token(), TONIGHT, Pointer.to("v1"));
    assertThat(pointers.lookup(REPORT, TONIGHT)).isEqualTo(store.lookup(REPORT, TONIGHT));

    assertThatThrownBy(() -> pointers.write(lease.token(), TONIGHT, Pointer.to("v2")))
        .isInstanceOf(dev.fenceline.spi.OperationConflictException.class);
    assertThat(pointers.writes()).hasSize(2);
    assertThat(pointers.writes().get(1).describe())
        .startsWith(
            "worker-a wrote report-2026-10-27 at epoch 1: threw"
                + " dev.fenceline.spi.OperationConflictException: ");
  }
}
