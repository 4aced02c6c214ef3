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
    PausePoints.Pause pause = pauses.pauseAt(FencingStep.BEFORE_LOCK, "worker-a");
    CompletableFuture<Void> writer =
        CompletableFuture.runAsync(
            () -> pauses.reached(FencingStep.BEFORE_LOCK, TOKEN_A, OPERATION));
    pause.awaitReached();
    assertThat(writer).isNotDone();

    pauses.resumeAll();

    writer.get(PausePoints.TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    assertThat(pauses.log()).containsExactly("worker-a:BEFORE_LOCK:op-1");
  }

  @Test
  void resumeAllDisarmsPausesNotReachedYet() throws Exception {
    PausePoints.Pause pause = pauses.pauseAt(FencingStep.AFTER_COMMIT, "worker-a");

    pauses.resumeAll();

    // On the test thread: a pause still armed would hold it for the TCK timeout and then throw.
    pauses.reached(FencingStep.AFTER_COMMIT, TOKEN_A, OPERATION);
    assertThat(pause.isReached()).isTrue();
  }

  @Test
  void aWriterResumedAndThenInterruptedGoesOn() throws Exception {
    PausePoints.Pause pause = pauses.pauseAt(FencingStep.BEFORE_LOCK, "worker-a");
    CompletableFuture<Boolean> interruptedAfter = new CompletableFuture<>();
    Thread writer =
        new Thread(
            () -> {
              try {
                pauses.reached(FencingStep.BEFORE_LOCK, TOKEN_A, OPERATION);
                interruptedAfter.complete(Thread.currentThread().isInterrupted());
              } catch (RuntimeException e) {
                interruptedAfter.completeExceptionally(e);
              }
            });
    writer.start();
    pause.awaitReached();

    pause.resume();
    writer.interrupt(); // as a clean-up does right after resuming

    // Either it left the wait before the interrupt came, or it saw both: it goes on either way.
    assertThat(interruptedAfter.get(PausePoints.TIMEOUT.toMillis(), TimeUnit.MILLISECONDS))
        .isNotNull();
    writer.join();
  }

  @Test
  void aPauseArmedAfterResumeAllStillHolds() {
    pauses.resumeAll();
    PausePoints.Pause pause = pauses.pauseAt(FencingStep.BEFORE_LOCK, "worker-a");
    CompletableFuture<Void> writer =
        CompletableFuture.runAsync(
            () -> pauses.reached(FencingStep.BEFORE_LOCK, TOKEN_A, OPERATION));

    pause.awaitReached();

    assertThat(writer).isNotDone();
    pause.resume();
    writer.join();
  }
}
