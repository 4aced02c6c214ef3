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
package dev.fenceline.tck;

import static java.util.Objects.requireNonNull;

import dev.fenceline.spi.FencingStep;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.StepListener;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A {@link StepListener} that stops a writer at a {@link FencingStep} until the test resumes it,
 * makes a writer fail there, and logs every step reached, in order. Pauses use latches, never
 * sleeps; every wait is bounded so a broken implementation fails the test instead of hanging it.
 *
 * <p>A pause or failure matches a step and a holder name (the {@link FencingToken#holder()}), and
 * fires once: the first matching writer is affected, later ones pass.
 */
public final class PausePoints implements StepListener {

  /** How long a paused writer or a waiting test waits before giving up. */
  public static final Duration TIMEOUT = Duration.ofSeconds(30);

  private final List<Pause> pauses = new CopyOnWriteArrayList<>();
  private final List<Failure> failures = new CopyOnWriteArrayList<>();
  private final List<String> log = new CopyOnWriteArrayList<>();

  /** Arms a pause: the first writer of {@code holder} that reaches {@code step} waits there. */
  public Pause pauseAt(FencingStep step, String holder) {
    Pause pause = new Pause(requireNonNull(step, "step is null"), requireNonNull(holder, "holder"));
    pauses.add(pause);
    return pause;
  }

  /**
   * Arms a failure: the first writer of {@code holder} that reaches {@code step} throws {@link
   * SimulatedCrash} there, as if the worker died at that point.
   */
  public void failAt(FencingStep step, String holder) {
    failures.add(new Failure(requireNonNull(step, "step"), requireNonNull(holder, "holder")));
  }

  /**
   * Lets every paused writer continue and disarms every pause not reached yet: a writer that
   * reaches one of them later passes without stopping. For the clean-up after a test, so that no
   * writer stays paused until the {@link #TIMEOUT}; pauses armed afterwards work as usual.
   */
  public void resumeAll() {
    pauses.forEach(Pause::resume);
  }

  /** Every step reached so far, as {@code holder:STEP:operation}, in order. */
  public List<String> log() {
    return new ArrayList<>(log);
  }

  /** Records an event of the test itself in the same log, to check orderings. */
  public void note(String event) {
    log.add(event);
  }

  @Override
  public void reached(FencingStep step, FencingToken token, OperationId operation) {
    log.add(token.holder() + ":" + step + ":" + operation);
    for (Failure failure : failures) {
      if (failure.matches(step, token) && failure.fired.compareAndSet(false, true)) {
        throw new SimulatedCrash(token.holder() + " crashed at " + step);
      }
    }
    for (Pause pause : pauses) {
      if (pause.matches(step, token) && pause.fired.compareAndSet(false, true)) {
        pause.hold();
      }
    }
  }

  /** Thrown by a writer at an armed failure point. */
  public static final class SimulatedCrash extends RuntimeException {
    private static final long serialVersionUID = 1L;

    SimulatedCrash(String message) {
      super(message);
    }
  }

  private record Failure(FencingStep step, String holder, AtomicBoolean fired) {
    Failure(FencingStep step, String holder) {
      this(step, holder, new AtomicBoolean());
    }

    boolean matches(FencingStep reached, FencingToken token) {
      return step == reached && holder.equals(token.holder());
    }
  }

  /** One armed pause. */
  public static final class Pause {
    private final FencingStep step;
    private final String holder;
    private final AtomicBoolean fired = new AtomicBoolean();
    private final CountDownLatch reached = new CountDownLatch(1);
    private final CountDownLatch resumed = new CountDownLatch(1);

    private Pause(FencingStep step, String holder) {
      this.step = step;
      this.holder = holder;
    }

    private boolean matches(FencingStep reachedStep, FencingToken token) {
      return step == reachedStep && holder.equals(token.holder());
    }

    private void hold() {
      reached.countDown();
      try {
        if (!resumed.await(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
          throw new IllegalStateException(
              holder + " was paused at " + step + " and never resumed within " + TIMEOUT);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        if (resumed.getCount() == 0) {
          return; // resumed before the interrupt came: the writer goes on, interrupt flag set
        }
        throw new IllegalStateException(holder + " was interrupted while paused at " + step, e);
      }
    }

    /** Waits until the writer is paused here; fails the test after {@link #TIMEOUT}. */
    public void awaitReached() {
      try {
        if (!reached.await(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
          throw new AssertionError(holder + " never reached " + step + " within " + TIMEOUT);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError("interrupted while waiting for " + holder + " at " + step, e);
      }
    }

    /** True once the writer is paused here (or was, and was resumed). */
    public boolean isReached() {
      return reached.getCount() == 0;
    }

    /** Lets the paused writer continue. */
    public void resume() {
      resumed.countDown();
    }
  }
}
