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

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The checks of one history.
 *
 * @param checks one entry per check, in a fixed order
 * @param counts what the history holds
 * @param firstViolation the first violation of the first failing check, with the lines around it
 */
public record CheckResult(List<Check> checks, Counts counts, Optional<Violation> firstViolation) {

  /** Copies the list. */
  public CheckResult {
    checks = List.copyOf(checks);
    requireNonNull(counts, "counts is null");
    requireNonNull(firstViolation, "firstViolation is null");
  }

  /** {@return true if every check passed (a check that could not decide is not a pass)} */
  public boolean passed() {
    return checks.stream().allMatch(c -> c.status() == Check.Status.PASS);
  }

  /**
   * {@return true if no check failed but some could not decide: the linearizability search's time
   * budget ran out, or the history lacks what a check needs (the destination has no lookup)}
   */
  public boolean gaveUp() {
    return checks.stream().noneMatch(c -> c.status() == Check.Status.FAIL)
        && checks.stream().anyMatch(c -> c.status() == Check.Status.UNKNOWN);
  }

  /**
   * {@return the check named {@code name}}
   *
   * @throws IllegalArgumentException if there is none
   */
  public Check check(String name) {
    return checks.stream()
        .filter(c -> c.name().equals(name))
        .findFirst()
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    "No check named " + name + " (the checks are " + Checker.CHECKS + ")"));
  }

  /** {@return several lines for a terminal: one per check, the counts, the first violation} */
  public String summary() {
    StringBuilder out = new StringBuilder();
    String verdict =
        passed() ? "PASS" : gaveUp() ? "UNKNOWN (not every check could decide)" : "FAIL";
    out.append("checks: ").append(verdict).append('\n');
    for (Check c : checks) {
      out.append(String.format("  %-7s %-28s %s%n", c.status(), c.name(), c.detail()));
    }
    out.append("operations: ").append(counts.totalOperations());
    for (Map.Entry<String, Map<String, Long>> f : counts.operations().entrySet()) {
      out.append("; ").append(f.getKey()).append(' ').append(f.getValue());
    }
    out.append('\n');
    out.append("faults: ").append(counts.faults()).append('\n');
    out.append(
        String.format(
            "takeovers: %d, stale rejections: %d, unknown writes landed/not landed/unresolved:"
                + " %d/%d/%d, linearizability search: %d ms%n",
            counts.takeovers(),
            counts.staleRejections(),
            counts.unknownsLanded(),
            counts.unknownsNotLanded(),
            counts.unknownsUnresolved(),
            counts.linearizabilityMillis()));
    firstViolation.ifPresent(
        v -> {
          out.append("first violation (")
              .append(v.check())
              .append("): ")
              .append(v.message())
              .append('\n');
          v.around()
              .forEach(
                  e ->
                      out.append("  ")
                          .append(dev.fenceline.chaos.history.History.toLine(e))
                          .append('\n'));
        });
    return out.toString();
  }
}
