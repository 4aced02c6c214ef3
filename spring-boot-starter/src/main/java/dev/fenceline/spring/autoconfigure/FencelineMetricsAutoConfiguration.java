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

import dev.fenceline.core.Fenceline;
import dev.fenceline.core.monitor.FencelineMeterBinder;
import dev.fenceline.core.monitor.PauseMonitor;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Fenceline's Micrometer meters, when the application has a {@link MeterRegistry}: {@code
 * fenceline.pause}, {@code fenceline.lease.takeovers}, {@code fenceline.lease.lost}, {@code
 * fenceline.fencing.stale.rejections} ({@link FencelineMeterBinder}, over the {@link Fenceline}
 * bean's counters and a {@link PauseMonitor}) and {@code fenceline.fenced.runs} ({@link
 * FencedRunCounter}).
 */
@AutoConfiguration(
    after = FencelineAutoConfiguration.class,
    afterName = {
      "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
      "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
      "org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration"
    })
@ConditionalOnClass({MeterRegistry.class, FencelineMeterBinder.class})
@ConditionalOnBean({MeterRegistry.class, Fenceline.class})
public class FencelineMetricsAutoConfiguration {

  /** Measures this process's stalls (GC, stop, CPU starvation) for {@code fenceline.pause}. */
  @Bean(destroyMethod = "close")
  @ConditionalOnMissingBean
  public PauseMonitor fencelinePauseMonitor() {
    return PauseMonitor.builder().threadName("fenceline-pause-monitor").build().start();
  }

  /** The meters over the {@link Fenceline} bean's counters; bound by Spring Boot's metrics. */
  @Bean(destroyMethod = "close")
  @ConditionalOnMissingBean
  public FencelineMeterBinder fencelineMeterBinder(PauseMonitor monitor, Fenceline fenceline) {
    return new FencelineMeterBinder(monitor, fenceline.metrics());
  }

  /** Counts {@code @Fenced} calls by resource and outcome. */
  @Bean
  @ConditionalOnMissingBean
  public FencedRunCounter fencelineFencedRunCounter(MeterRegistry registry) {
    return new FencedRunCounter(registry);
  }
}
