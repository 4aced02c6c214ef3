package dev.fenceline.http;

import dev.fenceline.spi.StoreException;

/**
 * The API answered the request with a definite refusal that retrying cannot fix: a 4xx other than
 * 409 (still processing) and 429 (too many requests). {@code 422} means the idempotency key was
 * used before with another payload: the request passed the destination's own fingerprint check, so
 * the API holds some other payload under the operation's key. The intent stays recorded and not
 * completed. {@link #outcomeUnknown()} is true if an earlier attempt, of this call or of an earlier
 * one, may have landed before the refusal.
 */
public class ApiRejectedException extends StoreException {

  private static final long serialVersionUID = 1L;

  private final int status;

  /** Creates the exception for HTTP {@code status}. */
  public ApiRejectedException(String message, int status, boolean outcomeUnknown) {
    super(message, null, outcomeUnknown);
    this.status = status;
  }

  /** The HTTP status the API answered. */
  public int status() {
    return status;
  }

  /** True for 422: the API says the idempotency key was used with another payload. */
  public boolean keyReusedWithAnotherPayload() {
    return status == 422;
  }
}
