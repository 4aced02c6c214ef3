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
