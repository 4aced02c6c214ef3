package dev.fenceline.tck.memory;

import dev.fenceline.spi.OperationConflictException;
import dev.fenceline.spi.Receipt;
import dev.fenceline.spi.RequestFingerprint;

/**
 * An applied operation as the reference pointer stores keep it: its receipt and the fingerprint of
 * the request that applied it.
 */
record RecordedOperation(Receipt receipt, RequestFingerprint fingerprint) {

  /**
   * The receipt a retry of this operation is answered with.
   *
   * @throws OperationConflictException if the retry's request is not the one that was applied
   */
  Receipt receiptForRetry(RequestFingerprint retried) {
    if (!fingerprint.equals(retried)) {
      throw OperationConflictException.differentRequest(receipt, retried);
    }
    return receipt;
  }
}
