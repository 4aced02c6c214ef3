package dev.fenceline.spi;

import static java.util.Objects.requireNonNull;

/**
 * The operation had already been applied; nothing changed. The receipt is the one recorded when it
 * was first applied (its epoch may be older than the epoch of this retry).
 *
 * @param receipt the original receipt
 */
public record AlreadyApplied(Receipt receipt) implements WriteOutcome {

  /**
   * Validates the outcome.
   *
   * @param receipt the receipt of the applied write
   */
  public AlreadyApplied {
    requireNonNull(receipt, "receipt is null");
  }

  @Override
  public ResourceId resource() {
    return receipt.resource();
  }
}
