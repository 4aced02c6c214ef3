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
package dev.fenceline.chaos.check;

import static java.util.Objects.requireNonNull;

/**
 * The result of one check of a history.
 *
 * @param name the check, e.g. {@code linearizable}
 * @param status whether it passed
 * @param detail one line: what was checked, or the first violation
 */
public record Check(String name, Status status, String detail) {

  /** How a check ended. */
  public enum Status {
    /** The history satisfies the check. */
    PASS,
    /** The history violates the check; the detail names the first violation. */
    FAIL,
    /**
     * The check could not decide: its time budget ran out, or the history lacks what it needs (e.g.
     * the destination has no lookup); never a pass.
     */
    UNKNOWN
  }

  /** Checks the fields. */
  public Check {
    requireNonNull(name, "name is null");
    requireNonNull(status, "status is null");
    requireNonNull(detail, "detail is null");
  }
}
