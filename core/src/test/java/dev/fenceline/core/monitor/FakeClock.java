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

import dev.fenceline.core.MonotonicClock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/** A monotonic clock the test moves by hand. */
final class FakeClock implements MonotonicClock {

  private final AtomicLong nanos = new AtomicLong(1_000_000_000L);

  @Override
  public long nanoTime() {
    return nanos.get();
  }

  long advance(Duration duration) {
    return nanos.addAndGet(duration.toNanos());
  }
}
