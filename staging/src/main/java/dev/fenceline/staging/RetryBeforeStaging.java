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

import dev.fenceline.spi.AlreadyApplied;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.OperationConflictException;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.PointerStore;
import dev.fenceline.spi.Receipt;
import dev.fenceline.spi.ReceiptPrunedException;
import dev.fenceline.spi.RegisterOutcome;
import dev.fenceline.spi.RejectedStale;
import dev.fenceline.spi.RequestFingerprint;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.WriteOutcome;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Optional;

/**
 * Answers a retry of an operation a {@link StagedDestination} applied before anything is staged:
 * the payload is read once through SHA-256 (and not stored) and compared with the recorded one, the
 * request fingerprint the pointer store would compare in its atomic step, and the answer is the one
 * that step would give.
 */
final class RetryBeforeStaging {

  private final PointerStore pointers;
  private final StagedPointers staged;

  RetryBeforeStaging(PointerStore pointers, StagedPointers staged) {
    this.pointers = pointers;
    this.staged = staged;
  }

  /**
   * The answer to a retry: {@link AlreadyApplied} with the first receipt for the same payload,
   * {@link RejectedStale} for a stale token. Empty if the operation is not recorded, its receipt
   * may have been pruned, or its receipt is not a staged blob of this resource with a size and
   * SHA-256 (then the payload is staged and the atomic step decides, as for a first attempt).
   *
   * @throws OperationConflictException if the operation was applied with another payload
   * @throws RetryNotComparedException if the payload could not be read to compare it
   */
  Optional<WriteOutcome> answer(FencingToken token, OperationId operation, InputStream payload) {
    ResourceId resource = token.resource();
    Optional<Receipt> found;
    try {
      found = pointers.lookup(resource, operation);
    } catch (ReceiptPrunedException e) {
      return Optional.empty();
    }
    Optional<String> recordedSha256 =
        found.flatMap(receipt -> staged.stagedSha256(resource, receipt));
    if (recordedSha256.isEmpty()) {
      return Optional.empty();
    }
    Receipt receipt = found.get();
    String sha256 = sha256(payload, resource, operation, receipt);
    // The answers of the atomic step, in its order: a stale token first, then a conflict (which
    // registers nothing), then the replay (which checks the token and registers a newer epoch).
    if (!sha256.equals(recordedSha256.get())) {
      Epoch current = pointers.currentEpoch(resource);
      if (token.epoch().isOlderThan(current)) {
        return Optional.of(new RejectedStale(resource, token.epoch(), current));
      }
      throw OperationConflictException.differentRequest(
          receipt, RequestFingerprint.ofSha256Hex(sha256));
    }
    RegisterOutcome registered = pointers.register(token);
    if (registered instanceof RejectedStale stale) {
      return Optional.of(stale);
    }
    return Optional.of(new AlreadyApplied(receipt));
  }

  /** The payload's SHA-256, read to its end; {@code applied} is the receipt it is compared with. */
  private static String sha256(
      InputStream payload, ResourceId resource, OperationId operation, Receipt applied) {
    try {
      CountingDigestInputStream counted = new CountingDigestInputStream(payload);
      counted.transferTo(OutputStream.nullOutputStream());
      return counted.sha256();
    } catch (IOException e) {
      throw new RetryNotComparedException(
          "Cannot publish "
              + resource
              + " for operation "
              + operation
              + ": reading the payload failed: "
              + e.getMessage()
              + "; operation "
              + operation
              + " was already applied at epoch "
              + applied.epoch()
              + "; this retry changed nothing (its payload could not be read to compare)",
          applied,
          e);
    }
  }
}
