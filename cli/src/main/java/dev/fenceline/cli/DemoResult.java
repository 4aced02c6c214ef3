package dev.fenceline.cli;

import static java.util.Objects.requireNonNull;

import dev.fenceline.spi.PointerState;
import java.util.List;
import java.util.Optional;

/**
 * What a demo run established. Fields are empty or zero where the run failed before it got there.
 *
 * @param epochA the epoch worker A acquired (0 if unknown)
 * @param epochB the epoch worker B acquired (0 if unknown)
 * @param workerA what the destination answered worker A's late publish
 * @param workerB what the destination answered worker B's publish
 * @param published the publish pointer after both workers finished
 * @param problems why the run failed; empty if it showed what it should
 */
record DemoResult(
    long epochA,
    long epochB,
    Optional<PublishReport> workerA,
    Optional<PublishReport> workerB,
    Optional<PointerState> published,
    List<String> problems) {

  /** Validates the result and copies the problems. */
  DemoResult {
    requireNonNull(workerA, "workerA is null");
    requireNonNull(workerB, "workerB is null");
    requireNonNull(published, "published is null");
    problems = List.copyOf(problems);
  }

  /** True if the destination fenced off worker A and kept worker B's report. */
  boolean succeeded() {
    return problems.isEmpty();
  }

  /** The exit status of {@code fenceline demo}. */
  int exitCode() {
    return succeeded() ? Main.EXIT_OK : Main.EXIT_FAILED;
  }
}
