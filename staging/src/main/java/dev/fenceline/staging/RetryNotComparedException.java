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
package dev.fenceline.staging;

import static java.util.Objects.requireNonNull;

import dev.fenceline.spi.Receipt;
import dev.fenceline.spi.StoreException;

/**
 * A retry of an operation that was already applied could not read its payload to compare it with
 * the applied one (the payload's producer failed, or the upload was interrupted): the retry changed
 * nothing, and the operation stays applied as {@link #receipt()} says. {@link #outcomeUnknown()} is
 * false.
 */
public final class RetryNotComparedException extends StoreException {
  private static final long serialVersionUID = 1L;

  private final transient Receipt receipt;

  /**
   * @param message the whole message, naming the operation and its epoch
   * @param receipt the receipt of the applied operation
   * @param cause the failure of the payload's read
   */
  public RetryNotComparedException(String message, Receipt receipt, Throwable cause) {
    super(message, cause, false);
    this.receipt = requireNonNull(receipt, "receipt is null");
  }

  /** The receipt of the operation as it was applied before this retry. */
  public Receipt receipt() {
    return receipt;
  }
}
