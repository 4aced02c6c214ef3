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

/**
 * The epoch was current (or newer, and is now registered) when the attempt began. What to do next
 * depends on the intent: {@linkplain Intent#completed() completed} → answer from its receipt and
 * send nothing; {@linkplain Intent#mayHaveBeenSent() may have been sent} → look the result up
 * first; otherwise this is the first attempt and it may send.
 *
 * <p>When the lookup finds that an earlier attempt's request landed, the result is recorded with
 * {@link #previousEpoch()} ({@link IntentStore#complete(FencingToken, OperationId, Epoch,
 * java.util.Map)}): the change was sent by an earlier attempt, not under this one's epoch.
 *
 * @param intent the intent as it is now recorded
 * @param previousEpoch the intent's epoch before this attempt began: the newest earlier attempt's,
 *     which may have sent the request; {@link Epoch#NONE} when this attempt recorded the intent
 */
public record IntentRecorded(Intent intent, Epoch previousEpoch) implements IntentOutcome {

  /**
   * Validates the outcome.
   *
   * @param intent the recorded intent
   * @param previousEpoch the intent's epoch before this attempt began, or {@link Epoch#NONE}
   * @throws IllegalArgumentException if {@code previousEpoch} is above the intent's epoch, or is
   *     {@link Epoch#NONE} while earlier attempts began
   */
  public IntentRecorded {
    requireNonNull(intent, "intent is null");
    requireNonNull(previousEpoch, "previousEpoch is null");
    if (previousEpoch.value() > intent.epoch().value()) {
      throw new IllegalArgumentException(
          "Cannot report the intent of "
              + intent.resource()
              + "/"
              + intent.operation()
              + " at epoch "
              + intent.epoch()
              + " with the earlier epoch "
              + previousEpoch
              + ": an earlier attempt's epoch is not above the newest one's");
    }
    if (previousEpoch.equals(Epoch.NONE) && intent.attempts() > 1) {
      throw new IllegalArgumentException(
          "Cannot report the intent of "
              + intent.resource()
              + "/"
              + intent.operation()
              + " after "
              + intent.attempts()
              + " attempts without the earlier attempt's epoch");
    }
  }

  @Override
  public ResourceId resource() {
    return intent.resource();
  }
}
