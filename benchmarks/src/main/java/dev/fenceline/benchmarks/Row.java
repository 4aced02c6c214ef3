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
package dev.fenceline.benchmarks;

import java.util.Optional;

/**
 * One row of a table: an operation that each worker thread runs in a loop, and the row it is
 * compared with.
 *
 * @param name shown in the table
 * @param peer the name of the row this one is compared with, if any
 * @param operations opens one worker thread's operation (its own resource or lock name)
 */
record Row(String name, Optional<String> peer, Operations operations) {

  /** Opens the operation of worker thread {@code thread} (0-based) in a group. */
  @FunctionalInterface
  interface Operations {
    Operation open(int thread) throws Exception;
  }

  /**
   * What one worker thread repeats. Set-up (an acquired lease, a registered epoch) happens when it
   * is opened, outside the measurement; {@link #close} undoes it.
   */
  interface Operation extends AutoCloseable {

    /** One measured operation; throws if it did not do what it should (counted as an error). */
    void run() throws Exception;

    @Override
    default void close() throws Exception {}
  }
}
