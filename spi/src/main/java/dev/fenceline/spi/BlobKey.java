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
 * The key of a blob in a {@link BlobStore}: {@code /}-separated segments of {@code [A-Za-z0-9._-]},
 * 1 to {@value #MAX_LENGTH} characters, no {@code .} or {@code ..} segment, no empty segment, no
 * leading or trailing {@code /}. Safe to map onto a file path or an object key.
 *
 * @param value the validated key
 */
public record BlobKey(String value) implements Comparable<BlobKey> {

  /** Longest accepted key, in characters. */
  public static final int MAX_LENGTH = 1024;

  /**
   * Validates the key.
   *
   * @param value the key as text
   * @throws IllegalArgumentException if the key breaks one of the rules above
   */
  public BlobKey {
    PathRules.validate("blob key", value, MAX_LENGTH, "reports/2026-10-27.csv");
  }

  /**
   * {@return the key for {@code value}}
   *
   * @param value the key as text
   */
  public static BlobKey of(String value) {
    return new BlobKey(value);
  }

  /**
   * {@return the key {@code this/child}}
   *
   * @param child the child name
   */
  public BlobKey resolve(String child) {
    return new BlobKey(value + "/" + child);
  }

  @Override
  public int compareTo(BlobKey other) {
    return value.compareTo(other.value);
  }

  @Override
  public String toString() {
    return value;
  }
}
