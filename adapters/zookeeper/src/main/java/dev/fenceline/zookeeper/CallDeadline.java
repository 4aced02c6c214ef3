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
package dev.fenceline.zookeeper;

import java.time.Duration;
import java.util.function.Supplier;

/**
 * The deadline of the call running on each thread ({@link System#nanoTime()}), or null outside a
 * call: what bounds a {@link ZkStore} call's retries and the reads that decide a lost answer.
 */
final class CallDeadline {
  private final ThreadLocal<Long> end = new ThreadLocal<>();

  Long get() {
    return end.get();
  }

  void set(long nanos) {
    end.set(nanos);
  }

  void clear() {
    end.remove();
  }

  /**
   * Runs {@code body} as one call: it gets a deadline {@code bound} from now unless it runs inside
   * another call (which keeps its own).
   */
  <T> T call(Supplier<T> body, Duration bound) {
    if (get() != null) {
      return body.get();
    }
    set(System.nanoTime() + bound.toNanos());
    try {
      return body.get();
    } finally {
      clear();
    }
  }

  /**
   * True if the current call has time left for one more whole try of {@code oneTry} (always outside
   * a call).
   */
  boolean timeLeftFor(Duration oneTry) {
    Long end = get();
    return end == null || System.nanoTime() + oneTry.toNanos() <= end;
  }
}
