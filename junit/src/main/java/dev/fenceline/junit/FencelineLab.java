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
package dev.fenceline.junit;

import static java.util.Objects.requireNonNull;

import dev.fenceline.core.Fenceline;
import dev.fenceline.core.HeldLease;
import dev.fenceline.core.MonotonicClock;
import dev.fenceline.spi.Destination;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingStep;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.Lease;
import dev.fenceline.spi.LeaseStatus;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.tck.PausePoints;
import dev.fenceline.tck.memory.InMemoryLeaseIssuer;
import dev.fenceline.tck.memory.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.Consumer;

/**
 * Everything one test needs to show that a job stays safe when its worker stalls: an in-memory
 * issuer whose clock only the test moves, workers ({@link Fenceline}s) on it, fenced in-memory
 * destinations, pause points that freeze a worker between two {@link FencingStep}s, and threads to
 * run the frozen worker on. {@link FencelineExtension} gives each test its own lab and closes it
 * after the test; {@code new FencelineLab()} in a try-with-resources works as well.
 *
 * <h2>Time</h2>
 *
 * <p>Time stands still until the test moves it with {@link #advance} or {@link #expire}. The issuer
 * ({@link dev.fenceline.tck.memory.InMemoryLeaseIssuer}, the TCK's reference issuer) decides expiry
 * by the lab's {@link #clock()}, and every worker measures its local deadline on {@link
 * #monotonicClock()}, which moves with it: advancing 15 s is a 15 s stall for every worker, as a
 * pause of the whole machine would be. A lease therefore ends exactly when the test's clock passes
 * its ttl, whatever the real time the test takes.
 *
 * <h2>Renewal</h2>
 *
 * <p>Workers made by the lab do not renew in the background ({@link Fenceline.Builder#renewEvery}
 * is {@link Duration#ZERO}): a background renewal runs on another thread, so it would keep renewing
 * the lease of a worker the test froze at a pause point and rescue it behind the test's back, and
 * whether it ran before or after an {@link #advance} would depend on real time. A test that models
 * a healthy worker renews explicitly with {@link HeldLease#renewNow()} before advancing past the
 * ttl. A worker notices a lost lease when it next renews, publishes or registers ({@link
 * Fenceline#publish} refuses it locally, before the destination); its {@link HeldLease#onLost}
 * listeners run then, since the background deadline watch of {@link Fenceline} counts real time.
 *
 * <h2>Clean-up</h2>
 *
 * <p>{@link #close()} resumes every pause, interrupts the threads the test started and waits for
 * them to end, and closes every worker. It fails (with an {@link AssertionError}) if a thread could
 * not be stopped, or if one threw and the test never joined it.
 *
 * <p>Thread-safe.
 */
public final class FencelineLab implements AutoCloseable {

  /** Where the lab's clock starts: the night of the README's nightly report. */
  public static final Instant START = Instant.parse("2026-10-27T02:00:00Z");

  /** How long {@link #close()} waits for each thread of the test to end. */
  public static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);

  /** The most epochs {@link #skipToEpoch} hands out to reach the one asked for. */
  static final long MAX_SKIPPED_EPOCHS = 100_000;

  /** How often {@link #expire} moves time to a lease's expiry before giving up. */
  static final int MAX_EXPIRE_ATTEMPTS = 100;

  /** The holder of the leases {@link #skipToEpoch} takes and releases. */
  static final String FORMER_OWNER = "former-owner";

  private final MutableClock clock = new MutableClock(START);
  private final MonotonicClock monotonicClock =
      () -> Duration.between(START, clock.instant()).toNanos();
  private final InMemoryLeaseIssuer issuer =
      new InMemoryLeaseIssuer(new InMemoryLeaseIssuer.Storage(), clock);
  private final PausePoints pausePoints = new PausePoints();
  private final InMemoryDestination.Storage destinationStorage = new InMemoryDestination.Storage();
  private final Duration stopTimeout;
  private final Object lock = new Object();
  // Guarded by lock.
  private final Map<String, Fenceline> workers = new LinkedHashMap<>();
  private final Map<String, InMemoryDestination<?>> destinations = new LinkedHashMap<>();
  private final List<WorkerThread<?>> threads = new ArrayList<>();
  private boolean closed;

  /** A lab whose clock stands at {@link #START}. */
  public FencelineLab() {
    this(STOP_TIMEOUT);
  }

  /** A lab whose {@link #close()} waits up to {@code stopTimeout} for each thread. */
  FencelineLab(Duration stopTimeout) {
    this.stopTimeout = requireNonNull(stopTimeout, "stopTimeout is null");
  }

  /** The issuer every worker of the lab acquires from (the TCK's in-memory reference issuer). */
  public InMemoryLeaseIssuer issuer() {
    return issuer;
  }

  /** The issuer's clock: moves only with {@link #advance} and {@link #expire}. */
  public MutableClock clock() {
    return clock;
  }

  /**
   * The workers' monotonic clock: the nanoseconds {@link #clock()} moved since {@link #START}. Pass
   * it to {@link Fenceline.Builder#clock} when your code builds its own {@link Fenceline} on {@link
   * #issuer()}.
   */
  public MonotonicClock monotonicClock() {
    return monotonicClock;
  }

  /** The pause points every destination of the lab reports its steps to. */
  public PausePoints pausePoints() {
    return pausePoints;
  }

  /**
   * The worker named {@code holder}: made with the defaults ({@link Fenceline}'s lease ttl of 30 s)
   * on its first call, the same one after.
   */
  public Fenceline worker(String holder) {
    synchronized (lock) {
      requireOpen("make worker " + holder);
      Fenceline existing = workers.get(holder);
      if (existing != null) {
        return existing;
      }
      return worker(holder, settings -> {});
    }
  }

  /** A new worker named {@code holder} with a lease of {@code leaseTtl}. */
  public Fenceline worker(String holder, Duration leaseTtl) {
    requireNonNull(leaseTtl, "leaseTtl is null");
    return worker(holder, settings -> settings.leaseTtl(leaseTtl));
  }

  /**
   * A new worker named {@code holder}: a {@link Fenceline} on {@link #issuer()} and {@link
   * #monotonicClock()} without background renewal (see the class comment), changed by {@code
   * settings} (for example {@code settings -> settings.leaseTtl(Duration.ofSeconds(10))}). A {@code
   * renewEvery} set there renews by real time, on another thread, whatever the test froze.
   *
   * @throws IllegalStateException if the lab has a worker of that name already
   * @throws IllegalArgumentException if {@code holder} is not a valid holder name
   */
  public Fenceline worker(String holder, Consumer<Fenceline.Builder> settings) {
    FencingToken.validateHolder(holder);
    requireNonNull(settings, "settings is null");
    synchronized (lock) {
      requireOpen("make worker " + holder);
      if (workers.containsKey(holder)) {
        throw new IllegalStateException(
            "Cannot make worker "
                + holder
                + ": this lab has a worker of that name already (call worker(\""
                + holder
                + "\") to get it, or choose another holder name)");
      }
      Fenceline.Builder builder =
          Fenceline.builder()
              .issuer(issuer)
              .holder(holder)
              .clock(monotonicClock)
              .renewEvery(Duration.ZERO);
      settings.accept(builder);
      Fenceline fenceline = builder.build();
      workers.put(holder, fenceline);
      return fenceline;
    }
  }

  /**
   * Acquires {@code resource} for {@code worker}, for a test that expects it to be free.
   *
   * @throws AssertionError if another lease on it is still valid by the lab's clock (the message
   *     names its holder, epoch and expiry)
   */
  public HeldLease acquire(Fenceline worker, ResourceId resource) {
    requireNonNull(worker, "worker is null");
    requireNonNull(resource, "resource is null");
    Optional<HeldLease> acquired = worker.tryAcquire(resource);
    if (acquired.isPresent()) {
      return acquired.get();
    }
    LeaseStatus status = issuer.status(resource);
    throw new AssertionError(
        "Cannot acquire "
            + resource
            + " for "
            + holderOf(worker)
            + ": "
            + status.holder().orElse("another worker")
            + " holds it at epoch "
            + status.epoch()
            + " until "
            + status.expiresAt().map(Instant::toString).orElse("?")
            + " by the lab's clock, now "
            + clock.instant()
            + " (let it expire first: lab.expire(ResourceId.of(\""
            + resource
            + "\")) or lab.advance(...))");
  }

  private String holderOf(Fenceline worker) {
    synchronized (lock) {
      return workers.entrySet().stream()
          .filter(entry -> entry.getValue() == worker)
          .map(Map.Entry::getKey)
          .findFirst()
          .orElse("a worker the lab did not make");
    }
  }

  /**
   * Makes the next lease on {@code resource} get epoch {@code next}, as if earlier runs had held it
   * (the README's worker A gets token 33): the issuer hands out and takes back the epochs before it
   * to holder {@value #FORMER_OWNER}. No destination hears of them.
   *
   * @throws IllegalStateException if a lease on {@code resource} is held now
   * @throws IllegalArgumentException if epoch {@code next} or a newer one was handed out already
   *     (epochs never go back), or more than {@value #MAX_SKIPPED_EPOCHS} would be skipped
   */
  public void skipToEpoch(ResourceId resource, long next) {
    requireNonNull(resource, "resource is null");
    LeaseStatus status = issuer.status(resource);
    if (status.held()) {
      throw new IllegalStateException(
          "Cannot skip "
              + resource
              + " to epoch "
              + next
              + ": "
              + status.holder().orElse("a worker")
              + " holds it at epoch "
              + status.epoch()
              + " (skip before the first acquire)");
    }
    long current = status.epoch().value();
    if (next <= current) {
      throw new IllegalArgumentException(
          "Cannot skip "
              + resource
              + " to epoch "
              + next
              + ": epoch "
              + current
              + " was handed out already and epochs never go back (ask for "
              + (current + 1)
              + " or more)");
    }
    if (next - 1 - current > MAX_SKIPPED_EPOCHS) {
      throw new IllegalArgumentException(
          "Cannot skip "
              + resource
              + " to epoch "
              + next
              + ": that hands out "
              + (next - 1 - current)
              + " epochs, more than "
              + MAX_SKIPPED_EPOCHS
              + " (ask for a smaller epoch)");
    }
    for (long epoch = current + 1; epoch < next; epoch++) {
      Lease lease =
          issuer
              .tryAcquire(resource, FORMER_OWNER, Duration.ofSeconds(1))
              .orElseThrow(
                  () ->
                      new IllegalStateException(
                          "Cannot skip "
                              + resource
                              + " to epoch "
                              + next
                              + ": another worker acquired it meanwhile (skip before starting"
                              + " workers)"));
      issuer.release(lease);
    }
  }

  /**
   * Arms a pause: the first write of {@code holder} that reaches {@code step} at a destination of
   * the lab (or any destination given {@link #pausePoints()}) waits there until the test resumes
   * it. Wait for it with {@link PausePoints.Pause#awaitReached()}; the write runs on a thread the
   * test started ({@link #start}).
   */
  public PausePoints.Pause pauseAt(FencingStep step, String holder) {
    synchronized (lock) { // armed before close() resumes them all, or refused
      requireOpen("pause " + holder + " at " + step);
      return pausePoints.pauseAt(step, holder);
    }
  }

  /**
   * Arms a crash: the first write of {@code holder} that reaches {@code step} throws {@link
   * PausePoints.SimulatedCrash} there, as if the worker died at that point.
   */
  public void failAt(FencingStep step, String holder) {
    synchronized (lock) {
      requireOpen("fail " + holder + " at " + step);
      pausePoints.failAt(step, holder);
    }
  }

  /**
   * Moves time forward by {@code duration} for the issuer and for every worker: each lease whose
   * expiry it passes has expired at the issuer, and each worker's local deadline moved as in a
   * stall of that length.
   *
   * @return the lab's time now
   * @throws IllegalArgumentException if {@code duration} is negative
   */
  public Instant advance(Duration duration) {
    requireNonNull(duration, "duration is null");
    clock.advance(duration);
    return clock.instant();
  }

  /**
   * Moves time forward exactly to the expiry of the lease held on {@code resource}, so that it has
   * expired at the issuer and another worker can acquire the next epoch. Time moves for every
   * lease, as with {@link #advance}.
   *
   * @return how far time moved
   * @throws IllegalStateException if no lease on {@code resource} is held
   */
  public Duration expire(ResourceId resource) {
    requireNonNull(resource, "resource is null");
    Instant from = clock.instant();
    LeaseStatus status = issuer.status(resource);
    if (!status.held()) {
      throw new IllegalStateException(
          "Cannot expire "
              + resource
              + ": no lease on it is held at "
              + from
              + (status.epoch().equals(Epoch.NONE)
                  ? " (acquire it first)"
                  : " (its lease at epoch "
                      + status.epoch()
                      + " expired or was released already)"));
    }
    // A renewal by a thread of the test can move the expiry; follow it until the lease is gone.
    for (int attempt = 0; status.held(); attempt++) {
      if (attempt == MAX_EXPIRE_ATTEMPTS) {
        throw new IllegalStateException(
            "Cannot expire "
                + resource
                + ": its lease at epoch "
                + status.epoch()
                + " was still held after time moved to its expiry "
                + attempt
                + " times, now "
                + clock.instant()
                + " (a thread keeps renewing it: stop it, or renew from the test)");
      }
      Instant expiry = status.expiresAt().orElseThrow();
      clock.advance(Duration.between(clock.instant(), expiry));
      status = issuer.status(resource);
    }
    return Duration.between(from, clock.instant());
  }

  /**
   * A fenced in-memory destination named {@code name}: made on the first call, the same one after.
   * It reports its steps to {@link #pausePoints()} and records receipts at the lab's time.
   */
  @SuppressWarnings("unchecked") // one name, one destination: the caller names its change type
  public <C> InMemoryDestination<C> destination(String name) {
    Destination.validateName(name);
    synchronized (lock) {
      requireOpen("make destination " + name);
      return (InMemoryDestination<C>)
          destinations.computeIfAbsent(
              name,
              key -> new InMemoryDestination<>(destinationStorage, key, pausePoints, clock, null));
    }
  }

  /**
   * Your own destination with a journal of its writes, for {@link FencelineAssertions}. To pause
   * inside it, give it {@link #pausePoints()} as its step listener when you create it.
   */
  public <C> RecordingDestination<C> record(Destination<C> destination) {
    return new RecordingDestination<>(destination);
  }

  /**
   * Runs {@code work} on a new thread named {@code fenceline-test-<name>}: the worker the test
   * freezes at a pause point while it plays another worker on its own thread.
   */
  public <T> WorkerThread<T> start(String name, Callable<T> work) {
    WorkerThread<T> thread = new WorkerThread<>(name, work);
    synchronized (lock) { // started before close() stops them all, or refused
      requireOpen("start " + name);
      threads.add(thread);
      thread.start();
    }
    return thread;
  }

  private void requireOpen(String action) {
    if (closed) {
      throw new IllegalStateException(
          "Cannot " + action + ": the lab was closed after its test (use the lab of this test)");
    }
  }

  /**
   * Resumes every pause, stops the threads the test started (interrupting those still running) and
   * closes every worker. Idempotent.
   *
   * @throws AssertionError if a thread threw and the test never joined it, or if a thread did not
   *     end within {@link #STOP_TIMEOUT}; everything else was still cleaned up
   */
  @Override
  public void close() {
    List<WorkerThread<?>> started;
    List<Fenceline> made;
    synchronized (lock) {
      if (closed) {
        return;
      }
      closed = true;
      started = List.copyOf(threads);
      made = List.copyOf(workers.values());
    }
    List<String> problems = new ArrayList<>();
    // Before resuming: failures the clean-up causes itself are not the test's.
    for (WorkerThread<?> thread : started) {
      thread
          .unobservedFailure()
          .ifPresent(
              failure ->
                  problems.add(
                      thread.name()
                          + " threw "
                          + failure
                          + " and the test never joined it (call join() or joinFailure())"));
    }
    pausePoints.resumeAll();
    for (WorkerThread<?> thread : started) {
      thread.stop(stopTimeout).ifPresent(problems::add);
    }
    made.forEach(Fenceline::close);
    if (!problems.isEmpty()) {
      throw new AssertionError("Cannot clean up after the test: " + String.join("; ", problems));
    }
  }
}
