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
package dev.fenceline.cli;

/**
 * What a demo worker reported about its publish, parsed from its {@code OUTCOME} line.
 *
 * @param outcome {@code Applied}, {@code AlreadyApplied} or {@code RejectedStale}
 * @param supplied the epoch the worker's token carried
 * @param current the epoch the destination had registered after the step
 */
record PublishReport(String outcome, long supplied, long current) {

  static final String APPLIED = "Applied";
  static final String ALREADY_APPLIED = "AlreadyApplied";
  static final String REJECTED_STALE = "RejectedStale";

  /**
   * Reads an {@code OUTCOME} line.
   *
   * @throws IllegalArgumentException if the line is not a complete {@code OUTCOME} line
   */
  static PublishReport of(WorkerLine line) {
    String outcome =
        line.word()
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "Cannot read worker line \"" + line + "\": the outcome word is missing"));
    return new PublishReport(outcome, line.number("supplied"), line.number("current"));
  }

  /** True if the destination rejected the write because a newer epoch was registered. */
  boolean rejectedStale() {
    return outcome.equals(REJECTED_STALE);
  }

  /** True if the destination applied the write. */
  boolean applied() {
    return outcome.equals(APPLIED);
  }
}
