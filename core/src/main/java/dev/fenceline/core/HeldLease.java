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
package dev.fenceline.core;

import static java.util.Objects.requireNonNull;

import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.Lease;
import dev.fenceline.spi.LeaseIssuer;
import dev.fenceline.spi.LeaseLostException;
import dev.fenceline.spi.LeaseSignals;
import dev.fenceline.spi.LeaseWatch;
import dev.fenceline.spi.StoreException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A lease for <em>fenced</em> publishing: it carries the {@link #token()} every write to a
 * destination presents, kept alive by background renewal, with the worker's own belief about it
 * measured on the monotonic clock (R8, R9). For a lease that only avoids duplicate work and never
 * writes to a destination, use {@link EfficiencyLease} ({@link Fenceline#tryAcquireForEfficiency}).
 *
 * <p>The belief ({@link #isLocallyValid()}) ends at the <em>local deadline</em>: the lease's ttl
 * minus the safety margin ({@link Fenceline.Builder#safetyMargin}), counted from when the acquire
 * or renew request was <em>sent</em>, so it ends before the issuer's lease if the two clocks run at
 * about the same rate. When the deadline passes without a successful renewal, or the issuer refuses
 * a renewal, the lease is lost for good: listeners registered with {@link #onLost} run once and it
 * is never renewed again (re-acquire for a new epoch).
 *
 * <p>The issuer can shorten the belief between renewals ({@link LeaseIssuer#watch}): when it loses
 * contact with its store in a way the lease cannot outlast for long (a ZooKeeper connection that is
 * suspended: the ensemble expires the holder's session after the session timeout), it lowers the
 * local deadline to what the lease can still count on; when the lease ends with its store session
 * (ZooKeeper's {@code LOST}, a new session), the belief ends at once and the lease is lost. Only a
 * successful renewal sent after such a bound lifts it; contact that comes back by itself restores
 * nothing.
 *
 * <p>Use the belief and the listeners to stop heavy work early (an efficiency measure, R10). Never
 * use them to decide whether a write is safe: a process can stall right after checking, and a
 * stalled process does not run its listeners. Writes carry {@link #token()} and the destination
 * decides. {@link Fenceline#publish} and {@link Fenceline#register} do refuse a lease that was
 * closed or that this worker already knows to be lost, before anything is sent: such a write is at
 * best redundant, and for destinations that fence only at the intent (or not at all) the local
 * check is the last one. A process that stalls after that check is still stopped by the
 * destination's epoch check.
 *
 * <p>Thread-safe. Closing it stops renewal and releases the lease at the issuer; a closed lease
 * cannot publish.
 */
public final class HeldLease implements AutoCloseable {

  /** What this worker believes about its lease. */
  public enum State {
    /** Acquired and, as far as this worker knows, not lost. */
    HELD,
    /**
     * Lost: the issuer refused a renewal, or the local deadline passed without a successful renewal
     * ({@link #loss()} says which). Final.
     */
    LOST,
    /** Released by this worker. */
    RELEASED
  }

  private static final System.Logger LOG = System.getLogger(HeldLease.class.getName());

  // Far below the overflow of nanoTime arithmetic; an issuer's bound of decades is no bound.
  private static final Duration LONGEST_BOUND = Duration.ofDays(365L * 50);

  private final LeaseIssuer issuer;
  private final MonotonicClock clock;
  private final Duration safetyMargin;
  private final Object lock = new Object();
  // Guarded by lock.
  private Lease lease;
  // From the last successful acquire or renew; the belief ends at the earlier of it and the bound.
  private long localDeadlineNanos;
  // The issuer's bound (LeaseSignals#endsWithin), until a renewal sent after it succeeds.
  private boolean bounded;
  private long boundNanos;
  private long boundSignalledNanos;
  private String boundReason;
  // Set once by LeaseSignals#ended: the belief ended for good.
  private String endedReason;
  private LeaseWatch issuerWatch = LeaseWatch.NONE;
  private Runnable renewSoon = () -> {};
  private final List<ScheduledFuture<?>> boundChecks = new ArrayList<>();
  private State state = State.HELD;
  private LeaseLoss loss;
  private List<Consumer<? super LeaseLoss>> listeners = new ArrayList<>();
  private int renewalsInFlight;
  private RuntimeException failureSinceLastRenewal;
  private Runnable stopRenewal = () -> {};
  private ScheduledExecutorService deadlineWatch;
  private ScheduledFuture<?> deadlineTask;
  private boolean closed;

  HeldLease(
      LeaseIssuer issuer,
      MonotonicClock clock,
      Duration safetyMargin,
      Lease lease,
      long requestSentNanos) {
    this.issuer = requireNonNull(issuer, "issuer is null");
    this.clock = requireNonNull(clock, "clock is null");
    this.safetyMargin = requireNonNull(safetyMargin, "safetyMargin is null");
    this.lease = requireNonNull(lease, "lease is null");
    this.localDeadlineNanos = deadline(requestSentNanos, lease);
  }

  private long deadline(long requestSentNanos, Lease granted) {
    // A ttl the issuer shortened below the margin leaves no local validity at all.
    long validNanos = Math.max(0, granted.ttl().minus(safetyMargin).toNanos());
    return requestSentNanos + validNanos;
  }

  /** Called once by {@link Fenceline}: how to stop background renewal (on close and on loss). */
  void stopRenewalWith(Runnable action) {
    requireNonNull(action, "action is null");
    boolean stopNow;
    synchronized (lock) {
      stopNow = state != State.HELD;
      if (!stopNow) {
        this.stopRenewal = action;
      }
    }
    if (stopNow) {
      action.run();
    }
  }

  /**
   * Called once by {@link Fenceline}: notices a passed local deadline on {@code watch} even when
   * renewal is stuck in a call to an issuer that does not answer.
   */
  void watchDeadlineOn(ScheduledExecutorService watch) {
    synchronized (lock) {
      this.deadlineWatch = requireNonNull(watch, "watch is null");
    }
    armDeadlineWatch();
  }

  private void armDeadlineWatch() {
    ScheduledExecutorService watch;
    long left;
    synchronized (lock) {
      if (state != State.HELD || deadlineWatch == null) {
        return;
      }
      watch = deadlineWatch;
      left = Math.max(0, deadlineNanos() - clock.nanoTime());
    }
    ScheduledFuture<?> task;
    try {
      task = watch.schedule(this::onDeadlineWatch, left, TimeUnit.NANOSECONDS);
    } catch (RejectedExecutionException e) {
      // The Fenceline was closed: loss detection stops with it (documented on Fenceline#close).
      return;
    }
    boolean cancel;
    synchronized (lock) {
      cancel = state != State.HELD;
      if (!cancel) {
        deadlineTask = task;
      }
    }
    if (cancel) {
      task.cancel(false);
    }
  }

  private void onDeadlineWatch() {
    if (!loseIfDeadlinePassed()) {
      armDeadlineWatch(); // renewed since: wait for the new deadline
    }
  }

  /** Must hold {@link #lock}: the local deadline, lowered to the issuer's bound if there is one. */
  private long deadlineNanos() {
    return bounded && boundNanos - localDeadlineNanos < 0 ? boundNanos : localDeadlineNanos;
  }

  /** Must hold {@link #lock}: true if the issuer's bound is what ends the belief. */
  private boolean boundDecides() {
    return bounded && boundNanos - localDeadlineNanos < 0;
  }

  /**
   * Called once by {@link Fenceline}, after {@link #watchDeadlineOn}: asks the issuer for signals
   * about this lease ({@link LeaseIssuer#watch}); {@code renewSoon} schedules a renewal when the
   * issuer says one would help (a no-op without background renewal).
   */
  void followIssuer(Runnable renewSoon) {
    requireNonNull(renewSoon, "renewSoon is null");
    Lease granted;
    synchronized (lock) {
      if (state != State.HELD) {
        return;
      }
      this.renewSoon = renewSoon;
      granted = lease;
    }
    LeaseWatch watch;
    try {
      watch = issuer.watch(granted, new Signals());
    } catch (RuntimeException e) {
      // The SPI says it never throws; the belief then ends by the ttl alone, as without signals.
      LOG.log(
          System.Logger.Level.WARNING,
          "Cannot watch lease "
              + granted.token()
              + " at "
              + issuer
              + ": "
              + e
              + " (its belief ends by the ttl only)",
          e);
      return;
    }
    if (watch == null) {
      return;
    }
    boolean closeNow;
    synchronized (lock) {
      closeNow = state != State.HELD;
      if (!closeNow) {
        issuerWatch = watch;
      }
    }
    if (closeNow) {
      watch.close();
    }
  }

  /** The issuer's signals about this lease (see {@link LeaseSignals}). */
  private final class Signals implements LeaseSignals {

    @Override
    public void endsWithin(Duration atMost, String reason) {
      bound(atMost, reason, false);
    }

    @Override
    public void ended(String reason) {
      bound(Duration.ZERO, reason, true);
    }

    @Override
    public void renewSoon(String reason) {
      Runnable action;
      synchronized (lock) {
        if (state != State.HELD) {
          return;
        }
        action = renewSoon;
      }
      LOG.log(System.Logger.Level.DEBUG, "Renewing lease " + token() + " soon: " + reason);
      action.run();
    }
  }

  /**
   * Lowers the local deadline to {@code atMost} from now ({@code ended}: to now, for good), and
   * checks it on the deadline watch when it comes, so listeners run on a Fenceline thread.
   */
  private void bound(Duration atMost, String reason, boolean ended) {
    requireNonNull(atMost, "atMost is null");
    String why = String.valueOf(reason);
    ScheduledExecutorService watch;
    long delay;
    synchronized (lock) {
      if (state != State.HELD) {
        return;
      }
      long now = clock.nanoTime();
      long nanos =
          atMost.isNegative()
              ? 0
              : atMost.compareTo(LONGEST_BOUND) > 0 ? LONGEST_BOUND.toNanos() : atMost.toNanos();
      long at = now + nanos;
      if (ended && endedReason == null) {
        endedReason = why;
      }
      if (!bounded || at - boundNanos < 0) {
        bounded = true;
        boundNanos = at;
        boundReason = why;
      }
      boundSignalledNanos = now;
      watch = deadlineWatch;
      delay = Math.max(0, deadlineNanos() - now);
    }
    LOG.log(
        ended ? System.Logger.Level.WARNING : System.Logger.Level.INFO,
        "Lease "
            + token()
            + (ended ? " ended at the issuer: " : " can be believed for at most " + atMost + ": ")
            + why);
    if (watch == null) {
      return; // not followed by a Fenceline: the next renewNow() or publish notices
    }
    ScheduledFuture<?> task;
    try {
      task = watch.schedule(this::loseIfDeadlinePassed, delay, TimeUnit.NANOSECONDS);
    } catch (RejectedExecutionException e) {
      return; // the Fenceline was closed: loss detection stops with it
    }
    boolean cancel;
    synchronized (lock) {
      cancel = state != State.HELD;
      if (!cancel) {
        boundChecks.removeIf(ScheduledFuture::isDone);
        boundChecks.add(task);
      }
    }
    if (cancel) {
      task.cancel(false);
    }
  }

  /** The fencing token every write under this lease carries. */
  public FencingToken token() {
    synchronized (lock) {
      return lease.token();
    }
  }

  /** The lease as last granted by the issuer. */
  public Lease lease() {
    synchronized (lock) {
      return lease;
    }
  }

  /**
   * What this worker believes about its lease. Becomes {@link State#LOST} when the loss is noticed
   * (by renewal, the deadline watch or {@link #renewNow()}); {@link #isLocallyValid()} turns false
   * as soon as the local deadline passes.
   */
  public State state() {
    synchronized (lock) {
      return state;
    }
  }

  /** Why and when the lease was lost, or empty while held or after a release. */
  public Optional<LeaseLoss> loss() {
    synchronized (lock) {
      return Optional.ofNullable(loss);
    }
  }

  /**
   * Runs {@code listener} once when the lease is lost: on a background thread of the {@link
   * Fenceline} (renewal or deadline watch, which also acts on the issuer's signals), or on the
   * thread calling {@link #renewNow()}, {@link Fenceline#publish} or {@link Fenceline#register} if
   * that call notices the loss; never while a lock of this lease is held. If the lease is already
   * lost, the listener runs at once on the calling thread. A lease released by {@link #close()} is
   * not lost: listeners registered before never run.
   *
   * <p>A listener that throws is logged and does not stop the others. Keep listeners short (cancel
   * the work, signal a thread): they delay the detection of other losses.
   *
   * <p>An efficiency signal to stop work early, never a safety guarantee (see {@link LeaseLoss}).
   */
  public void onLost(Consumer<? super LeaseLoss> listener) {
    requireNonNull(listener, "listener is null");
    LeaseLoss lost;
    synchronized (lock) {
      lost = loss;
      if (lost == null) {
        if (state == State.HELD) {
          listeners.add(listener);
        }
        return;
      }
    }
    notify(listener, lost);
  }

  /**
   * True if the lease is held and its local deadline (ttl minus the safety margin, from when the
   * last successful acquire or renew request was sent, lowered to a bound the issuer signalled
   * since) has not passed on the monotonic clock. False at once when the issuer signals that the
   * lease ended. An efficiency hint only (see the class comment).
   */
  public boolean isLocallyValid() {
    return !remaining().isZero();
  }

  /** Time left until the local deadline, zero if passed or the lease is not held. */
  public Duration remaining() {
    synchronized (lock) {
      if (state != State.HELD) {
        return Duration.ZERO;
      }
      long left = deadlineNanos() - clock.nanoTime();
      return left > 0 ? Duration.ofNanos(left) : Duration.ZERO;
    }
  }

  /**
   * Renews the lease now. Background renewal calls this; tests and callers may too. A lease whose
   * local deadline has passed is lost, not renewed. A renewal that succeeds sets the local deadline
   * from when it was sent, and lifts a bound the issuer signalled before it was sent (one signalled
   * while it was under way stays).
   *
   * @return true if renewed; false if the lease was lost (now or before) or is not held
   * @throws StoreException if the issuer could not be reached while the local deadline has not
   *     passed; the deadline is unchanged and will lapse unless a later renewal succeeds
   */
  public boolean renewNow() {
    if (loseIfDeadlinePassed()) {
      return false;
    }
    Lease current;
    synchronized (lock) {
      if (state != State.HELD) {
        return false;
      }
      current = lease;
      renewalsInFlight++;
    }
    long sent = clock.nanoTime();
    Lease renewed;
    try {
      renewed = issuer.renew(current);
    } catch (LeaseLostException e) {
      synchronized (lock) {
        renewalsInFlight--;
      }
      lose(refused(current, e));
      return false;
    } catch (RuntimeException e) {
      synchronized (lock) {
        renewalsInFlight--;
        failureSinceLastRenewal = e;
      }
      if (loseIfDeadlinePassed()) {
        return false;
      }
      throw e;
    }
    LeaseLoss late;
    synchronized (lock) {
      renewalsInFlight--;
      if (state != State.HELD) {
        return false;
      }
      long now = clock.nanoTime();
      if (deadlineNanos() - now > 0) {
        lease = renewed;
        localDeadlineNanos = deadline(sent, renewed);
        failureSinceLastRenewal = null;
        // A bound signalled before the renewal was sent is superseded by it; a later one is not
        // (the renewal proves no contact after it was sent).
        if (bounded && boundSignalledNanos - sent < 0) {
          bounded = false;
          boundReason = null;
        }
        return true;
      }
      // The answer came after the local deadline: the belief already ended, keep it ended.
      late =
          lossAtDeadline(
              "the renewal was answered "
                  + Duration.ofNanos(now - deadlineNanos())
                  + " after the local deadline",
              true);
    }
    lose(late);
    return false;
  }

  private LeaseLoss refused(Lease current, LeaseLostException e) {
    Epoch newest = null;
    try {
      // Best effort, outside any lock: the issuer may already be unreachable again.
      newest = issuer.status(current.resource()).epoch();
    } catch (RuntimeException statusFailure) {
      LOG.log(
          System.Logger.Level.DEBUG,
          "Cannot read the newest epoch of " + current.resource() + ": " + statusFailure);
    }
    Optional<Epoch> newer =
        newest != null && newest.isNewerThan(current.epoch())
            ? Optional.of(newest)
            : Optional.empty();
    return new LeaseLoss(
        current.resource(),
        current.epoch(),
        newer.isPresent() ? LeaseLoss.Reason.SUPERSEDED : LeaseLoss.Reason.REFUSED,
        newer,
        Instant.now(),
        String.valueOf(e.getMessage()));
  }

  /** Must hold {@link #lock}. */
  private LeaseLoss loss(LeaseLoss.Reason reason, String detail) {
    return new LeaseLoss(
        lease.resource(), lease.epoch(), reason, Optional.empty(), Instant.now(), detail);
  }

  /** Declares the lease lost if its local deadline passed; true if it is lost (now or before). */
  private boolean loseIfDeadlinePassed() {
    LeaseLoss lost;
    synchronized (lock) {
      if (state != State.HELD) {
        return state == State.LOST;
      }
      long now = clock.nanoTime();
      long overrun = now - deadlineNanos();
      if (overrun < 0) {
        return false;
      }
      lost =
          lossAtDeadline("the local deadline passed " + (overrun / 1_000_000) + " ms ago", false);
    }
    lose(lost);
    return true;
  }

  /**
   * Must hold {@link #lock}: the loss of a lease whose local deadline passed ({@code after} says
   * how long ago), or whose renewal was answered after it ({@code answeredLate}).
   */
  private LeaseLoss lossAtDeadline(String after, boolean answeredLate) {
    if (endedReason != null) {
      return loss(LeaseLoss.Reason.ENDED_AT_ISSUER, endedReason);
    }
    if (boundDecides()) {
      return loss(
          LeaseLoss.Reason.ISSUER_UNREACHABLE,
          after + ", a deadline the issuer lowered: " + boundReason);
    }
    if (answeredLate) {
      return loss(LeaseLoss.Reason.ISSUER_UNREACHABLE, after);
    }
    if (renewalsInFlight > 0) {
      return loss(
          LeaseLoss.Reason.ISSUER_UNREACHABLE,
          after + " while a renewal was waiting for the issuer's answer");
    }
    if (failureSinceLastRenewal != null) {
      return loss(
          LeaseLoss.Reason.ISSUER_UNREACHABLE,
          after + "; the last renewal failed: " + failureSinceLastRenewal.getMessage());
    }
    return loss(LeaseLoss.Reason.DEADLINE_PASSED, after + " without a renewal");
  }

  /**
   * Must hold {@link #lock}: forgets the issuer's watch and the pending bound checks; the returned
   * action stops them and runs outside the lock.
   */
  private Runnable stopFollowingIssuer() {
    LeaseWatch watch = issuerWatch;
    issuerWatch = LeaseWatch.NONE;
    renewSoon = () -> {};
    List<ScheduledFuture<?>> checks = List.copyOf(boundChecks);
    boundChecks.clear();
    FencingToken watched = lease.token();
    return () -> {
      checks.forEach(check -> check.cancel(false));
      try {
        watch.close();
      } catch (RuntimeException e) {
        LOG.log(System.Logger.Level.DEBUG, "Cannot stop watching lease " + watched, e);
      }
    };
  }

  /** Moves to LOST unless no longer held, then notifies outside the lock. */
  private void lose(LeaseLoss lost) {
    List<Consumer<? super LeaseLoss>> toNotify;
    Runnable unfollow;
    Runnable renewal;
    ScheduledFuture<?> watch;
    synchronized (lock) {
      if (state != State.HELD) {
        return; // already lost or released: listeners ran (or never will) exactly once
      }
      state = State.LOST;
      loss = lost;
      toNotify = listeners;
      listeners = List.of();
      renewal = stopRenewal;
      stopRenewal = () -> {};
      watch = deadlineTask;
      deadlineTask = null;
      unfollow = stopFollowingIssuer();
    }
    renewal.run();
    if (watch != null) {
      watch.cancel(false);
    }
    unfollow.run();
    LOG.log(System.Logger.Level.WARNING, lost.describe());
    for (Consumer<? super LeaseLoss> listener : toNotify) {
      notify(listener, lost);
    }
  }

  private static void notify(Consumer<? super LeaseLoss> listener, LeaseLoss lost) {
    try {
      listener.accept(lost);
    } catch (RuntimeException e) {
      LOG.log(
          System.Logger.Level.ERROR,
          "Cannot run a lease-loss listener for "
              + lost.resource()
              + " at epoch "
              + lost.epoch()
              + ": it threw "
              + e
              + " (the other listeners still ran; fix the listener)",
          e);
    }
  }

  /**
   * Why this lease must not be used for a write, or empty if it may: it was closed, or it is lost
   * (a local deadline that passed is noticed now, running the listeners on this thread).
   */
  Optional<String> whyItCannotWrite() {
    loseIfDeadlinePassed();
    synchronized (lock) {
      if (closed && state == State.LOST) {
        return Optional.of("the lease was closed by this worker after it was lost: " + lossText());
      }
      if (closed) {
        return Optional.of("the lease was closed by this worker");
      }
      if (state == State.LOST) {
        return Optional.of("the lease was lost: " + lossText());
      }
      return Optional.empty();
    }
  }

  /** Must hold {@link #lock}: the loss in words, e.g. {@code SUPERSEDED by epoch 4 (...)}. */
  private String lossText() {
    return loss.reason()
        + loss.newerEpoch().map(newer -> " by epoch " + newer).orElse("")
        + " ("
        + loss.detail()
        + ")";
  }

  /** Renewal from the background: failures are logged, never thrown. */
  void renewQuietly() {
    try {
      renewNow();
    } catch (RuntimeException e) {
      LOG.log(
          System.Logger.Level.WARNING,
          "Cannot renew lease "
              + token()
              + ": "
              + e.getMessage()
              + " (will retry until the local deadline, "
              + remaining()
              + " from now)",
          e);
    }
  }

  /**
   * Stops renewal and releases the lease at the issuer if this worker still holds it. A lease lost
   * only by its local deadline or by the issuer's signal may still be current at the issuer: it is
   * released on a best-effort basis (a failure is logged; the lease then expires by itself).
   * Idempotent. A closed lease cannot publish or register ({@link Fenceline#publish}).
   *
   * @throws StoreException if the issuer could not be reached while the lease was held; the lease
   *     then expires by itself
   */
  @Override
  public void close() {
    Lease toRelease;
    boolean bestEffort;
    Runnable renewal;
    Runnable unfollow;
    ScheduledFuture<?> watch;
    synchronized (lock) {
      if (closed) {
        return;
      }
      closed = true;
      renewal = stopRenewal;
      stopRenewal = () -> {};
      watch = deadlineTask;
      deadlineTask = null;
      unfollow = stopFollowingIssuer();
      listeners = List.of();
      bestEffort =
          state == State.LOST
              && (loss.reason() == LeaseLoss.Reason.DEADLINE_PASSED
                  || loss.reason() == LeaseLoss.Reason.ISSUER_UNREACHABLE
                  || loss.reason() == LeaseLoss.Reason.ENDED_AT_ISSUER);
      toRelease = state == State.HELD || bestEffort ? lease : null;
      if (state == State.HELD) {
        state = State.RELEASED;
      }
    }
    renewal.run();
    if (watch != null) {
      watch.cancel(false);
    }
    unfollow.run();
    if (toRelease == null) {
      return;
    }
    if (!bestEffort) {
      issuer.release(toRelease);
      return;
    }
    try {
      issuer.release(toRelease);
    } catch (RuntimeException e) {
      LOG.log(
          System.Logger.Level.WARNING,
          "Cannot release lost lease "
              + toRelease.token()
              + ": "
              + e.getMessage()
              + " (it expires by itself at the issuer)");
    }
  }

  @Override
  public String toString() {
    return "HeldLease[" + token() + ", " + state() + ", remaining " + remaining() + "]";
  }
}
