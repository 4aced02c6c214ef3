package dev.fenceline.spi;

import static java.util.Objects.requireNonNull;

/**
 * A lease could not be renewed (it expired, was released, or a newer epoch was issued), or a write
 * under it was refused before anything was sent because the holder already knew it was closed or
 * lost (the core module's {@code Fenceline.publish} and {@code register}).
 */
public class LeaseLostException extends FencelineException {

  private static final long serialVersionUID = 1L;

  private final transient FencingToken token;

  /**
   * Creates the exception for {@code token} with the reason in the message.
   *
   * @param token the fencing token
   * @param message the message, in the project's error format
   */
  public LeaseLostException(FencingToken token, String message) {
    super(message);
    this.token = requireNonNull(token, "token is null");
  }

  /** {@return the token of the lost lease} */
  public FencingToken token() {
    return token;
  }
}
