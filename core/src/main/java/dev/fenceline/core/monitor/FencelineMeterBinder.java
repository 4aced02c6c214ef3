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

import static java.util.Objects.requireNonNull;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Publishes a {@link PauseMonitor} and {@link FencingMetrics} as Micrometer meters. This is the
 * only Fenceline class that needs {@code io.micrometer:micrometer-core}, an optional dependency:
 * add it to your build to use this class; the monitor and the counters work without it.
 *
 * <ul>
 *   <li>{@code fenceline.pause} (timer): how late each wake-up of the monitor fired;
 *   <li>{@code fenceline.lease.takeovers}, {@code fenceline.lease.lost}, {@code
 *       fenceline.fencing.stale.rejections} (function counters over {@link FencingMetrics}).
 * </ul>
 *
 * Percentiles and histograms of {@code fenceline.pause} are configured the Micrometer way, with a
 * {@code MeterFilter}. {@link #close()} stops recording and removes the meters from every registry
 * this binder was bound to.
 */
public final class FencelineMeterBinder implements MeterBinder, AutoCloseable {

  private final PauseMonitor monitor;
  private final FencingMetrics metrics;
  private final Tags tags;
  private final List<Runnable> undo = new ArrayList<>();

  /** Meters for {@code monitor} and {@code metrics}, without extra tags. */
  public FencelineMeterBinder(PauseMonitor monitor, FencingMetrics metrics) {
    this(monitor, metrics, Tags.empty());
  }

  /** Meters for {@code monitor} and {@code metrics}, each tagged with {@code tags}. */
  public FencelineMeterBinder(PauseMonitor monitor, FencingMetrics metrics, Iterable<Tag> tags) {
    this.monitor = requireNonNull(monitor, "monitor is null");
    this.metrics = requireNonNull(metrics, "metrics is null");
    this.tags = Tags.of(requireNonNull(tags, "tags is null"));
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    requireNonNull(registry, "registry is null");
    Timer pause =
        Timer.builder("fenceline.pause")
            .description(
                "How late the pause monitor's wake-up fired: a stall of this process (GC, stop,"
                    + " CPU starvation)")
            .tags(tags)
            .register(registry);
    List<Meter> meters = new ArrayList<>();
    meters.add(pause);
    meters.add(
        counter(
            registry,
            "fenceline.lease.takeovers",
            "Leases acquired after an earlier holder's lease expired unreleased",
            FencingMetrics::takeovers));
    meters.add(
        counter(
            registry,
            "fenceline.lease.lost",
            "Leases this process lost before releasing them",
            FencingMetrics::lostLeases));
    meters.add(
        counter(
            registry,
            "fenceline.fencing.stale.rejections",
            "Writes a destination refused because their epoch was stale",
            FencingMetrics::staleRejections));
    Runnable removeListener =
        monitor.addListener(lateness -> pause.record(lateness, TimeUnit.NANOSECONDS));
    synchronized (undo) {
      undo.add(
          () -> {
            removeListener.run();
            meters.forEach(registry::remove);
          });
    }
  }

  private FunctionCounter counter(
      MeterRegistry registry,
      String name,
      String description,
      java.util.function.ToDoubleFunction<FencingMetrics> count) {
    return FunctionCounter.builder(name, metrics, count)
        .description(description)
        .tags(tags)
        .register(registry);
  }

  /** Stops recording pauses and removes this binder's meters from the registries. Idempotent. */
  @Override
  public void close() {
    List<Runnable> actions;
    synchronized (undo) {
      actions = List.copyOf(undo);
      undo.clear();
    }
    actions.forEach(Runnable::run);
  }
}
