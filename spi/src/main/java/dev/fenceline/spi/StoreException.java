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
