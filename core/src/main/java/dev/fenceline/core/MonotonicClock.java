package dev.fenceline.core;

/**
 * Elapsed time for one JVM (R9). The system implementation is {@link System#nanoTime()}: it never
 * jumps with wall-clock changes, and its values mean nothing outside this JVM. It does not stop a
 * stalled process, so a worker's belief in its lease is only an optimization: the destination's
 * epoch check decides.
 */
@FunctionalInterface
public interface MonotonicClock {

  /** The system's monotonic clock. */
  MonotonicClock SYSTEM = System::nanoTime;

  /** Nanoseconds since an arbitrary origin fixed for this JVM. */
  long nanoTime();
}
