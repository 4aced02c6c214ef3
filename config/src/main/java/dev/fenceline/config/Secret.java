package dev.fenceline.config;

import static java.util.Objects.requireNonNull;

/**
 * A secret configuration value (a password). {@link #toString()} never shows it, so records that
 * hold one can be printed.
 *
 * @param value the secret itself; pass it on only to what needs it
 */
public record Secret(String value) {

  /** Validates the secret. */
  public Secret {
    requireNonNull(value, "value is null");
  }

  /** Always {@code ****}. */
  @Override
  public String toString() {
    return Secrets.MASK;
  }
}
