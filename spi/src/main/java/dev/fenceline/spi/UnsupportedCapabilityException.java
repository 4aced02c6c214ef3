package dev.fenceline.spi;

/** An operation needs a {@link Capability} the destination does not have. */
public class UnsupportedCapabilityException extends FencelineException {

  private static final long serialVersionUID = 1L;

  /** Creates the exception. */
  public UnsupportedCapabilityException(String message) {
    super(message);
  }
}
