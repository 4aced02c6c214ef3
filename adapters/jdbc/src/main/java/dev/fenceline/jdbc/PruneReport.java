package dev.fenceline.jdbc;

import static java.util.Objects.requireNonNull;

import java.time.Instant;

/**
 * What one {@link JdbcStore#prune} run deleted.
 *
 * @param receiptsDeleted operation records deleted
 * @param pointerVersionsDeleted publish-pointer versions deleted
 * @param prunedBefore the new watermark: receipts recorded before this instant (by the database's
 *     clock) were deleted by this run or an earlier one (except the receipts of current pointers,
 *     and unless the run stopped early because the store was closed), every receipt recorded at or
 *     after it is kept; {@link dev.fenceline.spi.ReceiptPrunedException#prunedBefore()} of a
 *     resource this run pruned
 * @param batches the transactions the run committed
 */
public record PruneReport(
    long receiptsDeleted, long pointerVersionsDeleted, Instant prunedBefore, int batches) {

  /** Validates the counts. */
  public PruneReport {
    requireNonNull(prunedBefore, "prunedBefore is null");
    if (receiptsDeleted < 0 || pointerVersionsDeleted < 0 || batches < 0) {
      throw new IllegalArgumentException(
          "Cannot report "
              + receiptsDeleted
              + " receipts, "
              + pointerVersionsDeleted
              + " pointer versions and "
              + batches
              + " batches: counts are never negative");
    }
  }
}
