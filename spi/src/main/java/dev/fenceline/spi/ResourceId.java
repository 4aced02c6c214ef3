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
 * What is being protected, such as {@code nightly-report} or {@code ledger/acct-42}.
 *
 * <p>A resource ID is a sequence of segments separated by {@code /}. Each segment is 1 or more
 * characters from {@code [A-Za-z0-9._-]}; a segment may not be {@code .} or {@code ..}. The whole
 * ID is 1 to {@value #MAX_LENGTH} characters, does not start or end with {@code /} and has no empty
 * segment. These rules make a resource ID safe to embed in a file path, an object key or a SQL
 * parameter without escaping, and make two spellings of the same path impossible.
 *
 * @param value the validated text
 */
public record ResourceId(String value) implements Comparable<ResourceId> {

  /** Longest accepted resource ID, in characters. */
  public static final int MAX_LENGTH = 200;

  /**
   * Validates the value.
   *
   * @param value the value
   * @throws IllegalArgumentException if the value breaks one of the rules above; the message names
   *     the value and the rule
   */
  public ResourceId {
    PathRules.validate("resource ID", value, MAX_LENGTH, "reports/nightly");
  }

  /**
   * {@return the resource ID for {@code value}}
   *
   * @param value the value
   * @throws IllegalArgumentException if the value is not a valid resource ID
   */
  public static ResourceId of(String value) {
    return new ResourceId(value);
  }

  @Override
  public int compareTo(ResourceId other) {
    return value.compareTo(other.value);
  }

  @Override
  public String toString() {
    return value;
  }
}
