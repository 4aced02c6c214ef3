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
 * The supplied epoch is older than the epoch the destination has registered; nothing changed. The
 * writer has lost its lease: it must not retry with the same token.
 *
 * @param resource the resource
 * @param supplied the epoch the writer carried
 * @param current the newer epoch the destination has registered
 */
public record RejectedStale(ResourceId resource, Epoch supplied, Epoch current)
    implements WriteOutcome, RegisterOutcome, IntentOutcome {

  /**
   * Validates the outcome.
   *
   * @param resource the resource
   * @param supplied the fingerprint supplied with this request
   * @param current the current epoch
   * @throws IllegalArgumentException if {@code supplied} is not older than {@code current}
   */
  public RejectedStale {
    requireNonNull(resource, "resource is null");
    requireNonNull(supplied, "supplied is null");
    requireNonNull(current, "current is null");
    if (!supplied.isOlderThan(current)) {
      throw new IllegalArgumentException(
          "Cannot report a stale epoch for "
              + resource
              + ": supplied epoch "
              + supplied
              + " is not older than current epoch "
              + current);
    }
  }

  /**
   * {@return a message in the project's error format, for logs and exceptions: {@code Cannot
   * <action> <resource>: epoch 33 is older than current epoch 34 (...)}}
   *
   * @param action what was attempted, for the message (such as {@code write})
   */
  public String describe(String action) {
    return "Cannot "
        + action
        + " "
        + resource
        + ": epoch "
        + supplied
        + " is older than current epoch "
        + current
        + " (the lease was lost; re-acquire before retrying)";
  }
}
