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

import static java.util.Objects.requireNonNull;

import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.WriteOutcome;
import java.util.Optional;

/**
 * One write a {@link RecordingDestination} received, and how it ended: with an outcome, or with the
 * exception the write threw.
 *
 * @param token the token the writer presented
 * @param operation the operation
 * @param change the change it asked for
 * @param outcome the destination's answer, or empty if the write threw
 * @param failure what the write threw, or empty if it answered
 * @param <C> the destination's change type
 */
public record RecordedWrite<C>(
    FencingToken token,
    OperationId operation,
    C change,
    Optional<WriteOutcome> outcome,
    Optional<Throwable> failure) {

  /**
   * Validates the record.
   *
   * @throws IllegalArgumentException unless exactly one of outcome and failure is present
   */
  public RecordedWrite {
    requireNonNull(token, "token is null");
    requireNonNull(operation, "operation is null");
    requireNonNull(outcome, "outcome is null (use Optional.empty())");
    requireNonNull(failure, "failure is null (use Optional.empty())");
    if (outcome.isPresent() == failure.isPresent()) {
      throw new IllegalArgumentException(
          "Cannot record the write of "
              + operation
              + " with "
              + Descriptions.token(token)
              + ": give either its outcome or its failure, not "
              + (outcome.isPresent() ? "both" : "neither"));
    }
  }

  /**
   * The write in words, e.g. {@code worker-a wrote report-2026-10-27 at epoch 33: rejected as
   * stale: epoch 33 is older than the current epoch 34 of nightly-report}.
   */
  public String describe() {
    return token.holder()
        + " wrote "
        + operation
        + " at epoch "
        + token.epoch()
        + ": "
        + outcome.map(Descriptions::outcome).orElseGet(() -> "threw " + failure.orElseThrow());
  }
}
