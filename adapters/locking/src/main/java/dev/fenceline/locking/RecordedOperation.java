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
package dev.fenceline.locking;

import static java.util.Objects.requireNonNull;

import dev.fenceline.spi.Receipt;
import dev.fenceline.spi.RequestFingerprint;

/**
 * An operation record as the store keeps it: the receipt handed out when the operation was applied
 * and the fingerprint of its request. Written once, in the transaction that applied the change, and
 * never updated; its key is ({@link Receipt#destination()}, {@link Receipt#resource()}, {@link
 * Receipt#operation()}).
 *
 * @param receipt the receipt (destination, resource, operation, epoch, time, attributes)
 * @param fingerprint the fingerprint of the request that was applied
 */
public record RecordedOperation(Receipt receipt, RequestFingerprint fingerprint) {

  /** Validates the record. */
  public RecordedOperation {
    requireNonNull(receipt, "receipt is null");
    requireNonNull(fingerprint, "fingerprint is null");
  }
}
