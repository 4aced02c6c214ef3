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

import dev.fenceline.core.monitor.FencingMetrics;
import dev.fenceline.spi.ConfigurationException;
import dev.fenceline.spi.Destination;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.Guarantee;
import dev.fenceline.spi.Lease;
import dev.fenceline.spi.LeaseIssuer;
import dev.fenceline.spi.LeaseLostException;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.RegisterOutcome;
import dev.fenceline.spi.RejectedStale;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.WriteOutcome;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * What an application uses: acquire a lease, publish through a destination, handle the outcome.
 *
 * <pre>{@code
 * try (Fenceline fenceline = Fenceline.builder().issuer(issuer).holder("worker-a").build()) {
 *   Optional<HeldLease> acquired = fenceline.tryAcquire(ResourceId.of("nightly-report"));
 *   if (acquired.isEmpty()) {
 *     return;                                         // another worker holds the lease
 *   }
 *   try (HeldLease lease = acquired.get()) {
 *     fenceline.register(lease, destination);
 *     Report report = compute();                      // may take long, may stall
 *     WriteOutcome outcome = fenceline.publish(lease, destination, OperationId.of("report-2026-10-27"), change);
 *     switch (outcome) { ... }                        // Applied, AlreadyApplied, RejectedStale
 *   }
 * }
 * }</pre>
 *
 * <p>Publishing never depends on this worker's belief about its lease for safety: the destination
 * compares the token's epoch atomically with the change. A lease that was closed or is known to be
 * lost is refused locally before anything is sent, as a last line for destinations that fence less.
 * Leases are renewed in the background every {@code renewEvery} until closed. Thread-safe.
 *
 * <p>Two mechanisms, kept apart (R10):
 *
 * <ul>
 *   <li><b>Fenced publishing</b> ({@link #tryAcquire} → {@link HeldLease} → {@link #publish}): for
 *       correctness. The lease's token goes with every write and the destination rejects an older
 *       epoch, so a worker that stalled past its lease cannot overwrite a newer result.
 *   <li><b>Efficiency leases</b> ({@link #tryAcquireForEfficiency} → {@link EfficiencyLease}): only
 *       to avoid duplicate heavy work. No token, no destination: two workers may still overlap
 *       after a stall, which must be harmless.
 * </ul>
 *
 * <p>Both kinds end locally a safety margin before the issuer's expiry and call {@link
 * HeldLease#onLost} listeners when lost: a signal to stop work early, never a safety guarantee.
 */
public final class Fenceline implements AutoCloseable {

  private static final System.Logger LOG = System.getLogger(Fenceline.class.getName());

  private final LeaseIssuer issuer;
  private final String holder;
  private final Duration leaseTtl;
  private final Duration renewEvery;
  private final Duration safetyMargin;
  private final Guarantee weakestAllowed;
  private final MonotonicClock clock;
  private final ScheduledExecutorService renewals;
  private final ScheduledExecutorService deadlineWatch;
  private final boolean ownsRenewals;
  private final FencingMetrics metrics;
  private volatile boolean closed;

  private Fenceline(Builder builder) {
    this.issuer = builder.issuer;
    this.holder = builder.holder;
    this.leaseTtl = builder.leaseTtl;
    this.safetyMargin = builder.effectiveSafetyMargin();
    this.renewEvery = builder.effectiveRenewEvery();
    this.weakestAllowed =
        builder.allowUnguarded
            ? Guarantee.UNGUARDED
            : builder.allowIdempotentOnly
                ? Guarantee.IDEMPOTENT_ONLY
                : builder.allowFencedAtIntent
                    ? Guarantee.FENCED_AT_INTENT
                    : Guarantee.FENCED_BY_STAGING;
    this.clock = builder.clock;
    this.metrics = builder.metrics;
    this.ownsRenewals = builder.renewals == null;
    this.renewals =
        builder.renewals != null ? builder.renewals : ownScheduler("fenceline-lease-renewal");
    // Its own thread: a renewal stuck in a call to an unresponsive issuer must not delay noticing
    // that the local deadline passed.
    this.deadlineWatch = ownScheduler("fenceline-lease-deadline");
  }

  /**
   * One daemon thread that drops a task from its queue as soon as it is cancelled: every acquire
   * schedules tasks that are cancelled on release, and the default policy would keep each one
   * queued until it was due (100 000 acquire+close kept 100 000 tasks in each queue, about 7 MiB
   * each).
   */
  private static ScheduledThreadPoolExecutor ownScheduler(String threadName) {
    ScheduledThreadPoolExecutor scheduler =
        new ScheduledThreadPoolExecutor(
            1,
            runnable -> {
              Thread thread = new Thread(runnable, threadName);
              thread.setDaemon(true);
              return thread;
            });
    scheduler.setRemoveOnCancelPolicy(true);
    return scheduler;
  }

  /** Starts a configuration. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Acquires the lease on {@code resource} for <em>fenced publishing</em> if it is free or expired
   * by the issuer's clock, and starts renewing it in the background. Pass the lease to {@link
   * #register} and {@link #publish}: the destination checks its token (R2, R3).
   *
   * @return the held lease (close it to release), or empty if another lease is still valid
   * @throws dev.fenceline.spi.StoreException if the issuer cannot be reached
   */
  public Optional<HeldLease> tryAcquire(ResourceId resource) {
    return acquire(resource);
  }

  /**
   * Acquires a lease on {@code resource} that only avoids duplicate work (R10): no token, so it
   * cannot be passed to {@link #publish}. Use it when two workers doing the same work after a stall
   * only wastes effort; use {@link #tryAcquire} when a stale worker's write must be rejected.
   *
   * @return the lease (close it to release), or empty if another lease is still valid
   * @throws dev.fenceline.spi.StoreException if the issuer cannot be reached
   */
  public Optional<EfficiencyLease> tryAcquireForEfficiency(ResourceId resource) {
    return acquire(resource).map(EfficiencyLease::new);
  }

  private Optional<HeldLease> acquire(ResourceId resource) {
    requireNonNull(resource, "resource is null");
    if (closed) {
      throw new IllegalStateException(
          "Cannot acquire " + resource + ": this Fenceline is closed (build a new one)");
    }
    long sent = clock.nanoTime();
    Optional<Lease> lease = issuer.tryAcquire(resource, holder, leaseTtl);
    if (lease.isEmpty()) {
      return Optional.empty();
    }
    HeldLease held = new HeldLease(issuer, clock, safetyMargin, lease.get(), sent);
    if (!renewEvery.isZero()) {
      long period = renewEvery.toNanos();
      ScheduledFuture<?> task;
      try {
        task =
            renewals.scheduleWithFixedDelay(
                held::renewQuietly, period, period, TimeUnit.NANOSECONDS);
      } catch (RejectedExecutionException e) {
        held.close(); // a lease nobody renews must not stay held
        throw new IllegalStateException(
            "Cannot renew the lease on "
                + resource
                + ": the renewal scheduler refused the task (was it shut down?); the lease was"
                + " released",
            e);
      }
      held.stopRenewalWith(() -> cancelRenewal(task));
    }
    held.watchDeadlineOn(deadlineWatch);
    held.followIssuer(renewEvery.isZero() ? () -> {} : () -> renewSoon(held));
    held.onLost(
        loss -> {
          metrics.recordLostLease();
          if (loss.reason() == LeaseLoss.Reason.SUPERSEDED) {
            metrics.recordTakeover();
          }
        });
    return Optional.of(held);
  }

  /** One extra background renewal, when the issuer says it would help (contact came back). */
  private void renewSoon(HeldLease held) {
    try {
      renewals.execute(held::renewQuietly);
    } catch (RejectedExecutionException e) {
      // Closed: renewal stops with it (documented on close()).
    }
  }

  private void cancelRenewal(ScheduledFuture<?> task) {
    task.cancel(false);
    // A caller's pool may keep cancelled tasks queued until they are due; drop ours from its queue
    // without changing the pool's policy, which other tasks of the caller may rely on.
    if (!ownsRenewals
        && renewals instanceof ScheduledThreadPoolExecutor pool
        && !pool.getRemoveOnCancelPolicy()
        && task instanceof Runnable queued) {
      pool.remove(queued);
    }
  }

  /** Tasks waiting in this facade's own renewal queue (one per held lease); for tests. */
  int queuedRenewalTasks() {
    if (!ownsRenewals) {
      throw new IllegalStateException("renewals were supplied by the caller: inspect that queue");
    }
    return ((ScheduledThreadPoolExecutor) renewals).getQueue().size();
  }

  /** Tasks waiting in this facade's deadline-watch queue (one per held lease); for tests. */
  int queuedDeadlineWatchTasks() {
    return ((ScheduledThreadPoolExecutor) deadlineWatch).getQueue().size();
  }

  /**
   * Registers the lease's epoch at {@code destination}, cutting off every older owner before this
   * one writes anything. A lease that was closed or is known to be lost is refused before anything
   * is sent (see {@link #publish(HeldLease, Destination, OperationId, Object)}).
   *
   * @return {@link dev.fenceline.spi.Registered}, or {@link dev.fenceline.spi.RejectedStale} if a
   *     newer owner registered first
   * @throws LeaseLostException if the lease was closed or is known to be lost; nothing was sent
   */
  public RegisterOutcome register(HeldLease lease, Destination<?> destination) {
    requireNonNull(lease, "lease is null");
    requireNonNull(destination, "destination is null");
    refuseUnusable(lease, "register", "at", destination);
    RegisterOutcome outcome = destination.register(lease.token());
    if (outcome instanceof RejectedStale) {
      metrics.recordStaleRejection();
    }
    return outcome;
  }

  /**
   * Publishes {@code change} for {@code operation} with the lease's token.
   *
   * <p>First a local check, before any request to the destination: a lease that was closed (the
   * caller said it is done) or that this worker already knows to be lost (superseded, refused,
   * ended at the issuer, or its local deadline passed) is refused with {@link LeaseLostException}.
   * Such a write is at best redundant, and for destinations that fence only at the intent ({@link
   * Guarantee#FENCED_AT_INTENT}) or not at all, this check is the last line. It is not the
   * guarantee: a process can stall right after it, so the destination's own epoch check decides
   * whether the write is accepted, and a stale writer that passed the local check is still rejected
   * there ({@link RejectedStale}).
   *
   * @throws ConfigurationException if the destination's guarantee is weaker than {@link
   *     Guarantee#FENCED_BY_STAGING} and the builder did not allow it: {@link
   *     Guarantee#FENCED_AT_INTENT} needs {@link Builder#allowFencedAtIntent}, {@link
   *     Guarantee#IDEMPOTENT_ONLY} (a stale writer's new operation is not stopped) {@link
   *     Builder#allowIdempotentOnly}, {@link Guarantee#UNGUARDED} {@link Builder#allowUnguarded}
   * @throws LeaseLostException if the lease was closed or is known to be lost (the message names
   *     the resource, the epoch and why); nothing was sent to the destination
   * @throws dev.fenceline.spi.StoreException if the destination failed (see its {@code
   *     outcomeUnknown})
   */
  public <C> WriteOutcome publish(
      HeldLease lease, Destination<C> destination, OperationId operation, C change) {
    requireNonNull(lease, "lease is null");
    requireNonNull(destination, "destination is null");
    refuseUnusable(lease, "publish", "to", destination);
    return publish(lease.token(), destination, operation, change);
  }

  private static void refuseUnusable(
      HeldLease lease, String action, String preposition, Destination<?> destination) {
    Optional<String> why = lease.whyItCannotWrite();
    if (why.isPresent()) {
      FencingToken token = lease.token();
      throw new LeaseLostException(
          token,
          "Cannot "
              + action
              + " "
              + token.resource()
              + " at epoch "
              + token.epoch()
              + " "
              + preposition
              + " "
              + destination.name()
              + ": "
              + why.get()
              + " (nothing was sent to the destination; acquire the lease again for a new epoch)");
    }
  }

  /**
   * Publishes with an explicit token, for workers that received it from elsewhere (for example a
   * parent process). Same rules as {@link #publish(HeldLease, Destination, OperationId, Object)},
   * except the local check: this process knows nothing about the lease behind the token, so only
   * the destination's epoch check applies.
   */
  public <C> WriteOutcome publish(
      FencingToken token, Destination<C> destination, OperationId operation, C change) {
    requireNonNull(token, "token is null");
    requireNonNull(destination, "destination is null");
    requireNonNull(operation, "operation is null");
    Guarantee guarantee = destination.guarantee();
    if (guarantee.compareTo(weakestAllowed) > 0) {
      throw new ConfigurationException(
          "Cannot publish "
              + token.resource()
              + " to "
              + destination.name()
              + " ("
              + destination.getClass().getSimpleName()
              + "): its guarantee is "
              + guarantee
              + ", "
              + risk(guarantee)
              + " (use a fenced destination, or call "
              + allowCall(guarantee)
              + " if you accept that)");
    }
    WriteOutcome outcome = destination.write(token, operation, change);
    if (outcome instanceof RejectedStale) {
      metrics.recordStaleRejection();
    }
    return outcome;
  }

  /**
   * The counters this facade records: leases lost by this worker, how many of them were taken over
   * by a newer epoch, and writes or registrations rejected as stale (bind them to Micrometer with
   * {@link dev.fenceline.core.monitor.FencelineMeterBinder}, feed them to {@link
   * dev.fenceline.core.monitor.LeaseAdvice}).
   */
  public FencingMetrics metrics() {
    return metrics;
  }

  /** The holder name this facade acquires leases as ({@link Builder#holder(String)}). */
  public String holder() {
    return holder;
  }

  private static String risk(Guarantee guarantee) {
    return switch (guarantee) {
      case FENCED_AT_INTENT ->
          "a stale writer whose intent was recorded before a takeover can"
              + " still send its request, and duplicates are stopped only while the called system"
              + " honours idempotency keys";
      case IDEMPOTENT_ONLY ->
          "it deduplicates retries but cannot reject a stale writer's new operation";
      default -> "a stale writer could overwrite newer results";
    };
  }

  private static String allowCall(Guarantee guarantee) {
    return switch (guarantee) {
      case FENCED_AT_INTENT -> "allowFencedAtIntent(true)";
      case IDEMPOTENT_ONLY -> "allowIdempotentOnly(true)";
      default -> "allowUnguarded(true)";
    };
  }

  /**
   * Stops background renewal and loss detection (held leases are not released and their {@link
   * HeldLease#onLost} listeners no longer run; close the leases first).
   */
  @Override
  public void close() {
    closed = true;
    deadlineWatch.shutdownNow();
    if (ownsRenewals) {
      renewals.shutdownNow();
    }
  }

  /** Validating builder for {@link Fenceline}. */
  public static final class Builder {
    private LeaseIssuer issuer;
    private String holder;
    private Duration leaseTtl = Duration.ofSeconds(30);
    private Duration renewEvery;
    private Duration safetyMargin;
    private boolean allowUnguarded;
    private boolean allowIdempotentOnly;
    private boolean allowFencedAtIntent;
    private MonotonicClock clock = MonotonicClock.SYSTEM;
    private FencingMetrics metrics = new FencingMetrics();
    private ScheduledExecutorService renewals;

    private Builder() {}

    /** The issuer of leases. Required. */
    public Builder issuer(LeaseIssuer issuer) {
      this.issuer = requireNonNull(issuer, "issuer is null");
      return this;
    }

    /**
     * This worker's name, unique per worker instance (for example {@code host-1:pid}). Required.
     */
    public Builder holder(String holder) {
      this.holder = FencingToken.validateHolder(holder);
      return this;
    }

    /**
     * Lease length (default 30 s). Choose it from observed pause times: a lease shorter than an
     * ordinary pause makes healthy workers lose their lease (R8).
     */
    public Builder leaseTtl(Duration leaseTtl) {
      requireNonNull(leaseTtl, "leaseTtl is null");
      if (leaseTtl.isNegative() || leaseTtl.isZero()) {
        throw new IllegalArgumentException(
            "Cannot use lease ttl " + leaseTtl + ": it must be positive (for example PT30S)");
      }
      this.leaseTtl = leaseTtl;
      return this;
    }

    /**
     * How much earlier than the issuer's expiry a worker stops believing in its lease (default a
     * tenth of the ttl; {@link Duration#ZERO} for none). The local deadline is the ttl minus this
     * margin, measured on the monotonic clock from when the acquire or renew request was sent: the
     * margin absorbs clock-rate differences between worker and issuer and gives {@link
     * HeldLease#onLost} listeners time to stop work before another worker can acquire. It makes
     * overlap rarer, never impossible (a stall is not bounded); fenced writes stay safe through the
     * destination's epoch check (R9).
     */
    public Builder safetyMargin(Duration safetyMargin) {
      requireNonNull(safetyMargin, "safetyMargin is null");
      if (safetyMargin.isNegative()) {
        throw new IllegalArgumentException(
            "Cannot use safety margin "
                + safetyMargin
                + ": it is negative (use a tenth of the ttl, e.g. PT3S, or ZERO)");
      }
      this.safetyMargin = safetyMargin;
      return this;
    }

    private Duration effectiveSafetyMargin() {
      return safetyMargin != null ? safetyMargin : leaseTtl.dividedBy(10);
    }

    private Duration effectiveRenewEvery() {
      return renewEvery != null ? renewEvery : leaseTtl.minus(effectiveSafetyMargin()).dividedBy(3);
    }

    /**
     * How often held leases are renewed in the background (default a third of the ttl minus the
     * safety margin, so three renewals fit before the local deadline). {@link Duration#ZERO} turns
     * background renewal off; call {@link HeldLease#renewNow()} yourself.
     */
    public Builder renewEvery(Duration renewEvery) {
      requireNonNull(renewEvery, "renewEvery is null");
      if (renewEvery.isNegative()) {
        throw new IllegalArgumentException(
            "Cannot renew every " + renewEvery + ": the period is negative (use PT10S or ZERO)");
      }
      this.renewEvery = renewEvery;
      return this;
    }

    /**
     * Allows publishing to {@link Guarantee#FENCED_AT_INTENT} destinations, such as an external API
     * called through a fenced intent (default false): a writer that is stale when it begins never
     * sends, but one whose intent was recorded before a takeover can still send its request. {@link
     * #allowIdempotentOnly} and {@link #allowUnguarded} imply this.
     */
    public Builder allowFencedAtIntent(boolean allowFencedAtIntent) {
      this.allowFencedAtIntent = allowFencedAtIntent;
      return this;
    }

    /**
     * Allows publishing to {@link Guarantee#IDEMPOTENT_ONLY} destinations, and so to {@link
     * Guarantee#FENCED_AT_INTENT} ones (default false): retries are deduplicated, but a stale
     * writer's new operation is applied. {@link #allowUnguarded} implies this.
     */
    public Builder allowIdempotentOnly(boolean allowIdempotentOnly) {
      this.allowIdempotentOnly = allowIdempotentOnly;
      return this;
    }

    /**
     * Allows publishing to {@link Guarantee#UNGUARDED} destinations, and so to every weaker
     * guarantee (default false).
     */
    public Builder allowUnguarded(boolean allowUnguarded) {
      this.allowUnguarded = allowUnguarded;
      return this;
    }

    /**
     * Where this facade records lost leases, takeovers and stale rejections (default: its own
     * counters; share one {@link FencingMetrics} between facades to count them together).
     */
    public Builder metrics(FencingMetrics metrics) {
      this.metrics = requireNonNull(metrics, "metrics is null");
      return this;
    }

    /** The monotonic clock for local lease deadlines (default {@link MonotonicClock#SYSTEM}). */
    public Builder clock(MonotonicClock clock) {
      this.clock = requireNonNull(clock, "clock is null");
      return this;
    }

    /**
     * The scheduler for renewals (default: an own daemon thread, stopped by {@link
     * Fenceline#close()}). Fenceline schedules one periodic task per held lease on it and cancels
     * the task when the lease is closed or lost; {@link Fenceline#close()} does not shut a supplied
     * scheduler down.
     *
     * <p>A cancelled task must leave the scheduler's queue, or each closed lease leaves one behind
     * until it would have run ({@code renewEvery} later). A {@link ScheduledThreadPoolExecutor} is
     * handled either way: Fenceline removes its own cancelled tasks from the queue and leaves the
     * pool's {@linkplain ScheduledThreadPoolExecutor#setRemoveOnCancelPolicy remove-on-cancel
     * policy} as it is. Any other scheduler must drop cancelled tasks itself. {@link
     * java.util.concurrent.Executors#newSingleThreadScheduledExecutor()} does not and hides its
     * pool: {@link #build()} logs a warning for it; pass {@code new ScheduledThreadPoolExecutor(1)}
     * instead.
     */
    public Builder renewals(ScheduledExecutorService renewals) {
      this.renewals = requireNonNull(renewals, "renewals is null");
      return this;
    }

    /**
     * Builds the facade.
     *
     * @throws ConfigurationException if the issuer or holder is missing, the safety margin is not
     *     shorter than the lease ttl, or renewEvery is not shorter than the ttl minus the margin
     */
    public Fenceline build() {
      if (issuer == null) {
        throw new ConfigurationException(
            "Cannot build Fenceline: no lease issuer (call issuer(...), e.g. a JdbcLeaseIssuer)");
      }
      if (holder == null) {
        throw new ConfigurationException(
            "Cannot build Fenceline: no holder name (call holder(...), e.g. \"host-1:4711\")");
      }
      Duration margin = effectiveSafetyMargin();
      if (margin.compareTo(leaseTtl) >= 0) {
        throw new ConfigurationException(
            "Cannot build Fenceline: safety margin "
                + margin
                + " is not shorter than lease ttl "
                + leaseTtl
                + " (no lease would ever be locally valid; use a tenth of the ttl, e.g. "
                + leaseTtl.dividedBy(10)
                + ")");
      }
      Duration localValidity = leaseTtl.minus(margin);
      if (renewEvery != null && renewEvery.compareTo(localValidity) >= 0) {
        throw new ConfigurationException(
            "Cannot build Fenceline: renewEvery "
                + renewEvery
                + " is not shorter than lease ttl "
                + leaseTtl
                + " minus safety margin "
                + margin
                + " (the lease would be lost locally between renewals; use a third of "
                + localValidity
                + ")");
      }
      Duration period = effectiveRenewEvery();
      if (renewals != null && !period.isZero() && keepsCancelledTasks(renewals)) {
        LOG.log(
            System.Logger.Level.WARNING,
            "The renewal scheduler "
                + renewals.getClass().getName()
                + " keeps each cancelled renewal task queued until it is due: every closed lease"
                + " leaves its task behind for up to "
                + period
                + " (pass a ScheduledThreadPoolExecutor,"
                + " e.g. new ScheduledThreadPoolExecutor(1), or leave renewals(...) unset)");
      }
      return new Fenceline(this);
    }

    /**
     * The JDK's unconfigurable wrappers ({@code Executors.newSingleThreadScheduledExecutor()},
     * {@code Executors.unconfigurableScheduledExecutorService(...)}) hide a pool whose policy
     * cannot be read or worked around; a plain pool is handled by {@link Fenceline#cancelRenewal}.
     */
    private static boolean keepsCancelledTasks(ScheduledExecutorService scheduler) {
      return scheduler.getClass().getName().startsWith("java.util.concurrent.Executors$");
    }
  }
}
