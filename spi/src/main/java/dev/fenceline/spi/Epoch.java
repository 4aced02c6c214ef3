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
 * A per-resource generation number. An issuer hands out a larger epoch with every change of owner
 * and never hands out a smaller or equal one again, also after a crash (R1). Destinations register
 * the newest epoch they have seen and reject older ones (R2).
 *
 * <p>Epoch {@code 0} means "no owner was ever registered"; issued epochs start at {@code 1}.
 * Wall-clock timestamps and random numbers are not epochs.
 *
 * @param value zero or more
 */
public record Epoch(long value) implements Comparable<Epoch> {

  /** The epoch of a resource that no owner has registered yet. */
  public static final Epoch NONE = new Epoch(0);

  /**
   * Validates the value.
   *
   * @param value the epoch's number
   * @throws IllegalArgumentException if {@code value} is negative
   */
  public Epoch {
    if (value < 0) {
      throw new IllegalArgumentException(
          "Cannot use epoch " + value + ": epochs are zero or more (issuers start at 1)");
    }
  }

  /**
   * {@return the epoch with this value}
   *
   * @param value the epoch's number
   */
  public static Epoch of(long value) {
    return new Epoch(value);
  }

  /**
   * {@return the next epoch}
   *
   * @throws ArithmeticException if this is {@link Long#MAX_VALUE}
   */
  public Epoch next() {
    return new Epoch(Math.addExact(value, 1));
  }

  /**
   * {@return true if this epoch is strictly older (smaller) than {@code other}}
   *
   * @param other the epoch to compare with
   */
  public boolean isOlderThan(Epoch other) {
    return value < other.value;
  }

  /**
   * {@return true if this epoch is strictly newer (larger) than {@code other}}
   *
   * @param other the epoch to compare with
   */
  public boolean isNewerThan(Epoch other) {
    return value > other.value;
  }

  @Override
  public int compareTo(Epoch other) {
    return Long.compare(value, other.value);
  }

  @Override
  public String toString() {
    return Long.toString(value);
  }
}
