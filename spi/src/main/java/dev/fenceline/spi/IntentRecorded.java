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
 * @param intent the intent as it is now recorded
 */
public record IntentRecorded(Intent intent) implements IntentOutcome {

  /**
   * Validates the outcome.
   *
   * @param intent the recorded intent
   */
  public IntentRecorded {
    requireNonNull(intent, "intent is null");
  }

  @Override
  public ResourceId resource() {
    return intent.resource();
  }
}
