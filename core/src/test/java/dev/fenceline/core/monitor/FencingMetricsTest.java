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
