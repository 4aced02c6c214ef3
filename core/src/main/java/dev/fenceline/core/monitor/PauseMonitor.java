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
package dev.fenceline.core.monitor;

import static java.util.Objects.requireNonNull;

import dev.fenceline.core.MonotonicClock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.LockSupport;

/**
 * Measures stalls of this process: a daemon thread asks to wake up every {@code interval} and
 * records, on the monotonic clock, how late each wake-up fires (R9). Garbage-collection pauses, a
 * stopped or frozen process (SIGSTOP, a suspended VM) and CPU starvation all show up as lateness,
 * whatever their cause. Use the result to choose a lease ttl ({@link LeaseAdvice}, R8), never as
 * evidence that a lease is still held.
 *
 * <p>Lateness is kept for a sliding {@code window} (to within a tenth of it) in fixed histograms,
 * so memory does not grow with time. Thread-safe; {@link #snapshot()} may be called from any
 * thread.
 *
 * <pre>{@code
 * try (PauseMonitor monitor = PauseMonitor.builder().build().start()) {
 *   ...
 *   System.out.println(LeaseAdvice.from(monitor.snapshot()));
 * }
 * }</pre>
 */
public final class PauseMonitor implements AutoCloseable {

  private static final System.Logger LOG = System.getLogger(PauseMonitor.class.getName());
  private static final int SLICES = 10;

  private final Duration interval;
  private final Duration window;
  private final Duration threshold;
  private final String threadName;
  private final MonotonicClock clock;
  private final long sliceNanos;
  private final List<PauseListener> listeners = new CopyOnWriteArrayList<>();

  private final Object lock = new Object();
  private final PauseHistogram[] slices = new PauseHistogram[SLICES];
  private final long[] sliceNumbers = new long[SLICES];
  private long originNanos;
  private Thread thread;
  private boolean closed;
  private volatile boolean running;

  PauseMonitor(Builder builder, MonotonicClock clock) {
    this.interval = builder.interval;
    this.window = builder.window;
    this.threshold = builder.threshold;
    this.threadName = builder.threadName;
    this.clock = requireNonNull(clock, "clock is null");
    this.sliceNanos = Math.max(1, window.toNanos() / SLICES);
    for (int i = 0; i < SLICES; i++) {
      slices[i] = new PauseHistogram();
      sliceNumbers[i] = -1;
    }
    this.originNanos = clock.nanoTime();
  }

  /** A builder with defaults: wake up every 50 ms, keep 10 minutes, count pauses of 100 ms. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Starts the monitor thread and returns once it is measuring: a stall after this returns is seen.
   * Starting twice, or after {@link #close()}, fails.
   *
   * @return this monitor
   * @throws IllegalStateException if already started
   */
  public PauseMonitor start() {
    CountDownLatch measuring = new CountDownLatch(1);
    synchronized (lock) {
      if (thread != null || closed) {
        throw new IllegalStateException(
            "Cannot start pause monitor "
                + threadName
                + ": it was already "
                + (closed ? "closed" : "started")
                + " (create a new monitor)");
      }
      originNanos = clock.nanoTime();
      running = true;
      thread = new Thread(() -> measure(measuring), threadName);
      thread.setDaemon(true);
      thread.start();
    }
    try {
      measuring.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return this;
  }

  private void measure(CountDownLatch measuring) {
    long intervalNanos = interval.toNanos();
    long expected = clock.nanoTime() + intervalNanos;
    measuring.countDown();
    while (running) {
      long now = clock.nanoTime();
      while (running && now < expected) {
        LockSupport.parkNanos(this, expected - now); // may return early; loop to the deadline
        now = clock.nanoTime();
      }
      if (!running) {
        return;
      }
      recordWakeUp(expected, now);
      expected = now + intervalNanos;
    }
  }

  /** Records one wake-up that was due at {@code expectedNanos} and fired at {@code firedNanos}. */
  void recordWakeUp(long expectedNanos, long firedNanos) {
    long lateness = Math.max(0, firedNanos - expectedNanos);
    synchronized (lock) {
      current(firedNanos).record(lateness, threshold.toNanos());
    }
    for (PauseListener listener : listeners) {
      try {
        listener.wokeUp(lateness);
      } catch (RuntimeException e) {
        LOG.log(System.Logger.Level.WARNING, "Pause listener " + listener + " failed", e);
      }
    }
  }

  private PauseHistogram current(long nowNanos) {
    long number = Math.max(0, nowNanos - originNanos) / sliceNanos;
    int index = (int) (number % SLICES);
    if (sliceNumbers[index] != number) {
      slices[index].clear();
      sliceNumbers[index] = number;
    }
    return slices[index];
  }

  /** Lateness over the window as of now. Cheap enough to call every few seconds. */
  public PauseSnapshot snapshot() {
    PauseHistogram sum = new PauseHistogram();
    long observedNanos;
    synchronized (lock) {
      long now = clock.nanoTime();
      long number = Math.max(0, now - originNanos) / sliceNanos;
      for (int i = 0; i < SLICES; i++) {
        if (sliceNumbers[i] > number - SLICES && sliceNumbers[i] <= number) {
          slices[i].addTo(sum);
        }
      }
      observedNanos = Math.min(window.toNanos(), Math.max(0, now - originNanos));
    }
    return new PauseSnapshot(
        interval,
        threshold,
        Duration.ofNanos(observedNanos),
        sum.total(),
        sum.aboveThreshold(),
        Duration.ofNanos(sum.quantileNanos(0.50)),
        Duration.ofNanos(sum.quantileNanos(0.90)),
        Duration.ofNanos(sum.quantileNanos(0.99)),
        Duration.ofNanos(sum.quantileNanos(0.999)),
        Duration.ofNanos(sum.maxNanos()));
  }

  /**
   * Calls {@code listener} after every measured wake-up, on the monitor's thread.
   *
   * @return an action that removes the listener again
   */
  public Runnable addListener(PauseListener listener) {
    requireNonNull(listener, "listener is null");
    listeners.add(listener);
    return () -> listeners.remove(listener);
  }

  /** True between {@link #start()} and {@link #close()}. */
  public boolean isRunning() {
    return running;
  }

  /** Stops the monitor thread and waits for it to end. Idempotent. */
  @Override
  public void close() {
    Thread stopping;
    synchronized (lock) {
      closed = true;
      running = false;
      stopping = thread;
    }
    if (stopping != null && stopping != Thread.currentThread()) {
      LockSupport.unpark(stopping);
      try {
        stopping.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  @Override
  public String toString() {
    return "PauseMonitor["
        + threadName
        + ", every "
        + interval
        + ", window "
        + window
        + ", threshold "
        + threshold
        + (running ? ", running" : "")
        + "]";
  }

  /** Settings of a {@link PauseMonitor}; each setter validates its value. */
  public static final class Builder {

    private Duration interval = Duration.ofMillis(50);
    private Duration window = Duration.ofMinutes(10);
    private Duration threshold = Duration.ofMillis(100);
    private String threadName = "fenceline-pause-monitor";

    private Builder() {}

    /**
     * How often to wake up (default 50 ms, at least 1 ms). Shorter sees short pauses more exactly
     * and costs more wake-ups; a pause is seen shorter by up to one interval.
     */
    public Builder interval(Duration interval) {
      requireNonNull(interval, "interval is null");
      if (interval.compareTo(Duration.ofMillis(1)) < 0) {
        throw new IllegalArgumentException(
            "Cannot set pause monitor interval to " + interval + ": it is below 1 ms");
      }
      this.interval = interval;
      return this;
    }

    /**
     * How far back {@link #snapshot()} looks (default 10 minutes, at least 10 intervals). Long
     * enough to include the rare pauses a lease must survive.
     */
    public Builder window(Duration window) {
      requireNonNull(window, "window is null");
      if (window.compareTo(Duration.ofMillis(10)) < 0) {
        throw new IllegalArgumentException(
            "Cannot set pause monitor window to " + window + ": it is below 10 ms");
      }
      this.window = window;
      return this;
    }

    /** The lateness counted as a pause in {@link PauseSnapshot#pausesAboveThreshold()}. */
    public Builder threshold(Duration threshold) {
      requireNonNull(threshold, "threshold is null");
      if (threshold.isNegative()) {
        throw new IllegalArgumentException(
            "Cannot set pause monitor threshold to " + threshold + ": it is negative");
      }
      this.threshold = threshold;
      return this;
    }

    /** The monitor thread's name (default {@code fenceline-pause-monitor}). */
    public Builder threadName(String threadName) {
      requireNonNull(threadName, "threadName is null");
      if (threadName.isBlank()) {
        throw new IllegalArgumentException("Cannot set pause monitor thread name: it is blank");
      }
      this.threadName = threadName;
      return this;
    }

    /**
     * A monitor that is not started yet.
     *
     * @throws IllegalArgumentException if the window is shorter than ten intervals
     */
    public PauseMonitor build() {
      return build(MonotonicClock.SYSTEM);
    }

    PauseMonitor build(MonotonicClock clock) {
      if (window.compareTo(interval.multipliedBy(10)) < 0) {
        throw new IllegalArgumentException(
            "Cannot build pause monitor: window "
                + window
                + " is shorter than 10 intervals of "
                + interval
                + " (lengthen the window or shorten the interval)");
      }
      return new PauseMonitor(this, clock);
    }
  }
}
