package dev.fenceline.spi;

import static java.util.Objects.requireNonNull;

/**
 * The change was applied and recorded together with its receipt.
 *
 * @param receipt the receipt that was recorded
 */
public record Applied(Receipt receipt) implements WriteOutcome {

  /**
   * Validates the outcome.
   *
   * @param receipt the receipt of the applied write
   */
  public Applied {
    requireNonNull(receipt, "receipt is null");
  }

  @Override
  public ResourceId resource() {
    return receipt.resource();
  }
}
