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

import dev.fenceline.tck.PausePoints;
import java.time.Duration;
import java.util.Arrays;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;

/**
 * Work a test runs on its own thread, started by {@link FencelineLab#start}: a worker the test can
 * freeze at a pause point while the test thread plays the other worker. {@link #join()} returns
 * what the work returned; every wait is bounded, and a worker that does not finish fails the test
 * with where it is stuck. The lab ends the thread after the test ({@link FencelineLab#close()}).
 *
 * @param <T> what the work returns
 */
public final class WorkerThread<T> {

  private static final int FRAMES_SHOWN = 12;

  private final String name;
  private final FutureTask<T> task;
  private final Thread thread;
  private volatile boolean observed;

  WorkerThread(String name, Callable<T> work) {
    this.name = requireNonNull(name, "name is null");
    this.task = new FutureTask<>(requireNonNull(work, "work is null"));
    this.thread = new Thread(task, "fenceline-test-" + name);
    thread.setDaemon(true); // a worker the clean-up could not stop must not keep the JVM alive
  }

  void start() {
    thread.start();
  }

  /** The name the test gave the worker. */
  public String name() {
    return name;
  }

  /** True until the work has returned or thrown. */
  public boolean isRunning() {
    return !task.isDone();
  }

  /**
   * Waits for the work to finish, at most {@link PausePoints#TIMEOUT}, and returns what it
   * returned.
   *
   * @throws AssertionError if the work threw (the cause), or did not finish in time (the message
   *     says where the thread is, and whether it is held at a pause point)
   */
  public T join() {
    return join(PausePoints.TIMEOUT);
  }

  /** {@link #join()} with another bound. */
  public T join(Duration timeout) {
    try {
      T value = await(timeout);
      observed = true;
      return value;
    } catch (ExecutionException e) {
      observed = true;
      throw new AssertionError(
          "Expected " + name + " to return, but it threw " + e.getCause(), e.getCause());
    }
  }

  /**
   * Waits for the work to finish, at most {@link PausePoints#TIMEOUT}, and returns what it threw:
   * for a worker that is expected to fail.
   *
   * @throws AssertionError if the work returned instead, or did not finish in time
   */
  public Throwable joinFailure() {
    return joinFailure(PausePoints.TIMEOUT);
  }

  /** {@link #joinFailure()} with another bound. */
  public Throwable joinFailure(Duration timeout) {
    T value;
    try {
      value = await(timeout);
    } catch (ExecutionException e) {
      observed = true;
      return e.getCause();
    }
    observed = true;
    throw new AssertionError("Expected " + name + " to fail, but it returned " + value);
  }

  private T await(Duration timeout) throws ExecutionException {
    requireNonNull(timeout, "timeout is null");
    try {
      return task.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      throw new AssertionError(
          "Expected " + name + " to finish within " + timeout + ", but " + whereItIs());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("Interrupted while waiting for " + name, e);
    }
  }

  /** What the work threw, if it finished that way and the test never joined it. */
  Optional<Throwable> unobservedFailure() {
    if (observed || !task.isDone()) {
      return Optional.empty();
    }
    try {
      task.get();
      return Optional.empty();
    } catch (ExecutionException e) {
      return Optional.of(e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    }
  }

  /**
   * Interrupts the thread if it still runs and waits up to {@code timeout} for it to end.
   *
   * @return why it could not be stopped, or empty if it ended
   */
  Optional<String> stop(Duration timeout) {
    if (!thread.isAlive()) {
      return Optional.empty();
    }
    thread.interrupt();
    try {
      thread.join(Math.max(1, timeout.toMillis()));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (!thread.isAlive()) {
      return Optional.empty();
    }
    return Optional.of(
        name
            + " did not stop within "
            + timeout
            + " after its pauses were resumed and it was interrupted: "
            + whereItIs());
  }

  /** E.g. {@code it is WAITING, held at a pause point (resume it), at: ...}. */
  private String whereItIs() {
    StackTraceElement[] frames = thread.getStackTrace();
    boolean paused =
        Arrays.stream(frames)
            .anyMatch(
                frame ->
                    frame.getClassName().equals(PausePoints.Pause.class.getName())
                        && frame.getMethodName().equals("hold"));
    return "it is "
        + thread.getState()
        + (paused ? ", held at a pause point (call resume() on the Pause it reached)" : "")
        + ", at:"
        + Arrays.stream(frames)
            .limit(FRAMES_SHOWN)
            .map(frame -> "\n\tat " + frame)
            .collect(Collectors.joining());
  }

  @Override
  public String toString() {
    return "WorkerThread[" + name + (isRunning() ? ", running" : ", finished") + "]";
  }
}
