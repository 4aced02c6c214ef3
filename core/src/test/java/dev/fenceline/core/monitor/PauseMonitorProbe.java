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

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * A child JVM for {@link PauseMonitorStallTest}. Mode {@code stall}: starts a monitor, prints
 * {@code READY}, prints {@code PAUSE <nanos>} for every wake-up at least 200 ms late, and answers
 * {@code SNAPSHOT} on stdin with {@code SNAPSHOT <max-nanos> <pauses-above-threshold>}; ends on
 * {@code EXIT} or end of input. Mode {@code without-micrometer}: uses the monitor, the counters and
 * the advice and prints whether Micrometer was on the class path, then {@code OK}.
 */
public final class PauseMonitorProbe {

  private PauseMonitorProbe() {}

  public static void main(String[] args) throws Exception {
    switch (args[0]) {
      case "stall" -> stall();
      case "without-micrometer" -> withoutMicrometer();
      default -> throw new IllegalArgumentException("Cannot run probe: unknown mode " + args[0]);
    }
  }

  private static void stall() throws Exception {
    long threshold = Duration.ofMillis(200).toNanos();
    try (PauseMonitor monitor =
        PauseMonitor.builder()
            .interval(Duration.ofMillis(20))
            .threshold(Duration.ofMillis(200))
            .build()) {
      monitor.addListener(
          lateness -> {
            if (lateness >= threshold) {
              System.out.println("PAUSE " + lateness);
            }
          });
      monitor.start();
      System.out.println("READY");
      BufferedReader in =
          new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        if (line.equals("SNAPSHOT")) {
          PauseSnapshot snapshot = monitor.snapshot();
          System.out.println(
              "SNAPSHOT " + snapshot.max().toNanos() + " " + snapshot.pausesAboveThreshold());
        } else if (line.equals("EXIT")) {
          return;
        }
      }
    }
  }

  private static void withoutMicrometer() {
    boolean micrometer;
    try {
      Class.forName("io.micrometer.core.instrument.MeterRegistry");
      micrometer = true;
    } catch (ClassNotFoundException e) {
      micrometer = false;
    }
    System.out.println(micrometer ? "MICROMETER-PRESENT" : "MICROMETER-ABSENT");
    FencingMetrics metrics = new FencingMetrics();
    metrics.recordTakeover();
    try (PauseMonitor monitor =
        PauseMonitor.builder().interval(Duration.ofMillis(5)).build().start()) {
      LeaseAdvice advice =
          LeaseAdvice.basedOn(monitor.snapshot()).fencingCounts(metrics.counts()).advise();
      System.out.println("OK " + advice);
    }
  }
}
