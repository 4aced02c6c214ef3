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

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Optional;

/**
 * A linearizable store that keeps one publish pointer per resource and swaps it as a fenced {@link
 * Destination}: in one atomic step it checks the epoch, checks the operation ID, sets the pointer
 * and records the operation with a receipt. Its {@link #lookup} follows {@link Destination#lookup}:
 * a store that prunes old receipts throws {@link ReceiptPrunedException} for an operation whose
 * receipt may have been pruned, never "never applied". The receipt's attributes are the pointer's
 * attributes plus {@code target}, the pointer target. Stores that cannot check epochs put their
 * payloads under staging keys and let a pointer store publish them (R6).
 *
 * <p>Implementations must report {@link Capability#NATIVE_EPOCH_CHECK}, {@link
 * Capability#OPERATION_RECORD} and {@link Capability#RESULT_LOOKUP}.
 */
public interface PointerStore extends Destination<Pointer> {

  /** Receipt attribute holding the pointer target. */
  String TARGET_ATTRIBUTE = "target";

  /**
   * Swaps the pointer as {@link Destination#write} does, recording {@link
   * RequestFingerprint#of(Pointer)} with the operation.
   */
  @Override
  default WriteOutcome write(FencingToken token, OperationId operation, Pointer change) {
    return write(
        token, operation, change, RequestFingerprint.of(requireNonNull(change, "change is null")));
  }

  /**
   * Swaps the pointer as {@link Destination#write} does and records {@code fingerprint} with the
   * operation. If the operation was recorded with another fingerprint, nothing changes and {@link
   * OperationConflictException} is thrown (after the epoch check: a stale token is {@link
   * RejectedStale} first). A staged destination passes the payload's fingerprint, since every
   * attempt stages under a new key.
   *
   * @param token the fencing token
   * @param operation the operation ID
   * @param change the change to apply
   * @param fingerprint the request's fingerprint
   * @return the outcome, as {@link Destination#write} reports it
   * @throws OperationConflictException if the operation was applied with another fingerprint
   *     ({@link OperationConflictException#differentRequest})
   * @throws UntrustedTokenException as {@link Destination#write} does
   */
  WriteOutcome write(
      FencingToken token, OperationId operation, Pointer change, RequestFingerprint fingerprint);

  /**
   * {@return the identity of the store the pointers live in (for example the database's identity),
   * the same in every process that opens it} Together with {@link #name()} it names one set of
   * publish pointers; staged destinations keep their staging areas apart by it.
   */
  String storeId();

  /**
   * Reads the current pointer of {@code resource} from the linearizable store (never a replica that
   * may be behind).
   *
   * @param resource the resource
   * @return the pointer, or empty if nothing was published yet
   * @throws StoreException if the store cannot be reached
   */
  Optional<PointerState> current(ResourceId resource);

  /**
   * Reads the newest pointers of {@code resource}, newest first, the current one included: every
   * applied swap is kept, so old targets can be audited, rolled back to, or found unreferenced by a
   * clean-up. A store configured to prune its history (the JDBC store's {@code Retention}) keeps
   * only the newest versions of each resource, never fewer than one: the current pointer is never
   * pruned. Keep at least as many as any staged destination on this store keeps. Read from the
   * linearizable store.
   *
   * @param limit how many versions at most, at least 1
   * @param resource the resource
   * @return up to {@code limit} pointer states, newest first; empty if nothing was published
   * @throws IllegalArgumentException if {@code limit} is below 1
   * @throws StoreException if the store cannot be reached
   */
  List<PointerState> history(ResourceId resource, int limit);
}
