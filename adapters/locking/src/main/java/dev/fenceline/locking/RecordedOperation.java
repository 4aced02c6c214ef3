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
