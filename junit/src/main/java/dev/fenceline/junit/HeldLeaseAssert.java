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

import dev.fenceline.core.HeldLease;
import dev.fenceline.core.LeaseLoss;
import dev.fenceline.spi.FencingToken;
import org.assertj.core.api.AbstractAssert;

/** Assertions on a worker's {@link HeldLease}; a failure says what the lease is instead. */
public final class HeldLeaseAssert extends AbstractAssert<HeldLeaseAssert, HeldLease> {

  HeldLeaseAssert(HeldLease actual) {
    super(actual, HeldLeaseAssert.class);
  }

  /** The lease's token carries {@code epoch}. */
  public HeldLeaseAssert hasEpoch(long epoch) {
    isNotNull();
    FencingToken token = actual.token();
    if (token.epoch().value() != epoch) {
      failWithMessage(
          "%s",
          "Expected "
              + token.holder()
              + "'s lease on "
              + token.resource()
              + " to have epoch "
              + epoch
              + ", but it has epoch "
              + token.epoch());
    }
    return this;
  }

  /** The worker believes it holds the lease ({@link HeldLease.State#HELD}). */
  public HeldLeaseAssert isHeld() {
    return isIn(HeldLease.State.HELD);
  }

  /**
   * The worker knows it lost the lease ({@link HeldLease.State#LOST}). Under {@link FencelineLab} a
   * worker notices when it next renews, publishes or registers.
   */
  public HeldLeaseAssert isLost() {
    return isIn(HeldLease.State.LOST);
  }

  private HeldLeaseAssert isIn(HeldLease.State expected) {
    isNotNull();
    HeldLease.State state = actual.state();
    if (state != expected) {
      FencingToken token = actual.token();
      failWithMessage(
          "%s",
          "Expected "
              + Descriptions.lease(token)
              + " to be "
              + expected
              + ", but it is "
              + state
              + actual.loss().map(LeaseLoss::describe).map(loss -> ": " + loss).orElse("")
              + (state == HeldLease.State.HELD && !actual.isLocallyValid()
                  ? " (its local deadline passed: the worker notices when it next renews,"
                      + " publishes or registers)"
                  : ""));
    }
    return this;
  }
}
