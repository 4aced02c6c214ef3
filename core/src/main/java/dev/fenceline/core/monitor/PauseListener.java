package dev.fenceline.core.monitor;

/**
 * Told about every wake-up a {@link PauseMonitor} measures, on the monitor's thread. Keep it fast
 * and non-blocking: while it runs the monitor does not measure. An exception it throws is logged
 * and does not stop the monitor.
 */
@FunctionalInterface
public interface PauseListener {

  /**
   * One wake-up was measured.
   *
   * @param latenessNanos how late it fired, in nanoseconds on the monotonic clock (never negative)
   */
  void wokeUp(long latenessNanos);
}
