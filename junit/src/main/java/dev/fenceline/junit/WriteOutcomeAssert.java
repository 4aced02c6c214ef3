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
package dev.fenceline.junit;

import dev.fenceline.spi.AlreadyApplied;
import dev.fenceline.spi.Applied;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.Receipt;
import dev.fenceline.spi.RejectedStale;
import dev.fenceline.spi.WriteOutcome;
import org.assertj.core.api.AbstractAssert;

/**
 * Assertions on a {@link WriteOutcome}; a failure says what the outcome was instead, e.g. {@code
 * Expected the write to be rejected as stale, but it was applied at epoch 33 as operation
 * report-2026-10-27 on reports}.
 */
public final class WriteOutcomeAssert extends AbstractAssert<WriteOutcomeAssert, WriteOutcome> {

  WriteOutcomeAssert(WriteOutcome actual) {
    super(actual, WriteOutcomeAssert.class);
  }

  /** The destination applied the change ({@link Applied}). */
  public WriteOutcomeAssert wasApplied() {
    return is(Applied.class, "applied");
  }

  /** The destination had applied the operation before and replayed its receipt. */
  public WriteOutcomeAssert wasAlreadyApplied() {
    return is(AlreadyApplied.class, "answered as already applied");
  }

  /** The destination rejected the write because its epoch is older ({@link RejectedStale}). */
  public WriteOutcomeAssert isRejectedAsStale() {
    return is(RejectedStale.class, "rejected as stale");
  }

  /** The write was rejected as stale because {@code epoch} is the destination's current one. */
  public WriteOutcomeAssert byCurrentEpoch(long epoch) {
    isRejectedAsStale();
    Epoch current = ((RejectedStale) actual).current();
    if (current.value() != epoch) {
      failWithMessage(
          "%s",
          "Expected the write to be rejected by current epoch "
              + epoch
              + ", but it was "
              + Descriptions.outcome(actual));
    }
    return this;
  }

  /** The write was applied, now or before, under {@code epoch} (its receipt's epoch). */
  public WriteOutcomeAssert atEpoch(long epoch) {
    isNotNull();
    Receipt receipt =
        actual instanceof Applied applied
            ? applied.receipt()
            : actual instanceof AlreadyApplied replayed ? replayed.receipt() : null;
    if (receipt == null || receipt.epoch().value() != epoch) {
      failWithMessage(
          "%s",
          "Expected the write to be applied at epoch "
              + epoch
              + ", but it was "
              + Descriptions.outcome(actual));
    }
    return this;
  }

  private WriteOutcomeAssert is(Class<? extends WriteOutcome> expected, String words) {
    if (actual == null) {
      failWithMessage(
          "%s", "Expected the write to be " + words + ", but there is no outcome (null)");
    }
    if (!expected.isInstance(actual)) {
      failWithMessage(
          "%s",
          "Expected the write to be " + words + ", but it was " + Descriptions.outcome(actual));
    }
    return this;
  }
}
