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
