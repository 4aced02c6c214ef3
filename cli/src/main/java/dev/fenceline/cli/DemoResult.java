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

import static java.util.Objects.requireNonNull;

import dev.fenceline.spi.PointerState;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a demo run established. Fields are empty or zero where the run failed before it got there.
 *
 * @param epochA the epoch worker A acquired (0 if unknown)
 * @param epochB the epoch worker B acquired (0 if unknown)
 * @param workerA what the destination answered worker A's late publish
 * @param workerB what the destination answered worker B's publish
 * @param published the publish pointer after both workers finished
 * @param timeline the steps of the timeline table, as far as the run got
 * @param problems why the run failed; empty if it showed what it should
 */
record DemoResult(
    long epochA,
    long epochB,
    Optional<PublishReport> workerA,
    Optional<PublishReport> workerB,
    Optional<PointerState> published,
    List<Step> timeline,
    List<String> problems) {

  /**
   * A row of the timeline table.
   *
   * @param step 1 to 4, as in the README's table
   * @param worker {@code A} or {@code B}
   * @param epoch the epoch the worker held or supplied at that step
   * @param destination what the destination did
   */
  record Step(int step, String worker, long epoch, String destination) {

    /** Validates the step. */
    Step {
      requireNonNull(worker, "worker is null");
      requireNonNull(destination, "destination is null");
    }
  }

  /** Validates the result and copies the lists. */
  DemoResult {
    requireNonNull(workerA, "workerA is null");
    requireNonNull(workerB, "workerB is null");
    requireNonNull(published, "published is null");
    timeline = List.copyOf(timeline);
    problems = List.copyOf(problems);
  }

  /** True if the destination fenced off worker A and kept worker B's report. */
  boolean succeeded() {
    return problems.isEmpty();
  }

  /** The exit status of {@code fenceline demo}. */
  int exitCode() {
    return exit().code();
  }

  /** The exit status of {@code fenceline demo}, named. */
  ExitCode exit() {
    return succeeded() ? ExitCode.OK : ExitCode.FAILURE;
  }

  /**
   * The facts of {@code fenceline demo --json}, in the shape of the other commands' documents
   * ({@code command}, {@code exit-code}, {@code exit} first).
   */
  Map<String, Object> document(String database) {
    Map<String, Object> document = new LinkedHashMap<>();
    document.put("command", "demo");
    document.put("exit-code", exitCode());
    document.put("exit", exit().name());
    document.put("database", database);
    document.put("epoch-a", epochA);
    document.put("epoch-b", epochB);
    document.put("worker-a", workerA.map(DemoResult::outcome).orElse(null));
    document.put("worker-b", workerB.map(DemoResult::outcome).orElse(null));
    document.put(
        "published",
        published
            .map(
                state -> {
                  Map<String, Object> pointer = new LinkedHashMap<>();
                  pointer.put("target", state.pointer().target());
                  pointer.put("epoch", state.epoch().value());
                  pointer.put("operation", state.operation().value());
                  pointer.put("version", state.version());
                  return pointer;
                })
            .orElse(null));
    document.put(
        "timeline",
        timeline.stream()
            .map(
                step -> {
                  Map<String, Object> row = new LinkedHashMap<>();
                  row.put("step", step.step());
                  row.put("worker", step.worker());
                  row.put("epoch", step.epoch());
                  row.put("destination", step.destination());
                  return row;
                })
            .toList());
    document.put("problems", problems);
    return document;
  }

  private static Map<String, Object> outcome(PublishReport report) {
    Map<String, Object> outcome = new LinkedHashMap<>();
    outcome.put("outcome", report.outcome());
    outcome.put("supplied-epoch", report.supplied());
    outcome.put("current-epoch", report.current());
    return outcome;
  }
}
