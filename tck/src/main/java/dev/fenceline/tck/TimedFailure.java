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
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;

/**
 * What a call that must end within a bound threw, and how long it took: for the tests that prove a
 * store's timeouts end a call to a server that stopped answering (frozen with SIGSTOP, a {@link
 * SilentServer}, a {@link TcpProxy} that drops the traffic, a writer that never lets go of a lock).
 *
 * @param thrown what the call threw, or null if it returned
 * @param took from just before the call to just after it ended
 * @param <T> the type the call must throw
 */
public record TimedFailure<T extends Throwable>(T thrown, Duration took) {

  /** Checks the time taken; {@code thrown} is checked by the test. */
  public TimedFailure {
    requireNonNull(took, "took is null");
  }

  /**
   * Runs {@code call} on another thread and catches what it throws. Fails the test if the call does
   * not end within {@code bound} (the thread is abandoned, not waited for) or if it throws
   * something other than a {@code type}.
   */
  public static <T extends Throwable> TimedFailure<T> within(
      Duration bound, Class<T> type, ThrowingCallable call) {
    requireNonNull(bound, "bound is null");
    requireNonNull(type, "type is null");
    requireNonNull(call, "call is null");
    long start = System.nanoTime();
    T thrown = assertTimeoutPreemptively(bound, () -> catchThrowableOfType(type, call));
    return new TimedFailure<>(thrown, Duration.ofNanos(System.nanoTime() - start));
  }
}
