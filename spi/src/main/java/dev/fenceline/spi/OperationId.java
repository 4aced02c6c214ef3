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

/**
 * One business operation, such as {@code report-2026-10-27}. It stays the same across retries and
 * across workers, so a destination can tell a resend from a new operation: an epoch alone cannot
 * (R4). Derive it from the business input, never from a random number per attempt.
 *
 * @param value 1 to {@value #MAX_LENGTH} printable characters, not all whitespace, well-formed
 *     UTF-16 without NUL (see {@link StorableText})
 */
public record OperationId(String value) {

  /** Longest accepted operation ID, in characters. */
  public static final int MAX_LENGTH = 200;

  /**
   * Validates the value (see {@link StorableText#requireIdentifier}).
   *
   * @param value the ID as text
   * @throws IllegalArgumentException if the value is blank (also Unicode whitespace only), too
   *     long, has control characters, NUL or an unpaired surrogate
   */
  public OperationId {
    StorableText.requireIdentifier(
        "operation ID",
        value,
        MAX_LENGTH,
        "derive it from the business input, e.g. report-2026-10-27");
  }

  /**
   * {@return the operation ID for {@code value}}
   *
   * @param value the ID as text
   */
  public static OperationId of(String value) {
    return new OperationId(value);
  }

  @Override
  public String toString() {
    return value;
  }
}
