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
