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
