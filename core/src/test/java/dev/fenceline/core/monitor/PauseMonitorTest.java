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
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class PauseMonitorTest {

  private final FakeClock clock = new FakeClock();

  private PauseMonitor monitor(Duration window) {
    return PauseMonitor.builder()
        .interval(Duration.ofMillis(50))
        .window(window)
        .threshold(Duration.ofMillis(100))
        .build(clock);
  }

  @Test
  void aWakeUpIsMeasuredByHowLateItFired() {
    PauseMonitor monitor = monitor(Duration.ofMinutes(10));
    long due = clock.nanoTime();
    long fired = clock.advance(Duration.ofMillis(1500));

    monitor.recordWakeUp(due, fired);
    monitor.recordWakeUp(fired, fired); // on time
    monitor.recordWakeUp(fired + 1_000_000, fired); // early (a spurious unpark) counts as 0

    PauseSnapshot snapshot = monitor.snapshot();
    assertThat(snapshot.wakeUps()).isEqualTo(3);
    assertThat(snapshot.max()).isEqualTo(Duration.ofMillis(1500));
    assertThat(snapshot.p50()).isLessThan(Duration.ofNanos(1000)); // the first bucket: < 1 µs
    assertThat(snapshot.pausesAboveThreshold()).isEqualTo(1);
    assertThat(snapshot.interval()).isEqualTo(Duration.ofMillis(50));
    assertThat(snapshot.threshold()).isEqualTo(Duration.ofMillis(100));
  }

  @Test
  void aPauseLeavesTheWindowAfterTheWindowHasPassed() {
    PauseMonitor monitor = monitor(Duration.ofSeconds(10));
    long fired = clock.advance(Duration.ofMillis(500)); // in the first one-second slice
    monitor.recordWakeUp(fired - Duration.ofSeconds(2).toNanos(), fired);

    clock.advance(Duration.ofMillis(9400)); // 9.9 s after the start: still in the window
    assertThat(monitor.snapshot().max()).isEqualTo(Duration.ofSeconds(2));
    assertThat(monitor.snapshot().observedFor()).isEqualTo(Duration.ofMillis(9900));

    clock.advance(Duration.ofMillis(500)); // 10.4 s: the ten newest slices no longer include it
    PauseSnapshot later = monitor.snapshot();
    assertThat(later.wakeUps()).isZero();
    assertThat(later.max()).isZero();
    assertThat(later.observedFor()).isEqualTo(Duration.ofSeconds(10));
  }

  @Test
  void aSliceReusedAfterAFullTurnOfTheRingStartsEmpty() {
    PauseMonitor monitor = monitor(Duration.ofSeconds(10));
    long due = clock.nanoTime();
    monitor.recordWakeUp(due, clock.advance(Duration.ofMillis(900)));
    clock.advance(Duration.ofSeconds(10)); // same ring index, ten slices later
    long nowDue = clock.nanoTime();
    monitor.recordWakeUp(nowDue, clock.advance(Duration.ofMillis(10)));

    assertThat(monitor.snapshot().wakeUps()).isEqualTo(1);
    assertThat(monitor.snapshot().max()).isEqualTo(Duration.ofMillis(10));
  }

  @Test
  void listenersHearEveryWakeUpAndAFailingOneDoesNotStopTheOthers() {
    PauseMonitor monitor = monitor(Duration.ofMinutes(1));
    List<Long> heard = new ArrayList<>();
    monitor.addListener(
        lateness -> {
          throw new IllegalStateException("listener bug");
        });
    Runnable remove = monitor.addListener(heard::add);
    long due = clock.nanoTime();

    monitor.recordWakeUp(due, clock.advance(Duration.ofMillis(300)));
    remove.run();
    monitor.recordWakeUp(due, clock.nanoTime());

    assertThat(heard).containsExactly(Duration.ofMillis(300).toNanos());
    assertThat(monitor.snapshot().wakeUps()).isEqualTo(2);
  }

  @Test
  void theThreadMeasuresUntilClosedAndAMonitorStartsOnce() throws Exception {
    String name = "pause-monitor-test-" + System.nanoTime();
    PauseMonitor monitor =
        PauseMonitor.builder().interval(Duration.ofMillis(5)).threadName(name).build();
    CountDownLatch threeWakeUps = new CountDownLatch(3);
    monitor.addListener(lateness -> threeWakeUps.countDown());

    monitor.start();
    assertThat(monitor.isRunning()).isTrue();
    assertThat(threeWakeUps.await(30, TimeUnit.SECONDS)).isTrue();
    assertThat(monitor.snapshot().wakeUps()).isGreaterThanOrEqualTo(3);
    assertThat(threadNamed(name)).isTrue();
    assertThatThrownBy(monitor::start)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("Cannot start pause monitor " + name + ": it was already started");

    monitor.close();
    monitor.close();
    assertThat(monitor.isRunning()).isFalse();
    assertThat(threadNamed(name)).as("the monitor thread ended").isFalse();
    assertThatThrownBy(monitor::start).hasMessageContaining("it was already closed");
  }

  private static boolean threadNamed(String name) {
    return Thread.getAllStackTraces().keySet().stream()
        .anyMatch(thread -> thread.getName().equals(name) && thread.isAlive());
  }

  @Test
  void theBuilderRefusesSettingsItCannotMeasureWith() {
    assertThatThrownBy(() -> PauseMonitor.builder().interval(Duration.ofNanos(999_999)))
        .hasMessage("Cannot set pause monitor interval to PT0.000999999S: it is below 1 ms");
    assertThatThrownBy(() -> PauseMonitor.builder().threshold(Duration.ofMillis(-1)))
        .hasMessageContaining("it is negative");
    assertThatThrownBy(() -> PauseMonitor.builder().threadName(" "))
        .hasMessageContaining("thread name: it is blank");
    assertThatThrownBy(
            () ->
                PauseMonitor.builder()
                    .interval(Duration.ofSeconds(1))
                    .window(Duration.ofSeconds(5))
                    .build())
        .hasMessage(
            "Cannot build pause monitor: window PT5S is shorter than 10 intervals of PT1S"
                + " (lengthen the window or shorten the interval)");
  }

  @Test
  void aSnapshotRefusesPercentilesThatDoNotAscend() {
    Duration ms = Duration.ofMillis(1);
    assertThatThrownBy(
            () ->
                new PauseSnapshot(
                    ms, ms, ms, 10, 0, ms, ms, ms, Duration.ofSeconds(2), Duration.ofSeconds(1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("do not ascend");
    assertThatThrownBy(() -> new PauseSnapshot(ms, ms, ms, 1, 2, ms, ms, ms, ms, ms))
        .hasMessageContaining("2 pauses above threshold out of 1 wake-ups");
  }
}
