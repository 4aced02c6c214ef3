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

import dev.fenceline.chaos.history.Event;
import java.util.List;

/**
 * The first violation a check found.
 *
 * @param check the check's name
 * @param resource the resource whose history violates it
 * @param message what is wrong, naming the operation(s)
 * @param around the lines of that resource around the violating operation (up to five before and
 *     after), as in the history
 */
public record Violation(String check, String resource, String message, List<Event> around) {

  /** Copies the lines. */
  public Violation {
    requireNonNull(check, "check is null");
    requireNonNull(message, "message is null");
    around = List.copyOf(around);
  }
}
