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
