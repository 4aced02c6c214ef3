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
 * The operation had already been applied; nothing changed. The receipt is the one recorded when it
 * was first applied (its epoch may be older than the epoch of this retry).
 *
 * @param receipt the original receipt
 */
public record AlreadyApplied(Receipt receipt) implements WriteOutcome {

  /**
   * Validates the outcome.
   *
   * @param receipt the receipt of the applied write
   */
  public AlreadyApplied {
    requireNonNull(receipt, "receipt is null");
  }

  @Override
  public ResourceId resource() {
    return receipt.resource();
  }
}
