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
package dev.fenceline.benchmarks;

import java.util.Arrays;

/**
 * Every latency of one row, in nanoseconds. Kept exactly (a growable array, not buckets): a run
 * records at most a few million operations, and exact percentiles need no histogram settings. Not
 * thread-safe: each worker thread records into its own, merged after the slice.
 */
final class Latencies {

  private long[] values = new long[1024];
  private int size;
  private boolean sorted = true;

  void record(long nanos) {
    if (size == values.length) {
      values = Arrays.copyOf(values, values.length * 2);
    }
    values[size++] = nanos;
    sorted = false;
  }

  void addAll(Latencies other) {
    if (size + other.size > values.length) {
      values = Arrays.copyOf(values, Math.max(values.length * 2, size + other.size));
    }
    System.arraycopy(other.values, 0, values, size, other.size);
    size += other.size;
    sorted = false;
  }

  int count() {
    return size;
  }

  /**
   * The {@code quantile} (0 to 1) by the nearest-rank method, in nanoseconds; NaN if nothing was
   * recorded.
   */
  double quantile(double quantile) {
    if (size == 0) {
      return Double.NaN;
    }
    if (!sorted) {
      Arrays.sort(values, 0, size);
      sorted = true;
    }
    int rank = (int) Math.ceil(quantile * size);
    return values[Math.min(size, Math.max(1, rank)) - 1];
  }

  double mean() {
    if (size == 0) {
      return Double.NaN;
    }
    double sum = 0;
    for (int i = 0; i < size; i++) {
      sum += values[i];
    }
    return sum / size;
  }
}
