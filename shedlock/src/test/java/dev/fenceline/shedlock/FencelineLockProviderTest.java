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

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.Lease;
import dev.fenceline.spi.LeaseIssuer;
import dev.fenceline.spi.LeaseStatus;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StoreException;
import dev.fenceline.tck.memory.InMemoryLeaseIssuer;
import dev.fenceline.tck.memory.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import net.javacrumbs.shedlock.core.ClockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;
import net.javacrumbs.shedlock.support.LockException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The provider's mapping of lock, unlock and extend onto leases, on the in-memory issuer whose
 * clock the test moves (no waiting for expiry).
 */
@ExtendWith(FreshThreadPerTest.class)
class FencelineLockProviderTest {

  private static final Instant START = Instant.parse("2026-10-27T01:00:00Z");

  private final MutableClock clock = new MutableClock(START);
  private final InMemoryLeaseIssuer issuer =
      new InMemoryLeaseIssuer(new InMemoryLeaseIssuer.Storage(), clock);
  private final FencelineLockProvider provider = new FencelineLockProvider(issuer, "instance-a");

  @Test
  void theLockNameIsTheResourceAndTheLeaseLastsLockAtMostFor() {
    SimpleLock lock = provider.lock(config("reports/nightly", minutes(10), Duration.ZERO)).get();

    LeaseStatus status = issuer.status(ResourceId.of("reports/nightly"));
    assertThat(status.held()).isTrue();
    assertThat(status.holder()).contains("instance-a");
    assertThat(status.epoch()).isEqualTo(Epoch.of(1));
    // Counted from the issuer's clock: lockAtMostFor less the few milliseconds since the config.
    assertThat(status.expiresAt().orElseThrow())
        .isBetween(START.plus(minutes(10)).minusSeconds(5), START.plus(minutes(10)));
    lock.unlock();
  }

  @Test
  void aSecondLockOfAHeldNameIsEmptyAlsoForTheSameProvider() {
    SimpleLock lock = provider.lock(config("job", minutes(10), Duration.ZERO)).get();
    FencelineLockProvider other = new FencelineLockProvider(issuer, "instance-b");

    assertThat(provider.lock(config("job", minutes(10), Duration.ZERO))).isEmpty();
    assertThat(other.lock(config("job", minutes(10), Duration.ZERO))).isEmpty();
    assertThat(issuer.status(ResourceId.of("job")).epoch()).isEqualTo(Epoch.of(1));
    lock.unlock();
  }

  @Test
  void epochsGrowAcrossLockAndUnlockAndAcrossInstances() {
    FencelineLockProvider other = new FencelineLockProvider(issuer, "instance-b");
    List<Epoch> epochs = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      FencelineLockProvider instance = i % 2 == 0 ? provider : other;
      SimpleLock lock = instance.lock(config("epochs", minutes(10), Duration.ZERO)).get();
      epochs.add(FencelineLocks.currentToken().orElseThrow().epoch());
      lock.unlock();
    }

    assertThat(epochs).containsExactly(Epoch.of(1), Epoch.of(2), Epoch.of(3), Epoch.of(4));
  }

  @Test
  void unlockKeepsTheLockHeldUntilLockAtLeastUntil() {
    SimpleLock lock = provider.lock(config("at-least", minutes(10), minutes(5))).get();

    lock.unlock();

    LeaseStatus kept = issuer.status(ResourceId.of("at-least"));
    assertThat(kept.held()).isTrue();
    assertThat(kept.holder()).contains("instance-a");
    assertThat(kept.expiresAt().orElseThrow())
        .isBetween(START.plus(minutes(5)).minusSeconds(5), START.plus(minutes(5)));
    assertThat(provider.lock(config("at-least", minutes(10), Duration.ZERO))).isEmpty();

    clock.advance(minutes(5));
    FencelineLockProvider other = new FencelineLockProvider(issuer, "instance-b");
    SimpleLock next = other.lock(config("at-least", minutes(10), Duration.ZERO)).get();
    assertThat(FencelineLocks.currentToken().orElseThrow().epoch()).isEqualTo(Epoch.of(2));
    next.unlock();
  }

  @Test
  void unlockAfterLockAtLeastUntilReleasesAtOnce() {
    SimpleLock lock = provider.lock(config("released", minutes(10), Duration.ZERO)).get();

    lock.unlock();

    LeaseStatus released = issuer.status(ResourceId.of("released"));
    assertThat(released.held()).isFalse();
    assertThat(released.holder()).isEmpty();
    assertThat(released.epoch()).isEqualTo(Epoch.of(1));
  }

  @Test
  void extendRenewsWithTheNewTtlKeepsTheTokenAndInvalidatesTheOldLock() {
    SimpleLock lock = provider.lock(config("extend", minutes(1), Duration.ZERO)).get();
    FencingToken token = FencelineLocks.currentToken().orElseThrow();
    clock.advance(Duration.ofSeconds(50));

    SimpleLock extended = lock.extend(minutes(10), minutes(3)).orElseThrow();

    LeaseStatus status = issuer.status(ResourceId.of("extend"));
    Instant now = START.plusSeconds(50);
    assertThat(status.expiresAt().orElseThrow())
        .isBetween(now.plus(minutes(10)).minusSeconds(5), now.plus(minutes(10)));
    assertThat(FencelineLocks.currentToken()).contains(token);
    assertThatThrownBy(lock::unlock)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("Cannot unlock lock extend (" + token + "): it was already unlocked");
    assertThatThrownBy(() -> lock.extend(minutes(10), Duration.ZERO))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("Cannot extend lock extend");
    assertThat(issuer.status(ResourceId.of("extend"))).isEqualTo(status);

    // The new lockAtLeastFor decides the unlock of the extended lock.
    extended.unlock();
    assertThat(issuer.status(ResourceId.of("extend")).held()).isTrue();
    assertThat(issuer.status(ResourceId.of("extend")).expiresAt().orElseThrow())
        .isBefore(now.plus(minutes(3)).plusSeconds(1));
    assertThatThrownBy(extended::unlock).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void extendOfAnExpiredLockIsEmptyNeverRevivesItAndClearsTheToken() {
    SimpleLock lock = provider.lock(config("expired", minutes(1), Duration.ZERO)).get();
    clock.advance(minutes(1));

    assertThat(lock.extend(minutes(10), Duration.ZERO)).isEmpty();

    assertThat(issuer.status(ResourceId.of("expired")).held()).isFalse();
    assertThat(FencelineLocks.currentToken()).isEmpty(); // known lost: no longer this thread's
    assertThatThrownBy(() -> lock.extend(minutes(10), Duration.ZERO))
        .isInstanceOf(IllegalStateException.class);
    lock.unlock(); // what ShedLock's executor does after the failed extend: allowed, changes
    // nothing
    assertThat(issuer.status(ResourceId.of("expired")).held()).isFalse();
    assertThatThrownBy(lock::unlock).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void aLockNobodyUnlocksLeavesTheThreadOnceLockAtMostForPassedByTheMonotonicClock() {
    long before = System.nanoTime();
    provider.lock(config("never-unlocked", Duration.ofSeconds(1), Duration.ZERO)).get();
    assertThat(FencelineLocks.currentToken("never-unlocked")).isPresent();

    Waits.until(
        () -> FencelineLocks.currentToken("never-unlocked").isEmpty(),
        "the end of the token's local deadline");

    assertThat(System.nanoTime() - before).isGreaterThanOrEqualTo(Duration.ofMillis(900).toNanos());
    // The issuer's clock did not move: the lease is still held there, only this thread forgot it.
    assertThat(issuer.status(ResourceId.of("never-unlocked")).held()).isTrue();
  }

  @Test
  void extendMovesTheThreadsDeadline() {
    long before = System.nanoTime();
    SimpleLock lock = provider.lock(config("extended", Duration.ofSeconds(1), Duration.ZERO)).get();
    SimpleLock extended = lock.extend(minutes(10), Duration.ZERO).orElseThrow();

    // Waits for a known instant, the first lease's local deadline, not for another thread.
    Waits.until(
        () -> System.nanoTime() - before >= Duration.ofMillis(1100).toNanos(),
        "the first lease's local deadline");

    assertThat(FencelineLocks.currentToken("extended")).isPresent();
    extended.unlock();
  }

  @Test
  void anInnerLockPastItsDeadlineHidesItsTokenAndNeverAnswersWithTheOuterLocksToken() {
    SimpleLock outer = provider.lock(config("outer-job", minutes(10), Duration.ZERO)).get();
    FencingToken outerToken = FencelineLocks.currentToken().orElseThrow();
    SimpleLock inner =
        provider.lock(config("inner-job", Duration.ofSeconds(1), Duration.ZERO)).get();
    long afterLock = System.nanoTime();
    FencingToken innerToken = FencelineLocks.currentToken().orElseThrow();

    // Waits for a known instant, past the inner lease's local deadline, not for another thread.
    Waits.until(
        () -> System.nanoTime() - afterLock >= Duration.ofMillis(1050).toNanos(),
        "the inner lease's local deadline");

    assertThat(FencelineLocks.currentToken()).isEmpty();
    assertThat(FencelineLocks.currentToken("inner-job")).isEmpty();
    assertThat(FencelineLocks.currentToken("outer-job")).contains(outerToken);

    // A late extend the issuer grants (its clock did not move): believed held again, same token.
    SimpleLock extended = inner.extend(minutes(10), Duration.ZERO).orElseThrow();
    assertThat(FencelineLocks.currentToken()).contains(innerToken);

    extended.unlock();
    assertThat(FencelineLocks.currentToken()).contains(outerToken);
    outer.unlock();
    assertThat(FencelineLocks.currentToken()).isEmpty();
  }

  @Test
  void anInnerLockFoundLostHidesItsTokenUntilItsUnlockAndNeverAnswersWithTheOuterLocksToken() {
    SimpleLock outer = provider.lock(config("outer-job", minutes(10), Duration.ZERO)).get();
    FencingToken outerToken = FencelineLocks.currentToken().orElseThrow();
    SimpleLock inner = provider.lock(config("inner-job", minutes(1), Duration.ZERO)).get();
    clock.advance(minutes(1));

    assertThat(inner.extend(minutes(10), Duration.ZERO)).isEmpty();

    assertThat(FencelineLocks.currentToken()).isEmpty();
    assertThat(FencelineLocks.currentToken("inner-job")).isEmpty();
    // The outer lock's local deadline (by this JVM's clock) has not passed.
    assertThat(FencelineLocks.currentToken("outer-job")).contains(outerToken);
    inner.unlock();
    assertThat(FencelineLocks.currentToken()).contains(outerToken);
    outer.unlock();
  }

  @Test
  void aLockTakenOverByAnotherInstanceCannotBeExtendedAndItsUnlockLeavesTheNewHolderAlone() {
    SimpleLock stale = provider.lock(config("taken", minutes(1), Duration.ZERO)).get();
    clock.advance(minutes(1));
    FencelineLockProvider other = new FencelineLockProvider(issuer, "instance-b");
    SimpleLock current = other.lock(config("taken", minutes(10), Duration.ZERO)).get();
    LeaseStatus taken = issuer.status(ResourceId.of("taken"));

    assertThat(stale.extend(minutes(10), Duration.ZERO)).isEmpty();
    stale.unlock();

    assertThat(issuer.status(ResourceId.of("taken"))).isEqualTo(taken);
    assertThat(taken.holder()).contains("instance-b");
    current.unlock();
  }

  @Test
  void unlockOfALockThatExpiredAndWasTakenOverChangesNothing() {
    SimpleLock stale = provider.lock(config("unlock-stale", minutes(1), minutes(1))).get();
    clock.advance(minutes(1));
    FencelineLockProvider other = new FencelineLockProvider(issuer, "instance-b");
    SimpleLock current = other.lock(config("unlock-stale", minutes(10), Duration.ZERO)).get();
    LeaseStatus taken = issuer.status(ResourceId.of("unlock-stale"));

    stale.unlock();

    assertThat(issuer.status(ResourceId.of("unlock-stale"))).isEqualTo(taken);
    current.unlock();
  }

  @Test
  void anInvalidLockNameIsRefusedNamingItAndTheRules() {
    assertThatThrownBy(() -> provider.lock(config("nightly report", minutes(1), Duration.ZERO)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Cannot use a ShedLock lock name as a Fenceline resource ID")
        .hasMessageContaining("\"nightly report\"")
        .hasMessageContaining("[A-Za-z0-9._-]")
        .hasMessageContaining("e.g. nightly-report");
    assertThatThrownBy(() -> provider.lock(config("job:1", minutes(1), Duration.ZERO)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("\"job:1\"");
    assertThat(FencelineLocks.currentToken()).isEmpty();
  }

  @Test
  void aLockAtMostUntilAlreadyPassedStillGetsTheShortestLease() {
    LockConfiguration passed =
        new LockConfiguration(
            ClockProvider.now().minusSeconds(10), "passed", Duration.ofSeconds(1), Duration.ZERO);

    SimpleLock lock = provider.lock(passed).get();

    assertThat(issuer.status(ResourceId.of("passed")).expiresAt())
        .contains(START.plus(FencelineLockProvider.SHORTEST_TTL));
    lock.unlock();
  }

  @Test
  void theDefaultHolderIsHostPidAndRandomUniquePerProvider() {
    FencelineLockProvider first = new FencelineLockProvider(issuer);
    FencelineLockProvider second = new FencelineLockProvider(issuer);

    String pid = Long.toString(ProcessHandle.current().pid());
    assertThat(first.holder()).matches(".+:" + pid + ":[0-9a-f]{8}");
    assertThat(second.holder()).matches(".+:" + pid + ":[0-9a-f]{8}");
    assertThat(first.holder()).isNotEqualTo(second.holder());
    SimpleLock lock = first.lock(config("default-holder", minutes(1), Duration.ZERO)).get();
    assertThat(issuer.status(ResourceId.of("default-holder")).holder()).contains(first.holder());
    assertThat(second.lock(config("default-holder", minutes(1), Duration.ZERO))).isEmpty();
    lock.unlock();
  }

  @Test
  void anInvalidHolderNameIsRefused() {
    assertThatThrownBy(() -> new FencelineLockProvider(issuer, " "))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("holder name");
  }

  @Test
  void storeFailuresAreLockExceptionsWithTheIssuersFailureAsCause() {
    FailingIssuer failing = new FailingIssuer(issuer);
    FencelineLockProvider onFailing = new FencelineLockProvider(failing, "instance-a");
    failing.failing = true;

    assertThatThrownBy(() -> onFailing.lock(config("failing", minutes(1), Duration.ZERO)))
        .isInstanceOf(LockException.class)
        .hasMessageContaining("Cannot lock failing: issuer unreachable")
        .hasCauseInstanceOf(StoreException.class);
    assertThat(FencelineLocks.currentToken()).isEmpty();

    failing.failing = false;
    SimpleLock lock = onFailing.lock(config("failing", minutes(1), Duration.ZERO)).get();
    LeaseStatus held = issuer.status(ResourceId.of("failing"));
    failing.failing = true;
    assertThatThrownBy(() -> lock.extend(minutes(10), Duration.ZERO))
        .isInstanceOf(LockException.class)
        .hasMessageContaining("Cannot extend failing")
        .hasMessageContaining("the lock is unchanged");
    assertThat(issuer.status(ResourceId.of("failing"))).isEqualTo(held);
    assertThat(FencelineLocks.currentToken()).isPresent();

    // Still valid after the failed extend; the failed unlock counts as an unlock.
    assertThatThrownBy(lock::unlock)
        .isInstanceOf(LockException.class)
        .hasMessageContaining("Cannot unlock failing")
        .hasMessageContaining("the lease ends by itself at " + held.expiresAt().orElseThrow());
    assertThat(FencelineLocks.currentToken()).isEmpty();
    assertThatThrownBy(lock::unlock).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void aKeepingUnlockClearsTheTokenWhileTheLockStaysHeld() {
    SimpleLock lock = provider.lock(config("kept", minutes(10), minutes(5))).get();
    FencingToken token = FencelineLocks.currentToken().orElseThrow();

    lock.unlock();

    assertThat(FencelineLocks.currentToken()).isEmpty();
    assertThat(FencelineLocks.currentToken("kept")).isEmpty();
    LeaseStatus kept = issuer.status(ResourceId.of("kept"));
    assertThat(kept.held()).isTrue();
    assertThat(kept.epoch()).isEqualTo(token.epoch());
  }

  @Test
  void aKeepingUnlockWhoseStoreFailsIsALockExceptionClearsTheTokenAndChangesNothing() {
    FailingIssuer failing = new FailingIssuer(issuer);
    FencelineLockProvider onFailing = new FencelineLockProvider(failing, "instance-a");
    SimpleLock lock = onFailing.lock(config("kept-failing", minutes(10), minutes(5))).get();
    LeaseStatus held = issuer.status(ResourceId.of("kept-failing"));
    failing.failing = true;

    assertThatThrownBy(lock::unlock)
        .isInstanceOf(LockException.class)
        .hasMessageContaining("Cannot unlock kept-failing: issuer unreachable")
        .hasMessageContaining("the lease ends by itself at " + held.expiresAt().orElseThrow())
        .hasCauseInstanceOf(StoreException.class);

    assertThat(FencelineLocks.currentToken()).isEmpty();
    // Still held until lockAtMostFor, not cut to lockAtLeastFor: the failed renew changed nothing.
    assertThat(issuer.status(ResourceId.of("kept-failing"))).isEqualTo(held);
    assertThatThrownBy(lock::unlock).isInstanceOf(IllegalStateException.class);
  }

  private static Duration minutes(long minutes) {
    return Duration.ofMinutes(minutes);
  }

  static LockConfiguration config(String name, Duration lockAtMostFor, Duration lockAtLeastFor) {
    return new LockConfiguration(ClockProvider.now(), name, lockAtMostFor, lockAtLeastFor);
  }

  /** An issuer whose store fails while {@link #failing} is set. */
  private static final class FailingIssuer implements LeaseIssuer {
    private final LeaseIssuer delegate;
    volatile boolean failing;

    FailingIssuer(LeaseIssuer delegate) {
      this.delegate = delegate;
    }

    private void failIfAsked() {
      if (failing) {
        throw new StoreException("issuer unreachable", null);
      }
    }

    @Override
    public String id() {
      return delegate.id();
    }

    @Override
    public Optional<Lease> tryAcquire(ResourceId resource, String holder, Duration ttl) {
      failIfAsked();
      return delegate.tryAcquire(resource, holder, ttl);
    }

    @Override
    public Lease renew(Lease lease, Duration ttl) {
      failIfAsked();
      return delegate.renew(lease, ttl);
    }

    @Override
    public boolean release(Lease lease) {
      failIfAsked();
      return delegate.release(lease);
    }

    @Override
    public LeaseStatus status(ResourceId resource) {
      return delegate.status(resource);
    }
  }
}
