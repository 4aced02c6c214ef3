package dev.fenceline.spi;

/**
 * An operation ID was reused for a different request: the destination recorded the operation with
 * one request fingerprint and is now asked to apply it with another. Nothing changed. The same rule
 * as an HTTP idempotency key reused with another payload: an operation ID names exactly one
 * request, so the caller has a bug (or two business operations share an ID) and must not be told
 * {@link AlreadyApplied} with the other request's receipt.
 */
public class OperationConflictException extends FencelineException {

  private static final long serialVersionUID = 1L;

  private final transient Receipt recorded;

  /** Creates the exception; {@code recorded} is the receipt of the request applied first. */
  public OperationConflictException(String message, Receipt recorded) {
    super(message);
    this.recorded = java.util.Objects.requireNonNull(recorded, "recorded is null");
  }

  /**
   * The exception for a retry of {@code recorded}'s operation whose fingerprint {@code supplied}
   * differs from the recorded one, in the project's message format.
   */
  public static OperationConflictException differentRequest(
      Receipt recorded, RequestFingerprint supplied) {
    return new OperationConflictException(
        "Cannot apply operation "
            + recorded.operation()
            + " of "
            + recorded.resource()
            + " to "
            + recorded.destination()
            + ": it was already applied under epoch "
            + recorded.epoch()
            + " with a different request (fingerprint "
            + supplied
            + " differs from the recorded one; an operation ID names exactly one request, so give"
            + " a different request its own operation ID)",
        recorded);
  }

  /** The receipt of the request that was applied under this operation ID. */
  public Receipt recorded() {
    return recorded;
  }
}
