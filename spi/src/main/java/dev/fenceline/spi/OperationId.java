package dev.fenceline.spi;

import static java.util.Objects.requireNonNull;

/**
 * One business operation, such as {@code report-2026-10-27}. It stays the same across retries and
 * across workers, so a destination can tell a resend from a new operation: an epoch alone cannot
 * (R4). Derive it from the business input, never from a random number per attempt.
 *
 * @param value 1 to {@value #MAX_LENGTH} printable characters
 */
public record OperationId(String value) {

  /** Longest accepted operation ID, in characters. */
  public static final int MAX_LENGTH = 200;

  /**
   * Validates the value.
   *
   * @throws IllegalArgumentException if the value is blank, too long or has control characters
   */
  public OperationId {
    requireNonNull(value, "operation ID is null");
    if (value.isBlank() || value.length() > MAX_LENGTH || !Text.isPrintable(value)) {
      throw new IllegalArgumentException(
          "Cannot use operation ID "
              + Text.quoteForMessage(value)
              + ": it must be 1 to "
              + MAX_LENGTH
              + " printable characters (derive it from the business input, e.g."
              + " report-2026-10-27)");
    }
  }

  /** Returns the operation ID for {@code value}. */
  public static OperationId of(String value) {
    return new OperationId(value);
  }

  @Override
  public String toString() {
    return value;
  }
}
