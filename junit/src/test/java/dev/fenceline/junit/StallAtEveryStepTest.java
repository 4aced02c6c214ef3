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

import dev.fenceline.core.Fenceline;
import dev.fenceline.core.HeldLease;
import dev.fenceline.spi.FencingStep;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.WriteOutcome;
import dev.fenceline.tck.PausePoints;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Worker A frozen between any two steps of the in-memory destination while its lease expires and
 * worker B takes over and publishes the same operation (tonight's report, computed the same way):
 * wherever A stalls, the report is published exactly once, never by A after B. A stall before the
 * lock is rejected as stale; a stall inside the atomic step lands A's write (it passed the epoch
 * check before B registered; the TCK's destination suite checks that B waits for the lock
 * meanwhile) and B is answered with A's receipt; a stall after the commit only delays A's answer,
 * and a crash after the commit leaves A's change published.
 */
@FencelineTest
class StallAtEveryStepTest {

  private static final ResourceId REPORT = ResourceId.of("nightly-report");
  private static final OperationId TONIGHT = OperationId.of("report-2026-10-27");
  private static final String TONIGHTS_REPORT = "42 orders";
  private static final Duration TTL = Duration.ofSeconds(10);

  @Test
  void aStallBeforeTheLockIsRejectedAsStale(FencelineLab lab, InMemoryDestination<String> reports) {
    Stalled a = stallWorkerA(lab, reports, FencingStep.BEFORE_LOCK);
    WorkerThread<WriteOutcome> b = takeOver(lab, reports);
    assertThat(b.join()).wasApplied().atEpoch(2);

    a.pause.resume();

    assertThat(a.thread.join()).isRejectedAsStale().byCurrentEpoch(2);
    assertThat(reports.history(REPORT)).containsExactly(TONIGHTS_REPORT);
  }

  @ParameterizedTest
  @EnumSource(names = {"AFTER_EPOCH_CHECK", "AFTER_APPLY"})
  void aStallInsideTheAtomicStepLandsOnceAndTheNewOwnerGetsItsReceipt(
      FencingStep step, FencelineLab lab, InMemoryDestination<String> reports) {
    Stalled a = stallWorkerA(lab, reports, step);
    WorkerThread<WriteOutcome> b = takeOver(lab, reports); // B's registration waits for A's lock

    a.pause.resume();

    assertThat(a.thread.join()).wasApplied().atEpoch(1);
    assertThat(b.join()).wasAlreadyApplied().atEpoch(1);
    assertThat(reports.history(REPORT)).containsExactly(TONIGHTS_REPORT);
    assertThat(reports.currentEpoch(REPORT).value()).isEqualTo(2);
  }

  @Test
  void aStallAfterTheCommitOnlyDelaysTheAnswer(
      FencelineLab lab, InMemoryDestination<String> reports) {
    Stalled a = stallWorkerA(lab, reports, FencingStep.AFTER_COMMIT);
    WorkerThread<WriteOutcome> b = takeOver(lab, reports);
    assertThat(b.join()).wasAlreadyApplied().atEpoch(1);

    a.pause.resume();

    assertThat(a.thread.join()).wasApplied().atEpoch(1);
    assertThat(reports.history(REPORT)).containsExactly(TONIGHTS_REPORT);
  }

  @ParameterizedTest
  @EnumSource(names = {"AFTER_EPOCH_CHECK", "AFTER_APPLY"})
  void aWorkerThatDiesInsideTheAtomicStepLeavesNothing(
      FencingStep step, FencelineLab lab, InMemoryDestination<String> reports) {
    Fenceline workerA = lab.worker("worker-a", TTL);
    HeldLease leaseA = lab.acquire(workerA, REPORT);
    lab.failAt(step, "worker-a");

    WorkerThread<WriteOutcome> a =
        lab.start("worker-a", () -> workerA.publish(leaseA, reports, TONIGHT, TONIGHTS_REPORT));

    assertThat(a.joinFailure()).isInstanceOf(PausePoints.SimulatedCrash.class);
    assertThat(reports.published(REPORT)).isEmpty();
    assertThat(reports.lookup(REPORT, TONIGHT)).isEmpty();
  }

  @Test
  void aWorkerThatDiesAfterTheCommitLeavesItsChangePublished(
      FencelineLab lab, InMemoryDestination<String> reports) {
    Fenceline workerA = lab.worker("worker-a", TTL);
    HeldLease leaseA = lab.acquire(workerA, REPORT);
    lab.failAt(FencingStep.AFTER_COMMIT, "worker-a");

    WorkerThread<WriteOutcome> a =
        lab.start("worker-a", () -> workerA.publish(leaseA, reports, TONIGHT, TONIGHTS_REPORT));

    assertThat(a.joinFailure()).isInstanceOf(PausePoints.SimulatedCrash.class);
    assertThat(reports.published(REPORT)).contains(TONIGHTS_REPORT);
    assertThat(reports.history(REPORT)).containsExactly(TONIGHTS_REPORT);
    assertThat(reports.lookup(REPORT, TONIGHT)).isPresent();
  }

  private record Stalled(PausePoints.Pause pause, WorkerThread<WriteOutcome> thread) {}

  /** Worker A acquires epoch 1, registers it and is frozen at {@code step} while publishing. */
  private static Stalled stallWorkerA(
      FencelineLab lab, InMemoryDestination<String> reports, FencingStep step) {
    Fenceline workerA = lab.worker("worker-a", TTL);
    HeldLease leaseA = lab.acquire(workerA, REPORT);
    workerA.register(leaseA, reports);
    PausePoints.Pause pause = lab.pauseAt(step, "worker-a");
    WorkerThread<WriteOutcome> thread =
        lab.start("worker-a", () -> workerA.publish(leaseA, reports, TONIGHT, TONIGHTS_REPORT));
    pause.awaitReached();
    return new Stalled(pause, thread);
  }

  /** A's lease expires; worker B acquires epoch 2, registers it and publishes, on its thread. */
  private static WorkerThread<WriteOutcome> takeOver(
      FencelineLab lab, InMemoryDestination<String> reports) {
    lab.expire(REPORT);
    Fenceline workerB = lab.worker("worker-b", TTL);
    HeldLease leaseB = lab.acquire(workerB, REPORT);
    return lab.start(
        "worker-b",
        () -> {
          workerB.register(leaseB, reports);
          return workerB.publish(leaseB, reports, TONIGHT, TONIGHTS_REPORT);
        });
  }
}
