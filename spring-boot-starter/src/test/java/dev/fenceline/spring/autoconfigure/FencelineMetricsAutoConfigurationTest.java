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
package dev.fenceline.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fenceline.core.Fenceline;
import dev.fenceline.core.HeldLease;
import dev.fenceline.core.monitor.FencelineMeterBinder;
import dev.fenceline.core.monitor.FencingMetrics;
import dev.fenceline.core.monitor.PauseMonitor;
import dev.fenceline.spi.LeaseIssuer;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spring.Fenced;
import dev.fenceline.spring.TestApps;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** {@link FencelineMetricsAutoConfiguration}: present with a MeterRegistry, absent, overridden. */
class FencelineMetricsAutoConfigurationTest {

  @TempDir Path directory;

  private ApplicationContextRunner withMetrics() {
    return TestApps.onSqlite(directory)
        .withConfiguration(
            AutoConfigurations.of(
                MetricsAutoConfiguration.class,
                CompositeMeterRegistryAutoConfiguration.class,
                SimpleMetricsExportAutoConfiguration.class));
  }

  @Test
  void theMetersAreRegisteredAndCountWhatFencelineSees() {
    withMetrics()
        .withPropertyValues("fenceline.lease.holder=worker-a")
        .withBean(SkippedJob.class)
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(context)
                  .hasSingleBean(FencelineMeterBinder.class)
                  .hasSingleBean(PauseMonitor.class)
                  .hasSingleBean(FencedRunCounter.class);
              MeterRegistry registry = context.getBean(MeterRegistry.class);
              assertThat(registry.find("fenceline.pause").timer()).isNotNull();
              assertThat(registry.get("fenceline.lease.lost").functionCounter().count()).isZero();
              assertThat(registry.find("fenceline.lease.takeovers").functionCounter()).isNotNull();
              assertThat(registry.find("fenceline.fencing.stale.rejections").functionCounter())
                  .isNotNull();

              // Another holder has the lease: the fenced call is skipped and counted.
              Fenceline other =
                  Fenceline.builder()
                      .issuer(context.getBean(LeaseIssuer.class))
                      .holder("worker-b")
                      .renewEvery(Duration.ZERO)
                      .build();
              try (HeldLease held = other.tryAcquire(ResourceId.of("nightly-report")).get()) {
                context.getBean(SkippedJob.class).run();
              } finally {
                other.close();
              }
              context.getBean(SkippedJob.class).run();
              assertThat(runs(registry, "skipped")).isEqualTo(1);
              assertThat(runs(registry, "completed")).isEqualTo(1);

              // The counters are the Fenceline bean's.
              FencingMetrics metrics = context.getBean(Fenceline.class).metrics();
              metrics.recordLostLease();
              assertThat(registry.get("fenceline.lease.lost").functionCounter().count())
                  .isEqualTo(1);
            });
  }

  @Test
  void closingTheContextStopsThePauseMonitor() {
    PauseMonitor[] monitor = new PauseMonitor[1];
    withMetrics()
        .run(
            context -> {
              monitor[0] = context.getBean(PauseMonitor.class);
              assertThat(monitor[0].isRunning()).isTrue();
            });
    assertThat(monitor[0].isRunning()).isFalse();
  }

  @Test
  void absentWithoutAMeterRegistryOrMicrometer() {
    TestApps.onSqlite(directory)
        .run(
            context ->
                assertThat(context)
                    .hasNotFailed()
                    .doesNotHaveBean(FencelineMeterBinder.class)
                    .doesNotHaveBean(PauseMonitor.class)
                    .doesNotHaveBean(FencedRunCounter.class));
    TestApps.onSqlite(directory)
        .withBean(io.micrometer.core.instrument.simple.SimpleMeterRegistry.class)
        .withClassLoader(new FilteredClassLoader(MeterRegistry.class))
        .run(
            context ->
                assertThat(context)
                    .hasNotFailed()
                    .doesNotHaveBean(FencelineMeterBinder.class)
                    .doesNotHaveBean(FencedRunCounter.class));
  }

  @Test
  void theApplicationsOwnBeansWin() {
    PauseMonitor monitor = PauseMonitor.builder().build();
    withMetrics()
        .withBean("myMonitor", PauseMonitor.class, () -> monitor)
        .run(
            context -> {
              assertThat(context).hasNotFailed().hasSingleBean(PauseMonitor.class);
              assertThat(context.getBean(PauseMonitor.class)).isSameAs(monitor);
              assertThat(context.getBean(FencelineMeterBinder.class)).isNotNull();
            });
    FencelineMeterBinder binder =
        new FencelineMeterBinder(PauseMonitor.builder().build(), new FencingMetrics());
    withMetrics()
        .withBean("myBinder", FencelineMeterBinder.class, () -> binder)
        .run(
            context -> {
              assertThat(context).hasNotFailed().hasSingleBean(FencelineMeterBinder.class);
              assertThat(context.getBean(FencelineMeterBinder.class)).isSameAs(binder);
            });
  }

  private static double runs(MeterRegistry registry, String outcome) {
    return registry
        .get("fenceline.fenced.runs")
        .tag("resource", "nightly-report")
        .tag("outcome", outcome)
        .counter()
        .count();
  }

  public static class SkippedJob {
    @Fenced(resource = "nightly-report")
    public void run() {}
  }
}
