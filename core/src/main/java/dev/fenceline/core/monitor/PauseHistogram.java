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
package dev.fenceline.core.monitor;

import java.util.Arrays;

/**
 * Counts of pause lengths in fixed log-linear buckets, like a small HdrHistogram: values below 16
 * µs are exact, above that each power of two is split into 16 buckets, so a bucket is at most 6.25
 * % wide. Memory is fixed ({@value #BUCKETS} counters) whatever is recorded; values above 2^40 µs
 * (about 12 days) land in the last bucket. The exact maximum is kept beside the buckets. Not
 * thread-safe; {@link PauseMonitor} guards it.
 */
final class PauseHistogram {

  private static final int SUB_BUCKET_BITS = 4;
  private static final int SUB_BUCKETS = 1 << SUB_BUCKET_BITS;
  private static final int MAX_EXPONENT = 40;
  static final int BUCKETS = SUB_BUCKETS + (MAX_EXPONENT - SUB_BUCKET_BITS + 1) * SUB_BUCKETS;
  private static final long MAX_TRACKED_MICROS = (1L << (MAX_EXPONENT + 1)) - 1;

  private final long[] counts = new long[BUCKETS];
  private long total;
  private long maxNanos;
  private long aboveThreshold;

  void record(long nanos, long thresholdNanos) {
    long value = Math.max(0, nanos);
    counts[bucketOf(value / 1000)]++;
    total++;
    maxNanos = Math.max(maxNanos, value);
    if (value >= thresholdNanos) {
      aboveThreshold++;
    }
  }

  void clear() {
    Arrays.fill(counts, 0);
    total = 0;
    maxNanos = 0;
    aboveThreshold = 0;
  }

  void addTo(PauseHistogram sum) {
    for (int i = 0; i < BUCKETS; i++) {
      sum.counts[i] += counts[i];
    }
    sum.total += total;
    sum.maxNanos = Math.max(sum.maxNanos, maxNanos);
    sum.aboveThreshold += aboveThreshold;
  }

  long total() {
    return total;
  }

  long maxNanos() {
    return maxNanos;
  }

  long aboveThreshold() {
    return aboveThreshold;
  }

  /**
   * The smallest bucket bound at or above {@code quantile} of the recorded values, never above the
   * exact maximum: it may overstate a pause by one bucket width (6.25 %), never understate it.
   */
  long quantileNanos(double quantile) {
    if (total == 0) {
      return 0;
    }
    long rank = Math.max(1, (long) Math.ceil(quantile * total));
    long seen = 0;
    for (int i = 0; i < BUCKETS; i++) {
      seen += counts[i];
      if (seen >= rank) {
        return Math.min(maxNanos, upperBoundMicros(i) * 1000 + 999);
      }
    }
    return maxNanos;
  }

  static int bucketOf(long micros) {
    long value = Math.min(micros, MAX_TRACKED_MICROS);
    if (value < SUB_BUCKETS) {
      return (int) value;
    }
    int exponent = 63 - Long.numberOfLeadingZeros(value);
    int shift = exponent - SUB_BUCKET_BITS;
    int sub = (int) (value >>> shift) - SUB_BUCKETS;
    return SUB_BUCKETS + shift * SUB_BUCKETS + sub;
  }

  static long upperBoundMicros(int bucket) {
    if (bucket < SUB_BUCKETS) {
      return bucket;
    }
    int shift = (bucket - SUB_BUCKETS) / SUB_BUCKETS;
    int sub = (bucket - SUB_BUCKETS) % SUB_BUCKETS;
    return ((long) (SUB_BUCKETS + sub + 1) << shift) - 1;
  }
}
