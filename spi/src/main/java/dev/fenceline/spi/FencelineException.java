package dev.fenceline.spi;

/**
 * The root of Fenceline's exceptions. Exceptions are for failures; outcomes a caller must handle
 * (applied, already applied, rejected as stale) are {@link WriteOutcome}s.
 */
public class FencelineException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message the message, in the project's error format
   */
  public FencelineException(String message) {
    super(message);
  }

  /**
   * Creates the exception, keeping the cause.
   *
   * @param message the message, in the project's error format
   * @param cause the underlying failure
   */
  public FencelineException(String message, Throwable cause) {
    super(message, cause);
  }
}
