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
package dev.fenceline.shedlock;

import static dev.fenceline.shedlock.FencelineLockProviderTest.config;
import static org.assertj.core.api.Assertions.assertThat;

import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.LeaseStatus;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.tck.memory.InMemoryLeaseIssuer;
import dev.fenceline.tck.memory.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import net.javacrumbs.shedlock.core.DefaultLockingTaskExecutor;
import net.javacrumbs.shedlock.core.LockingTaskExecutor;
import net.javacrumbs.shedlock.core.SimpleLock;
import net.javacrumbs.shedlock.support.KeepAliveLockProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * ShedLock's {@link KeepAliveLockProvider} over ours, for tasks longer than any fixed {@code
 * lockAtMostFor}: it extends the lock from its scheduler thread while the task runs, the token
 * stays the same, and a lock lost in between is not revived. The test runs the keep-alive step
 * itself instead of waiting half a {@code lockAtMostFor}, and moves the issuer's clock.
 */
class KeepAliveLockProviderTest {

  private static final Instant START = Instant.parse("2026-10-27T01:00:00Z");
  private static final Duration AT_MOST = Duration.ofSeconds(30); // KeepAlive's minimum
  private static final ResourceId RESOURCE = ResourceId.of("long-job");

  private final MutableClock clock = new MutableClock(START);
  private final InMemoryLeaseIssuer issuer =
      new InMemoryLeaseIssuer(new InMemoryLeaseIssuer.Storage(), clock);
  private final KeepAliveSteps keepAlive = new KeepAliveSteps();
  private final LockingTaskExecutor executor =
      new DefaultLockingTaskExecutor(
          new KeepAliveLockProvider(new FencelineLockProvider(issuer, "instance-a"), keepAlive));
  private final CountDownLatch running = new CountDownLatch(1);
  private final CountDownLatch finish = new CountDownLatch(1);
  private final AtomicReference<FencingToken> tokenAtStart = new AtomicReference<>();
  private final AtomicReference<Optional<FencingToken>> tokenAtEnd = new AtomicReference<>();

  @AfterEach
  void stopScheduler() {
    keepAlive.shutdownNow();
  }

  @Test
  void theLockIsKeptAlivePastLockAtMostForWithTheSameToken() throws Exception {
    CompletableFuture<Void> task = startLongTask();
    clock.advance(Duration.ofSeconds(20));

    keepAlive.runStep();
    clock.advance(Duration.ofSeconds(20)); // 40 s: past the first lockAtMostFor

    LeaseStatus status = issuer.status(RESOURCE);
    assertThat(status.held()).isTrue();
    assertThat(status.expiresAt().orElseThrow()).isAfter(START.plus(AT_MOST));
    finish.countDown();
    task.get(30, TimeUnit.SECONDS);
    assertThat(tokenAtEnd.get()).contains(tokenAtStart.get());
    assertThat(issuer.status(RESOURCE).held()).isFalse();
    assertThat(keepAlive.stepCancelled()).isTrue();
  }

  @Test
  void aLockLostBeforeTheKeepAliveStepIsNotRevivedAndTheTaskEndsCleanly() throws Exception {
    CompletableFuture<Void> task = startLongTask();
    clock.advance(AT_MOST);
    SimpleLock takeover =
        new FencelineLockProvider(issuer, "instance-b")
            .lock(config("long-job", AT_MOST, Duration.ZERO))
            .orElseThrow();
    LeaseStatus taken = issuer.status(RESOURCE);

    keepAlive.runStep(); // the extension finds the lease taken over and stops

    assertThat(issuer.status(RESOURCE)).isEqualTo(taken);
    finish.countDown();
    task.get(30, TimeUnit.SECONDS); // ShedLock's unlock of the lost lock does not throw
    assertThat(tokenAtEnd.get()).isEmpty(); // known lost; a copy read earlier is stale
    assertThat(issuer.status(RESOURCE)).isEqualTo(taken);
    takeover.unlock();
  }

  private CompletableFuture<Void> startLongTask() throws InterruptedException {
    CompletableFuture<Void> task =
        CompletableFuture.runAsync(
            () ->
                executor.executeWithLock(
                    (Runnable)
                        () -> {
                          tokenAtStart.set(FencelineLocks.currentToken().orElseThrow());
                          running.countDown();
                          Waits.await(finish, "the end of the long task");
                          tokenAtEnd.set(FencelineLocks.currentToken());
                        },
                    config("long-job", AT_MOST, Duration.ZERO)),
            runnable -> new Thread(runnable, "long-task").start());
    Waits.await(running, "the start of the long task");
    return task;
  }

  /**
   * A scheduler that keeps the keep-alive step {@link KeepAliveLockProvider} schedules at a fixed
   * rate and runs it when the test says so.
   */
  private static final class KeepAliveSteps extends ScheduledThreadPoolExecutor {
    private volatile Runnable step;
    private volatile ScheduledFuture<?> scheduled;

    KeepAliveSteps() {
      super(1);
    }

    @Override
    public ScheduledFuture<?> scheduleAtFixedRate(
        Runnable command, long initialDelay, long period, TimeUnit unit) {
      step = command;
      // A future that never fires on its own, so that the provider can cancel it.
      scheduled = schedule(() -> {}, 1, TimeUnit.DAYS);
      return scheduled;
    }

    void runStep() {
      step.run();
    }

    boolean stepCancelled() {
      return scheduled.isCancelled();
    }
  }
}
