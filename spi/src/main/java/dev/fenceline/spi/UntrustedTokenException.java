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
