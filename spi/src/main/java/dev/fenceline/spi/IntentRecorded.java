package dev.fenceline.spi;

import static java.util.Objects.requireNonNull;

/**
 * The epoch was current (or newer, and is now registered) when the attempt began. What to do next
 * depends on the intent: {@linkplain Intent#completed() completed} → answer from its receipt and
 * send nothing; {@linkplain Intent#mayHaveBeenSent() may have been sent} → look the result up
 * first; otherwise this is the first attempt and it may send.
 *
 * @param intent the intent as it is now recorded
 */
public record IntentRecorded(Intent intent) implements IntentOutcome {

  /**
   * Validates the outcome.
   *
   * @param intent the recorded intent
   */
  public IntentRecorded {
    requireNonNull(intent, "intent is null");
  }

  @Override
  public ResourceId resource() {
    return intent.resource();
  }
}
