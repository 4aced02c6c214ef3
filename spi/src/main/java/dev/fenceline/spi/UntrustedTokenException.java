package dev.fenceline.spi;

/**
 * A destination refused a token before looking at its epoch: it comes from another issuer than the
 * one the resource was first registered with, it is unsigned where signatures are required, or its
 * signature does not verify. Nothing changed. Retrying with the same token fails the same way.
 */
public class UntrustedTokenException extends FencelineException {

  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception with the reason in the message.
   *
   * @param message the message, in the project's error format
   */
  public UntrustedTokenException(String message) {
    super(message);
  }

  /**
   * {@return the exception for a token of {@code token.issuer()} at a resource registered with
   * {@code registeredIssuer}, in the project's message format}
   *
   * @param token the fencing token
   * @param registeredIssuer the issuer registered for the resource
   * @param action what was attempted, for the message (such as {@code write})
   */
  public static UntrustedTokenException foreignIssuer(
      FencingToken token, String registeredIssuer, String action) {
    return new UntrustedTokenException(
        "Cannot "
            + action
            + " with token "
            + token
            + ": it was issued by "
            + token.issuer()
            + ", but "
            + token.resource()
            + " is registered with issuer "
            + registeredIssuer
            + " and epochs of different issuers cannot be compared (take the token from that"
            + " issuer; to move the resource to another issuer, reset its registered epoch)");
  }
}
