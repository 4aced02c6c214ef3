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

import dev.fenceline.jdbc.JdbcStore;
import dev.fenceline.spi.Applied;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.LeaseStatus;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Pointer;
import dev.fenceline.spi.PointerState;
import dev.fenceline.spi.PointerStore;
import dev.fenceline.spi.RejectedStale;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.WriteOutcome;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import net.javacrumbs.shedlock.core.DefaultLockingTaskExecutor;
import net.javacrumbs.shedlock.core.LockingTaskExecutor;
import net.javacrumbs.shedlock.core.LockingTaskExecutor.TaskResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The point of the token (R10, R11 a/b): two application instances run the same ShedLock job on one
 * SQLite file. Instance A takes the lock with a short {@code lockAtMostFor} and stalls before it
 * writes; its lock expires by the database's clock; instance B takes the lock over and publishes; A
 * wakes up and publishes with its stale token. The fenced pointer store rejects A and keeps B's
 * report. ShedLock alone would have let A overwrite it.
 */
class StaleShedLockHolderTest {

  private static final String JOB = "nightly-report";
  private static final ResourceId RESOURCE = ResourceId.of(JOB);
  private static final OperationId OPERATION = OperationId.of("report-2026-10-27");

  @TempDir Path directory;
  private JdbcStore storeOfA;
  private JdbcStore storeOfB;

  @BeforeEach
  void openStores() {
    // One file, one store per instance, as two processes would open it.
    storeOfA = JdbcStore.sqlite(directory.resolve("fenceline.db"));
    storeOfB = JdbcStore.sqlite(directory.resolve("fenceline.db"));
  }

  @AfterEach
  void closeStores() {
    storeOfA.close();
    storeOfB.close();
  }

  @Test
  void r11_aHolderWhoseLockExpiredIsRejectedAtTheDestinationAndTheNewHoldersReportStays()
      throws Throwable {
    LockingTaskExecutor instanceA =
        new DefaultLockingTaskExecutor(
            new FencelineLockProvider(storeOfA.leaseIssuer(), "instance-a"));
    LockingTaskExecutor instanceB =
        new DefaultLockingTaskExecutor(
            new FencelineLockProvider(storeOfB.leaseIssuer(), "instance-b"));
    PointerStore reportsOfA = storeOfA.pointerStore("reports");
    PointerStore reportsOfB = storeOfB.pointerStore("reports");
    CountDownLatch aHoldsTheLock = new CountDownLatch(1);
    CountDownLatch aWakesUp = new CountDownLatch(1);
    AtomicReference<FencingToken> tokenOfA = new AtomicReference<>();

    // A: takes the lock for at most 500 ms, then stalls (a GC pause, a frozen VM) before writing.
    CompletableFuture<WriteOutcome> publishedByA =
        CompletableFuture.supplyAsync(
            () -> {
              AtomicReference<WriteOutcome> outcome = new AtomicReference<>();
              instanceA.executeWithLock(
                  (Runnable)
                      () -> {
                        FencingToken token = FencelineLocks.currentToken().orElseThrow();
                        tokenOfA.set(token);
                        aHoldsTheLock.countDown();
                        Waits.await(aWakesUp, "the wake-up of instance A");
                        outcome.set(reportsOfA.write(token, OPERATION, Pointer.to("report of A")));
                      },
                  config(JOB, Duration.ofMillis(500), Duration.ZERO));
              return outcome.get();
            },
            runnable -> new Thread(runnable, "instance-a").start());
    Waits.await(aHoldsTheLock, "instance A's lock");

    Waits.until(
        () -> !storeOfB.leaseIssuer().status(RESOURCE).held(),
        "the expiry of A's lock by the database's clock");

    // B: takes the lock over with the next epoch and publishes.
    AtomicReference<FencingToken> tokenOfB = new AtomicReference<>();
    AtomicReference<WriteOutcome> publishedByB = new AtomicReference<>();
    TaskResult<Void> runOfB =
        instanceB.executeWithLock(
            () -> {
              FencingToken token = FencelineLocks.currentToken().orElseThrow();
              tokenOfB.set(token);
              publishedByB.set(reportsOfB.write(token, OPERATION, Pointer.to("report of B")));
              return null;
            },
            // lockAtLeastFor: B's unlock keeps the lock, so B still holds it when A unlocks.
            config(JOB, Duration.ofMinutes(10), Duration.ofMinutes(5)));
    assertThat(runOfB.wasExecuted()).isTrue();
    LeaseStatus keptByB = storeOfB.leaseIssuer().status(RESOURCE);
    assertThat(keptByB.held()).isTrue();
    assertThat(keptByB.holder()).contains("instance-b");
    assertThat(tokenOfB.get().epoch()).isEqualTo(tokenOfA.get().epoch().next());
    assertThat(publishedByB.get()).isInstanceOf(Applied.class);

    // A wakes up and publishes with its stale token: rejected, B's report stays.
    aWakesUp.countDown();
    WriteOutcome outcomeOfA = publishedByA.get(30, TimeUnit.SECONDS);

    assertThat(outcomeOfA)
        .isEqualTo(new RejectedStale(RESOURCE, tokenOfA.get().epoch(), tokenOfB.get().epoch()));
    PointerState published = reportsOfB.current(RESOURCE).orElseThrow();
    assertThat(published.pointer()).isEqualTo(Pointer.to("report of B"));
    assertThat(published.epoch()).isEqualTo(tokenOfB.get().epoch());
    assertThat(published.version()).isEqualTo(1);
    // A's unlock (done before its task's future completed) left B's kept lock alone.
    LeaseStatus status = storeOfB.leaseIssuer().status(RESOURCE);
    assertThat(status).isEqualTo(keptByB);
    assertThat(status.epoch()).isEqualTo(Epoch.of(2));
    assertThat(status.holder()).contains("instance-b");
    assertThat(status.expiresAt()).isEqualTo(keptByB.expiresAt());
  }
}
