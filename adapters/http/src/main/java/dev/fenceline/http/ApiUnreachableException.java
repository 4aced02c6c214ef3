package dev.fenceline.http;

import dev.fenceline.spi.StoreException;

/**
 * No request of the operation could have reached the API: every attempt failed to connect, or the
 * circuit breaker refused it, and no earlier attempt may have sent it. Nothing was applied and
 * nothing is recorded as applied ({@link #outcomeUnknown()} is false); the intent stays, so a retry
 * with the same operation ID looks the result up first (a later retry counts as a further attempt
 * and cannot know that this one sent nothing).
 */
public class ApiUnreachableException extends StoreException {

  private static final long serialVersionUID = 1L;

  /** Creates the exception. */
  public ApiUnreachableException(String message, Throwable cause) {
    super(message, cause, false);
  }
}
