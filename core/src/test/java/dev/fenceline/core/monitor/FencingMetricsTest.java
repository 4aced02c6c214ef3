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
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class FencingMetricsTest {

  @Test
  void countsEachKindOfEventApartAndSinceWhen() {
    FakeClock clock = new FakeClock();
    FencingMetrics metrics = new FencingMetrics(clock);
    metrics.recordTakeover();
    metrics.recordTakeover();
    metrics.recordLostLease();
    metrics.recordStaleRejection();
    metrics.recordStaleRejection();
    metrics.recordStaleRejection();
    clock.advance(Duration.ofMinutes(3));

    assertThat(metrics.counts()).isEqualTo(new FencingCounts(2, 1, 3, Duration.ofMinutes(3)));
  }

  @Test
  void countsAreNeverNegative() {
    assertThatThrownBy(() -> new FencingCounts(0, -1, 0, Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("lost leases -1");
  }
}
