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
package dev.fenceline.tck;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingStep;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.ResourceId;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class PausePointsTest {

  private static final FencingToken TOKEN_A =
      new FencingToken("memory-1", ResourceId.of("report"), Epoch.of(3), "worker-a");
  private static final OperationId OPERATION = OperationId.of("op-1");

  private final PausePoints pauses = new PausePoints();

  @Test
  void resumeAllLetsAPausedWriterGoOn() throws Exception {
    PausedWriter writer = pausedWriter();
    assertThat(writer.done).isNotDone();

    pauses.resumeAll();

    assertThat(writer.done.get(PausePoints.TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)).isFalse();
    assertThat(pauses.log()).containsExactly("worker-a:BEFORE_LOCK:op-1");
  }

  @Test
  void resumeAllDisarmsPausesNotReachedYet() {
    PausePoints.Pause pause = pauses.pauseAt(FencingStep.AFTER_COMMIT, "worker-a");

    pauses.resumeAll();

    // On the test thread: a pause still armed would hold it for the TCK timeout and then throw.
    pauses.reached(FencingStep.AFTER_COMMIT, TOKEN_A, OPERATION);
    assertThat(pause.isReached()).isTrue();
  }

  @Test
  void aWriterResumedAndThenInterruptedGoesOn() throws Exception {
    PausedWriter writer = pausedWriter();

    writer.pause.resume();
    writer.thread.interrupt(); // as a clean-up does right after resuming

    // Either it left the wait before the interrupt came, or it saw both: it goes on either way.
    assertThat(writer.done.get(PausePoints.TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)).isNotNull();
  }

  @Test
  void aPauseArmedAfterResumeAllStillHolds() throws Exception {
    pauses.resumeAll();

    PausedWriter writer = pausedWriter();

    assertThat(writer.done).isNotDone();
    writer.pause.resume();
    assertThat(writer.done.get(PausePoints.TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)).isFalse();
  }

  /**
   * A writer on its own thread, paused at BEFORE_LOCK; {@code done} completes with whether its
   * interrupt flag was set when it went on, or with what it threw.
   */
  private record PausedWriter(
      PausePoints.Pause pause, Thread thread, CompletableFuture<Boolean> done) {}

  private PausedWriter pausedWriter() {
    PausePoints.Pause pause = pauses.pauseAt(FencingStep.BEFORE_LOCK, "worker-a");
    CompletableFuture<Boolean> done = new CompletableFuture<>();
    Thread thread =
        new Thread(
            () -> {
              try {
                pauses.reached(FencingStep.BEFORE_LOCK, TOKEN_A, OPERATION);
                done.complete(Thread.currentThread().isInterrupted());
              } catch (RuntimeException e) {
                done.completeExceptionally(e);
              }
            });
    thread.start();
    pause.awaitReached();
    return new PausedWriter(pause, thread, done);
  }
}
