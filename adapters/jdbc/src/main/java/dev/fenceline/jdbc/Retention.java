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

import dev.fenceline.spi.ConfigurationException;
import dev.fenceline.spi.ReceiptPrunedException;
import java.time.Duration;

/**
 * How much history a {@link JdbcStore} keeps when it {@linkplain JdbcStore#prune prunes}: without
 * it nothing is ever deleted, and every publish adds a row for good. There is no default: only the
 * operator knows how long callers may retry an operation, and a retention shorter than that turns a
 * late retry into a second application.
 *
 * <ul>
 *   <li>{@code receipts}: operation records (receipts) recorded longer ago than this, by the
 *       database's clock, are deleted. It must be at least as long as callers may retry an
 *       operation (the whole retry window, including retries after restarts, and lookups after a
 *       lost answer): a write of an operation whose receipt was pruned is applied again, because
 *       the destination no longer knows it. A {@link dev.fenceline.spi.Destination#lookup lookup}
 *       of a pruned receipt throws {@link ReceiptPrunedException} (outcome unknown), never "never
 *       applied". The receipt of the operation that set a pointer store's current pointer is kept
 *       as long as that pointer is current.
 *   <li>{@code pointerVersions}: the newest this many publish-pointer versions of each pointer
 *       store and resource are kept, older ones deleted; the current pointer is always kept. (A
 *       version's row also holds the receipt of the publish that wrote it: while that receipt is
 *       kept, the row stays, out of the history, and is deleted with the receipt.) It must be at
 *       least the {@code keepVersions} of every {@code StagedDestination} publishing through a
 *       pointer store of this database, so every version a staged destination may still serve, roll
 *       back to or keep from its sweep stays in the history.
 * </ul>
 *
 * @param receipts how long operation records are kept; positive
 * @param pointerVersions how many pointer versions per pointer store and resource are kept; 1 or
 *     more
 */
public record Retention(Duration receipts, int pointerVersions) {

  /**
   * Validates the settings.
   *
   * @throws ConfigurationException if {@code receipts} is not positive or {@code pointerVersions}
   *     is below 1
   */
  public Retention {
    requireNonNull(receipts, "receipts is null");
    if (receipts.isNegative() || receipts.isZero()) {
      throw new ConfigurationException(
          "Cannot keep receipts for "
              + receipts
              + ": the receipt retention must be positive and at least as long as callers may"
              + " retry an operation (e.g. P7D)");
    }
    if (receipts.compareTo(Duration.ofMillis(1)) < 0) {
      throw new ConfigurationException(
          "Cannot keep receipts for "
              + receipts
              + ": the receipt retention is counted in milliseconds and must be at least 1 ms,"
              + " and at least as long as callers may retry an operation (e.g. P7D)");
    }
    if (pointerVersions < 1) {
      throw new ConfigurationException(
          "Cannot keep "
              + pointerVersions
              + " pointer versions: the current pointer is always kept (use 1 or more, and at"
              + " least the keepVersions of every staged destination on the pointer store)");
    }
  }
}
