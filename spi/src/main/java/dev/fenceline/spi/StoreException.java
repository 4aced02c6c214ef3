package dev.fenceline.spi;

/**
 * A store (issuer, destination, blob store) failed. The vendor exception is kept as the cause.
 *
 * <p>If {@link #outcomeUnknown()} is false, the failure happened before the atomic step committed
 * and nothing changed. If it is true, the commit may or may not have happened (for example the
 * connection dropped during commit): call {@link Destination#lookup} or retry with the same
 * operation ID, which is safe.
 */
public class StoreException extends FencelineException {

  private static final long serialVersionUID = 1L;

  /** Whether the failed step may have committed. */
  private final boolean outcomeUnknown;

  /**
   * A failure where nothing changed.
   *
   * @param message the message, in the project's error format
   * @param cause the underlying failure
   */
  public StoreException(String message, Throwable cause) {
    this(message, cause, false);
  }

  /**
   * A failure, saying whether the outcome is unknown.
   *
   * @param message the message, in the project's error format
   * @param cause the underlying failure
   * @param outcomeUnknown whether the failed step may have committed
   */
  public StoreException(String message, Throwable cause, boolean outcomeUnknown) {
    super(message, cause);
    this.outcomeUnknown = outcomeUnknown;
  }

  /** {@return true if the failed step may have committed} */
  public boolean outcomeUnknown() {
    return outcomeUnknown;
  }
}
