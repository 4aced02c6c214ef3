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
