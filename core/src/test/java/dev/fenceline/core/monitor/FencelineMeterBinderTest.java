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

import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class FencelineMeterBinderTest {

  private final FakeClock clock = new FakeClock();
  private final PauseMonitor monitor = PauseMonitor.builder().build(clock);
  private final FencingMetrics metrics = new FencingMetrics(clock);
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

  @Test
  void pausesAndFencingEventsBecomeMetersWithTheGivenTags() {
    FencelineMeterBinder binder = new FencelineMeterBinder(monitor, metrics, Tags.of("job", "x"));
    binder.bindTo(registry);

    long due = clock.nanoTime();
    monitor.recordWakeUp(due, clock.advance(Duration.ofMillis(1500)));
    monitor.recordWakeUp(clock.nanoTime(), clock.advance(Duration.ofMillis(2)));
    metrics.recordTakeover();
    metrics.recordTakeover();
    metrics.recordLostLease();
    metrics.recordStaleRejection();
    metrics.recordStaleRejection();
    metrics.recordStaleRejection();

    Timer pause = registry.get("fenceline.pause").tag("job", "x").timer();
    assertThat(pause.count()).isEqualTo(2);
    assertThat(pause.max(TimeUnit.MILLISECONDS)).isEqualTo(1500.0);
    assertThat(registry.get("fenceline.lease.takeovers").tag("job", "x").functionCounter().count())
        .isEqualTo(2.0);
    assertThat(registry.get("fenceline.lease.lost").functionCounter().count()).isEqualTo(1.0);
    assertThat(registry.get("fenceline.fencing.stale.rejections").functionCounter().count())
        .isEqualTo(3.0);
  }

  @Test
  void closingStopsRecordingAndRemovesTheMeters() {
    FencelineMeterBinder binder = new FencelineMeterBinder(monitor, metrics);
    binder.bindTo(registry);
    Timer pause = registry.get("fenceline.pause").timer();

    binder.close();
    monitor.recordWakeUp(clock.nanoTime(), clock.advance(Duration.ofMillis(700)));

    assertThat(pause.count()).isZero();
    assertThat(registry.getMeters()).isEmpty();
    assertThat(monitor.snapshot().wakeUps()).as("the monitor itself goes on").isEqualTo(1);
  }
}
