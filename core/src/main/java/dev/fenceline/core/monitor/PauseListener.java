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
