package dev.fenceline.spi;

/**
 * An operation needs a capability the destination does not have: {@link Destination#lookup} without
 * {@link Capability#RESULT_LOOKUP}, a {@link SupportsEpochReset reset} the underlying store cannot
 * do, or {@link TokenKeys} given to a destination that cannot check signatures. Nothing changed.
 */
public class UnsupportedCapabilityException extends FencelineException {

  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message the message, in the project's error format
   */
  public UnsupportedCapabilityException(String message) {
    super(message);
  }
}
