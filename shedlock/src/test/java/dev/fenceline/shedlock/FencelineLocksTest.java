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
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.tck.memory.InMemoryLeaseIssuer;
import dev.fenceline.tck.memory.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import net.javacrumbs.shedlock.core.DefaultLockingTaskExecutor;
import net.javacrumbs.shedlock.core.LockingTaskExecutor;
import net.javacrumbs.shedlock.core.SimpleLock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The token the running task reads: on the locking thread, cleared on unlock, nested as a stack.
 */
@ExtendWith(FreshThreadPerTest.class)
class FencelineLocksTest {

  private static final Duration AT_MOST = Duration.ofMinutes(10);

  private final InMemoryLeaseIssuer issuer =
      new InMemoryLeaseIssuer(
          new InMemoryLeaseIssuer.Storage(),
          new MutableClock(Instant.parse("2026-10-27T01:00:00Z")));
  private final FencelineLockProvider provider = new FencelineLockProvider(issuer, "instance-a");
  private final LockingTaskExecutor executor = new DefaultLockingTaskExecutor(provider);

  @Test
  void theTaskReadsItsLocksTokenAndItIsClearedAfterwards() {
    AtomicReference<Optional<FencingToken>> seen = new AtomicReference<>();
    AtomicReference<Optional<FencingToken>> seenByName = new AtomicReference<>();

    executor.executeWithLock(
        (Runnable)
            () -> {
              seen.set(FencelineLocks.currentToken());
              seenByName.set(FencelineLocks.currentToken("nightly-report"));
            },
        config("nightly-report", AT_MOST, Duration.ZERO));

    FencingToken token = seen.get().orElseThrow();
    assertThat(token.resource()).isEqualTo(ResourceId.of("nightly-report"));
    assertThat(token.epoch()).isEqualTo(Epoch.of(1));
    assertThat(token.holder()).isEqualTo("instance-a");
    assertThat(token.issuer()).isEqualTo(issuer.id());
    assertThat(seenByName.get()).contains(token);
    assertThat(FencelineLocks.currentToken()).isEmpty();
    assertThat(FencelineLocks.currentToken("nightly-report")).isEmpty();
  }

  @Test
  void theTokenIsClearedAlsoWhenTheTaskThrows() {
    AtomicReference<Optional<FencingToken>> seen = new AtomicReference<>();

    assertThatThrownBy(
            () ->
                executor.executeWithLock(
                    (Runnable)
                        () -> {
                          seen.set(FencelineLocks.currentToken());
                          throw new IllegalStateException("the report failed");
                        },
                    config("failing-task", AT_MOST, Duration.ZERO)))
        .hasMessage("the report failed");

    assertThat(seen.get()).isPresent();
    assertThat(FencelineLocks.currentToken()).isEmpty();
    assertThat(issuer.status(ResourceId.of("failing-task")).held()).isFalse();
  }

  @Test
  void nestedLocksFormAStackInnermostFirst() {
    AtomicReference<FencingToken> outer = new AtomicReference<>();
    AtomicReference<FencingToken> inner = new AtomicReference<>();
    AtomicReference<Optional<FencingToken>> outerSeenInside = new AtomicReference<>();
    AtomicReference<Optional<FencingToken>> afterInner = new AtomicReference<>();

    executor.executeWithLock(
        (Runnable)
            () -> {
              outer.set(FencelineLocks.currentToken().orElseThrow());
              executor.executeWithLock(
                  (Runnable)
                      () -> {
                        inner.set(FencelineLocks.currentToken().orElseThrow());
                        outerSeenInside.set(FencelineLocks.currentToken("outer-job"));
                      },
                  config("inner-job", AT_MOST, Duration.ZERO));
              afterInner.set(FencelineLocks.currentToken());
            },
        config("outer-job", AT_MOST, Duration.ZERO));

    assertThat(outer.get().resource()).isEqualTo(ResourceId.of("outer-job"));
    assertThat(inner.get().resource()).isEqualTo(ResourceId.of("inner-job"));
    assertThat(outerSeenInside.get()).contains(outer.get());
    assertThat(afterInner.get()).contains(outer.get());
  }

  @Test
  void locksUnlockedOutOfOrderLeaveTheOtherOnesToken() {
    SimpleLock first = provider.lock(config("first", AT_MOST, Duration.ZERO)).orElseThrow();
    FencingToken firstToken = FencelineLocks.currentToken().orElseThrow();
    SimpleLock second = provider.lock(config("second", AT_MOST, Duration.ZERO)).orElseThrow();
    FencingToken secondToken = FencelineLocks.currentToken().orElseThrow();

    first.unlock();

    assertThat(FencelineLocks.currentToken()).contains(secondToken);
    assertThat(FencelineLocks.currentToken("first")).isEmpty();
    assertThat(secondToken).isNotEqualTo(firstToken);
    second.unlock();
  }

  @Test
  void anotherThreadSeesNoTokenAndAnUnlockOnAnotherThreadEndsIt() throws Exception {
    CountDownLatch locked = new CountDownLatch(1);
    CountDownLatch unlockedElsewhere = new CountDownLatch(1);
    AtomicReference<SimpleLock> lock = new AtomicReference<>();
    CompletableFuture<Optional<FencingToken>> afterForeignUnlock =
        CompletableFuture.supplyAsync(
            () -> {
              lock.set(provider.lock(config("handed-over", AT_MOST, Duration.ZERO)).orElseThrow());
              FencelineLocks.currentToken().orElseThrow();
              locked.countDown();
              Waits.await(unlockedElsewhere, "the unlock on the test thread");
              return FencelineLocks.currentToken();
            },
            runnable -> new Thread(runnable, "locking-thread").start());
    Waits.await(locked, "the lock on the locking thread");

    assertThat(FencelineLocks.currentToken()).isEmpty();
    lock.get().unlock();
    unlockedElsewhere.countDown();

    assertThat(afterForeignUnlock.get(30, TimeUnit.SECONDS)).isEmpty();
    assertThat(issuer.status(ResourceId.of("handed-over")).held()).isFalse();
  }

  @Test
  void aLockThatWasNotGrantedSetsNoToken() {
    FencelineLockProvider other = new FencelineLockProvider(issuer, "instance-b");
    SimpleLock held = other.lock(config("busy", AT_MOST, Duration.ZERO)).orElseThrow();
    held.unlock(); // clears the other provider's token from this thread first
    SimpleLock again = other.lock(config("busy", AT_MOST, Duration.ZERO)).orElseThrow();
    FencingToken othersToken = FencelineLocks.currentToken().orElseThrow();

    assertThat(provider.lock(config("busy", AT_MOST, Duration.ZERO))).isEmpty();

    assertThat(FencelineLocks.currentToken()).contains(othersToken);
    again.unlock();
  }
}
