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

import dev.fenceline.spi.Lease;
import dev.fenceline.spi.LeaseLostException;
import dev.fenceline.spi.StoreException;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.Optional;
import net.javacrumbs.shedlock.core.ClockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;

/**
 * One held ShedLock lock: a lease of the provider's issuer (see {@link FencelineLockProvider} for
 * the mapping of unlock and extend). Thread-safe: ShedLock's {@code KeepAliveLockProvider} extends
 * it from its scheduler thread while the task's thread may unlock it.
 */
final class FencelineLock implements SimpleLock {

  private static final System.Logger LOG = System.getLogger(FencelineLock.class.getName());

  private enum State {
    /** Unlock and extend are allowed. */
    HELD,
    /** An extend found the lease lost and hid the token: only unlock is allowed (no-op). */
    LOST,
    /** Unlocked, or replaced by the lock an extend returned. */
    ENDED
  }

  private final FencelineLockProvider provider;
  private final LockConfiguration configuration;
  private final Lease lease;
  private final FencelineLocks.Held held;
  private State state = State.HELD; // guarded by this

  FencelineLock(
      FencelineLockProvider provider,
      LockConfiguration configuration,
      Lease lease,
      FencelineLocks.Held held) {
    this.provider = provider;
    this.configuration = configuration;
    this.lease = lease;
    this.held = held;
  }

  @Override
  public synchronized void unlock() {
    if (state == State.ENDED) {
      throw invalid("unlock");
    }
    boolean lost = state == State.LOST;
    state = State.ENDED;
    try {
      if (!lost) {
        endLease();
      }
    } finally {
      FencelineLocks.end(held);
    }
  }

  @Override
  public synchronized Optional<SimpleLock> extend(Duration lockAtMostFor, Duration lockAtLeastFor) {
    if (state != State.HELD) {
      throw invalid("extend");
    }
    LockConfiguration extended =
        new LockConfiguration(
            ClockProvider.now(), configuration.getName(), lockAtMostFor, lockAtLeastFor);
    Duration ttl = FencelineLockProvider.ttlUntil(extended.getLockAtMostUntil());
    long sent = System.nanoTime();
    Lease renewed;
    try {
      renewed = provider.issuer().renew(lease, ttl);
    } catch (LeaseLostException e) {
      state = State.LOST;
      held.lost(); // known lost: the token is no longer this thread's, until the unlock
      LOG.log(
          Level.WARNING, "Cannot extend lock " + configuration.getName() + ": " + e.getMessage());
      return Optional.empty();
    } catch (StoreException e) {
      throw FencelineLockProvider.failure(
          "extend", configuration.getName(), e, "the lock is unchanged: extend or unlock it again");
    }
    held.believeUntil(FencelineLockProvider.deadline(sent, ttl));
    state = State.ENDED;
    return Optional.of(new FencelineLock(provider, extended, renewed, held));
  }

  /** Keeps the lease until {@code lockAtLeastUntil} if that is still ahead, else releases it. */
  private void endLease() {
    Duration keep = Duration.between(ClockProvider.now(), configuration.getLockAtLeastUntil());
    try {
      if (keep.compareTo(FencelineLockProvider.SHORTEST_TTL) >= 0) {
        provider.issuer().renew(lease, keep);
      } else {
        provider.issuer().release(lease);
      }
    } catch (LeaseLostException e) {
      // Expired, maybe taken over: nothing left to unlock. A write with its token after a takeover
      // was rejected by any fenced destination that saw the newer epoch.
      LOG.log(
          Level.WARNING,
          "Lock "
              + configuration.getName()
              + " ended before its task did (raise lockAtMostFor, or extend the lock): "
              + e.getMessage());
    } catch (StoreException e) {
      throw FencelineLockProvider.failure(
          "unlock",
          configuration.getName(),
          e,
          "the lease ends by itself at "
              + lease.expiresAt()
              + " by the issuer's clock; the lock counts as unlocked");
    }
  }

  private IllegalStateException invalid(String action) {
    return new IllegalStateException(
        "Cannot "
            + action
            + " lock "
            + configuration.getName()
            + " ("
            + lease.token()
            + "): it was already unlocked or extended (use the lock that extend returned)");
  }

  @Override
  public String toString() {
    return "FencelineLock[" + lease.token() + " until " + lease.expiresAt() + "]";
  }
}
