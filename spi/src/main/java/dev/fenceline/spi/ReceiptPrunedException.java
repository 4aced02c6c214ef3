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

import java.time.Instant;

/**
 * A {@link Destination#lookup} found no receipt for an operation, but the destination has pruned
 * receipts of that resource recorded before {@link #prunedBefore()}: the operation may have been
 * applied and its receipt deleted, so "never applied" cannot be answered. The outcome is unknown
 * ({@link #outcomeUnknown()} is true).
 *
 * <p>What the caller can still conclude: a receipt is recorded, by the destination's clock, when
 * the operation is applied, and only receipts recorded before {@link #prunedBefore()} are pruned.
 * So if the operation was first attempted after that instant (allow for the difference between the
 * caller's and the destination's clocks), it was not applied. Otherwise check the destination's
 * data itself. To avoid the question, keep receipts longer than callers may retry an operation:
 * retrying an operation whose receipt was pruned applies it again, because the destination no
 * longer knows it.
 */
public class ReceiptPrunedException extends StoreException {

  private static final long serialVersionUID = 1L;

  /** The name of the destination that was asked. */
  private final String destination;

  private final transient ResourceId resource;
  private final transient OperationId operation;

  /** Receipts of the resource recorded before this instant may have been pruned. */
  private final Instant prunedBefore;

  /**
   * Creates the exception with the project's message.
   *
   * @param destination the destination's name
   * @param resource the resource looked up
   * @param operation the operation looked up
   * @param prunedBefore receipts of the resource recorded before this instant may have been pruned
   */
  public ReceiptPrunedException(
      String destination, ResourceId resource, OperationId operation, Instant prunedBefore) {
    super(
        message(
            requireNonNull(destination, "destination is null"),
            requireNonNull(resource, "resource is null"),
            requireNonNull(operation, "operation is null"),
            requireNonNull(prunedBefore, "prunedBefore is null")),
        null,
        true);
    this.destination = destination;
    this.resource = resource;
    this.operation = operation;
    this.prunedBefore = prunedBefore;
  }

  private static String message(
      String destination, ResourceId resource, OperationId operation, Instant prunedBefore) {
    return "Cannot look up operation "
        + operation
        + " of "
        + resource
        + " at "
        + destination
        + ": its outcome is unknown, older than retention: receipts of "
        + resource
        + " recorded before "
        + prunedBefore
        + " were pruned and none is kept for this operation (if the operation was first attempted"
        + " after "
        + prunedBefore
        + " by the destination's clock, it was not applied; otherwise check the destination's"
        + " data; keep receipts longer than callers retry, since a retry after its receipt was"
        + " pruned applies the operation again)";
  }

  /** {@return the name of the destination that was asked} */
  public String destination() {
    return destination;
  }

  /** {@return the resource that was looked up} */
  public ResourceId resource() {
    return resource;
  }

  /** {@return the operation that was looked up} */
  public OperationId operation() {
    return operation;
  }

  /**
   * {@return receipts of the resource recorded before this instant (by the destination's clock) may
   * have been pruned; every receipt recorded at or after it is kept}
   */
  public Instant prunedBefore() {
    return prunedBefore;
  }
}
