/**
 * Watching for stalls and choosing lease lengths from them (R8, R9).
 *
 * <p>{@link dev.fenceline.core.monitor.PauseMonitor} measures how late a scheduled wake-up fires on
 * the monotonic clock: a garbage-collection pause, a frozen or stopped process, or CPU starvation
 * all show up as lateness. {@link dev.fenceline.core.monitor.FencingMetrics} counts takeovers, lost
 * leases and stale rejections. {@link dev.fenceline.core.monitor.LeaseAdvice} turns both into a
 * recommended lease ttl and renew interval with its reasoning. {@link
 * dev.fenceline.core.monitor.FencelineMeterBinder} publishes them as Micrometer meters; it is the
 * only class here that needs Micrometer, an optional dependency.
 *
 * <p>None of this makes a lease safe: a process can stall longer than any ttl. The destination's
 * epoch check is what keeps a stalled worker's late writes out.
 */
package dev.fenceline.core.monitor;
