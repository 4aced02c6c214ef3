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
package dev.fenceline.tck.memory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

/** A wall clock for the in-memory issuer that only moves when a test advances it. */
public final class MutableClock extends Clock {

  private final AtomicReference<Instant> now;

  /** A clock standing at {@code start}. */
  public MutableClock(Instant start) {
    this.now = new AtomicReference<>(start);
  }

  /** Moves the clock forward by {@code duration}. */
  public void advance(Duration duration) {
    if (duration.isNegative()) {
      throw new IllegalArgumentException("Cannot move the clock back by " + duration);
    }
    now.updateAndGet(instant -> instant.plus(duration));
  }

  @Override
  public Instant instant() {
    return now.get();
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    throw new UnsupportedOperationException("MutableClock is always UTC");
  }
}
