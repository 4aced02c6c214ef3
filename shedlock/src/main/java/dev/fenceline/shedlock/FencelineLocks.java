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

import static java.util.Objects.requireNonNull;

import dev.fenceline.spi.FencingToken;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Iterator;
import java.util.Optional;

/**
 * The fencing token of the ShedLock lock the running task holds through a {@link
 * FencelineLockProvider}, for the task to pass to the destinations it writes to.
 *
 * <p><b>What the token protects, and what it does not (R10).</b> A ShedLock lock alone is an
 * efficiency lock: it keeps two instances from running the same job at the same time as long as
 * nobody stalls longer than {@code lockAtMostFor}. An instance that stalls past it (a GC pause, a
 * frozen VM) loses the lock while it still believes it runs the job, another instance takes the
 * lock with a newer epoch, and both write. The token protects nothing by itself: it only helps when
 * the task's writes go through a fenced destination that compares its epoch with the newest one it
 * has seen in the same atomic step as the write (a {@code JdbcStore}'s destinations and pointer
 * stores, a {@code StagedDestination}, any {@code Destination} of the SPI). Such a destination
 * rejects the stale instance's write as {@code RejectedStale} and keeps the new holder's. Writes
 * that bypass the destination (a plain {@code UPDATE}, a file written directly, an e-mail) are not
 * protected.
 *
 * <p><b>Which thread sees it.</b> {@link FencelineLockProvider#lock} sets the token on the thread
 * that acquires the lock; ShedLock runs the task on that thread ({@code
 * DefaultLockingTaskExecutor}, {@code @SchedulerLock}), so the task reads it with {@link
 * #currentToken()}. Work the task hands to other threads must take the token along as a value.
 * Extending the lock (by {@code LockExtender.extendActiveLock} or ShedLock's {@code
 * KeepAliveLockProvider}) keeps the same token: a renewal never changes the epoch.
 *
 * <p><b>How long.</b> The token is this thread's only while the lock can still be believed held:
 * not once an extend found the lock lost, and not once {@code lockAtMostFor} has passed by this
 * JVM's monotonic clock ({@link System#nanoTime()}, R9) since the lock was requested or last
 * extended, so that a lock nobody unlocked does not leave its token to the next task on a pooled
 * thread. A task that read the token before it stalled still holds it as a value; the fenced
 * destination is what stops its late write. A lock whose deadline passed becomes believed held
 * again if a later extend succeeds (a late {@code KeepAliveLockProvider} run): the issuer then
 * confirmed the lease is still held at the same epoch, as a renewal never revives an expired lease.
 * A lock found lost stays lost.
 *
 * <p>Nested locks (a task that runs another locked task on the same thread) form a stack: {@link
 * #currentToken()} is the innermost one, {@link #currentToken(String)} the innermost one of a lock
 * name. Only an unlock takes a lock off the stack (ShedLock unlocks in a {@code finally}, also when
 * the task threw; an unlock on another thread takes it off the next time this thread looks). A lock
 * that is lost or past its deadline stays on the stack as a marker, and the answer for it is empty:
 * a stalled inner task then reads no token rather than the token of the outer lock, which names
 * another resource. The outer lock's token is still answered by {@link #currentToken(String)} with
 * its name while the outer lock is believed held.
 */
public final class FencelineLocks {

  private static final ThreadLocal<Deque<Held>> HELD = new ThreadLocal<>();

  private FencelineLocks() {}

  /**
   * The token of the innermost lock this thread holds through a {@link FencelineLockProvider},
   * while that lock is believed held.
   *
   * @return the token, or empty if this thread holds no such lock (the task did not run under a
   *     {@link FencelineLockProvider}, or on another thread than the one that locked), or if the
   *     innermost lock was found lost or its {@code lockAtMostFor} passed (never an outer lock's
   *     token instead)
   */
  public static Optional<FencingToken> currentToken() {
    Deque<Held> held = unlockedRemoved();
    return held == null ? Optional.empty() : held.peekLast().tokenIfBelievedHeld(System.nanoTime());
  }

  /**
   * The token of the innermost lock named {@code lockName} that this thread holds through a {@link
   * FencelineLockProvider}, while that lock is believed held.
   *
   * @param lockName the ShedLock lock name, e.g. the {@code name} of {@code @SchedulerLock}
   * @return the token, or empty if this thread holds no lock of that name, or if the innermost one
   *     of that name was found lost or its {@code lockAtMostFor} passed
   */
  public static Optional<FencingToken> currentToken(String lockName) {
    requireNonNull(lockName, "lockName is null");
    Deque<Held> held = unlockedRemoved();
    if (held == null) {
      return Optional.empty();
    }
    for (Iterator<Held> innermostFirst = held.descendingIterator(); innermostFirst.hasNext(); ) {
      Held lock = innermostFirst.next();
      if (lock.lockName.equals(lockName)) {
        return lock.tokenIfBelievedHeld(System.nanoTime());
      }
    }
    return Optional.empty();
  }

  /**
   * Records that this thread acquired {@code lockName} with {@code token}, believed held until
   * {@code deadlineNanos} ({@link System#nanoTime()}).
   */
  static Held start(String lockName, FencingToken token, long deadlineNanos) {
    Held held = new Held(lockName, token, Thread.currentThread(), deadlineNanos);
    Deque<Held> stack = unlockedRemoved();
    if (stack == null) {
      stack = new ArrayDeque<>();
      HELD.set(stack);
    }
    stack.addLast(held);
    return held;
  }

  /**
   * Ends {@code held} (it was unlocked): on its own thread it is removed at once, on another thread
   * it is marked and its thread removes it the next time it looks.
   */
  static void end(Held held) {
    held.ended = true;
    if (held.owner == Thread.currentThread()) {
      unlockedRemoved();
    }
  }

  /**
   * This thread's stack without the unlocked locks, or null (and no thread-local value left) if
   * none is left. Locks found lost or past their deadline stay, as markers. Only the owning thread
   * touches its stack; other threads only set {@code ended}, {@code lost} and {@code
   * deadlineNanos}.
   */
  private static Deque<Held> unlockedRemoved() {
    Deque<Held> stack = HELD.get();
    if (stack == null) {
      return null;
    }
    stack.removeIf(held -> held.ended);
    if (stack.isEmpty()) {
      HELD.remove();
      return null;
    }
    return stack;
  }

  /** A lock a thread acquired, until it is unlocked. */
  static final class Held {
    private final String lockName;
    private final FencingToken token;
    private final Thread owner;
    private volatile boolean ended;
    private volatile boolean lost;
    private volatile long deadlineNanos;

    private Held(String lockName, FencingToken token, Thread owner, long deadlineNanos) {
      this.lockName = lockName;
      this.token = token;
      this.owner = owner;
      this.deadlineNanos = deadlineNanos;
    }

    /** After an extend: believed held until {@code deadlineNanos} ({@link System#nanoTime()}). */
    void believeUntil(long deadlineNanos) {
      this.deadlineNanos = deadlineNanos;
    }

    /** After an extend found the lease lost: never believed held again, until unlocked. */
    void lost() {
      this.lost = true;
    }

    private Optional<FencingToken> tokenIfBelievedHeld(long nowNanos) {
      boolean believed = !ended && !lost && nowNanos - deadlineNanos < 0;
      return believed ? Optional.of(token) : Optional.empty();
    }
  }
}
