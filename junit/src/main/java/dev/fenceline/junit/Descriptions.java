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
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.Receipt;
import dev.fenceline.spi.RejectedStale;
import dev.fenceline.spi.WriteOutcome;

/** The words failure messages and journals use for outcomes and tokens, in one place. */
final class Descriptions {

  private Descriptions() {}

  /**
   * What happened to a write, e.g. {@code rejected as stale: epoch 33 is older than the current
   * epoch 34 of nightly-report}.
   */
  static String outcome(WriteOutcome outcome) {
    if (outcome instanceof Applied applied) {
      return "applied " + receipt(applied.receipt());
    }
    if (outcome instanceof AlreadyApplied replayed) {
      return "answered as already applied (nothing changed; the receipt of the earlier write was"
          + " replayed: "
          + receipt(replayed.receipt())
          + ")";
    }
    RejectedStale stale = (RejectedStale) outcome;
    return "rejected as stale: epoch "
        + stale.supplied()
        + " is older than the current epoch "
        + stale.current()
        + " of "
        + stale.resource();
  }

  private static String receipt(Receipt receipt) {
    return "at epoch "
        + receipt.epoch()
        + " as operation "
        + receipt.operation()
        + " on "
        + receipt.destination();
  }

  /** A lease in words: {@code worker-a's lease on nightly-report at epoch 33}. */
  static String lease(FencingToken token) {
    return token.holder() + "'s lease on " + token.resource() + " at epoch " + token.epoch();
  }

  /** A token in words: {@code worker-a's token for nightly-report at epoch 33}. */
  static String token(FencingToken token) {
    return token.holder() + "'s token for " + token.resource() + " at epoch " + token.epoch();
  }
}
