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
import dev.fenceline.spi.FencingStep;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.WriteOutcome;
import dev.fenceline.tck.PausePoints;
import java.time.Duration;
import org.junit.jupiter.api.Test;

@FencelineTest
class WorkerThreadTest {

  @Test
  void joinReturnsWhatTheWorkReturned(FencelineLab lab) {
    WorkerThread<String> worker = lab.start("worker-a", () -> "done");

    assertThat(worker.join()).isEqualTo("done");
    assertThat(worker.isRunning()).isFalse();
    assertThat(worker.name()).isEqualTo("worker-a");
  }

  @Test
  void theWorkRunsOnItsOwnNamedThread(FencelineLab lab) {
    WorkerThread<String> worker = lab.start("worker-a", () -> Thread.currentThread().getName());

    assertThat(worker.join()).isEqualTo("fenceline-test-worker-a");
  }

  @Test
  void joinOfAWorkerThatThrewFailsWithTheCause(FencelineLab lab) {
    IllegalStateException crash = new IllegalStateException("disk full");
    WorkerThread<String> worker =
        lab.start(
            "worker-a",
            () -> {
              throw crash;
            });

    assertThatThrownBy(worker::join)
        .isInstanceOf(AssertionError.class)
        .hasMessage(
            "Expected worker-a to return, but it threw java.lang.IllegalStateException: disk full")
        .hasCause(crash);
    assertThat(worker.joinFailure()).isSameAs(crash);
  }

  @Test
  void joinFailureOfAWorkerThatReturnedFails(FencelineLab lab) {
    WorkerThread<String> worker = lab.start("worker-a", () -> "done");

    assertThatThrownBy(worker::joinFailure)
        .isInstanceOf(AssertionError.class)
        .hasMessage("Expected worker-a to fail, but it returned done");
  }

  @Test
  void joinOfAPausedWorkerSaysItIsHeldAtAPausePoint(
      FencelineLab lab, @Holder("worker-a") Fenceline workerA, InMemoryDestination<String> d) {
    ResourceId report = ResourceId.of("nightly-report");
    HeldLease lease = lab.acquire(workerA, report);
    PausePoints.Pause pause = lab.pauseAt(FencingStep.AFTER_EPOCH_CHECK, "worker-a");
    WorkerThread<WriteOutcome> worker =
        lab.start("worker-a", () -> workerA.publish(lease, d, OperationId.of("op-1"), "A"));
    pause.awaitReached();

    // The worker is held at the pause: this wait can only end by timing out.
    assertThatThrownBy(() -> worker.join(Duration.ofMillis(50)))
        .isInstanceOf(AssertionError.class)
        .hasMessageStartingWith(
            "Expected worker-a to finish within PT0.05S, but it is TIMED_WAITING, held at a pause"
                + " point (call resume() on the Pause it reached), at:")
        .hasMessageContaining("PausePoints$Pause.hold");
    assertThat(worker.isRunning()).isTrue();

    pause.resume();
    assertThat(worker.join()).wasApplied();
  }
}
