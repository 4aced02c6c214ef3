/*
 * Copyright 2026 the Fenceline authors
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
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
  private final transient Intent intent;

  /**
   * Creates the exception; {@code recorded} is the receipt of the request applied first.
   *
   * @param message the message, in the project's error format
   * @param recorded the receipt recorded for the operation
   */
  public OperationConflictException(String message, Receipt recorded) {
    super(message);
    this.recorded = java.util.Objects.requireNonNull(recorded, "recorded is null");
    this.intent = null;
  }

  /**
   * Creates the exception for an intent recorded with another request; {@code intent} may be
   * completed or not.
   *
   * @param message the message, in the project's error format
   * @param intent the recorded intent
   */
  public OperationConflictException(String message, Intent intent) {
    super(message);
    this.intent = java.util.Objects.requireNonNull(intent, "intent is null");
    this.recorded = intent.receipt().orElse(null);
  }

  /**
   * {@return the exception for a retry of {@code recorded}'s operation whose fingerprint {@code
   * supplied} differs from the recorded one, in the project's message format}
   *
   * @param recorded the receipt recorded for the operation
   * @param supplied the fingerprint supplied with this request
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

  /**
   * {@return the exception for an attempt of {@code intent}'s operation whose fingerprint {@code
   * supplied} differs from the one recorded with the intent, before anything is sent}
   *
   * @param intent the recorded intent
   * @param supplied the fingerprint supplied with this request
   */
  public static OperationConflictException differentIntent(
      Intent intent, RequestFingerprint supplied) {
    return new OperationConflictException(
        "Cannot begin operation "
            + intent.operation()
            + " of "
            + intent.resource()
            + " at "
            + intent.destination()
            + ": an intent for it was recorded under epoch "
            + intent.epoch()
            + " with a different request (fingerprint "
            + supplied
            + " differs from the recorded "
            + intent.fingerprint()
            + "; an operation ID names exactly one request, so give a different request its own"
            + " operation ID); nothing was sent",
        intent);
  }

  /**
   * {@return the receipt of the request that was applied under this operation ID, or null if the
   * conflict is with an {@linkplain #intent() intent} that was not completed}
   */
  public Receipt recorded() {
    return recorded;
  }

  /** {@return the intent the conflict is with, if the operation was recorded as an intent} */
  public java.util.Optional<Intent> intent() {
    return java.util.Optional.ofNullable(intent);
  }
}
