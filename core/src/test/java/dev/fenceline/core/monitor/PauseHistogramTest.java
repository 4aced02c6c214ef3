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

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PauseHistogramTest {

  private static final long MS = 1_000_000L;

  @Test
  void everyBucketBoundCoversItsValueWithinOneSixteenth() {
    for (long micros = 0; micros < (1L << 41); micros = micros * 5 / 4 + 1) {
      long bound = PauseHistogram.upperBoundMicros(PauseHistogram.bucketOf(micros));
      assertThat(bound).as("bound of %d µs", micros).isGreaterThanOrEqualTo(micros);
      assertThat(bound).as("bound of %d µs", micros).isLessThanOrEqualTo(micros + micros / 16);
    }
    assertThat(PauseHistogram.bucketOf(Long.MAX_VALUE)).isEqualTo(PauseHistogram.BUCKETS - 1);
  }

  @Test
  void percentilesFindTheRareLongPauseAndTheMaximumIsExact() {
    PauseHistogram histogram = new PauseHistogram();
    for (int i = 0; i < 998; i++) {
      histogram.record(1 * MS, 100 * MS);
    }
    histogram.record(700 * MS, 100 * MS);
    histogram.record(2_345_678_901L, 100 * MS);

    assertThat(histogram.total()).isEqualTo(1000);
    assertThat(histogram.aboveThreshold()).isEqualTo(2);
    assertThat(histogram.quantileNanos(0.5)).isBetween(1 * MS, 1 * MS + MS / 16 + 1000);
    assertThat(histogram.quantileNanos(0.99)).isBetween(1 * MS, 1 * MS + MS / 16 + 1000);
    assertThat(histogram.quantileNanos(0.999)).isBetween(700 * MS, 700 * MS + 700 * MS / 16);
    assertThat(histogram.quantileNanos(1.0)).isEqualTo(2_345_678_901L);
    assertThat(histogram.maxNanos()).isEqualTo(2_345_678_901L);
  }

  @Test
  void aQuantileNeverExceedsTheMaximum() {
    PauseHistogram histogram = new PauseHistogram();
    histogram.record(1_000_001_000L, 0);

    assertThat(histogram.quantileNanos(0.5)).isEqualTo(1_000_001_000L);
  }

  @Test
  void anEmptyHistogramReportsZeroAndANegativeValueCountsAsZero() {
    PauseHistogram histogram = new PauseHistogram();
    assertThat(histogram.quantileNanos(0.99)).isZero();

    histogram.record(-5, 1);
    assertThat(histogram.maxNanos()).isZero();
    assertThat(histogram.aboveThreshold()).isZero();
  }
}
