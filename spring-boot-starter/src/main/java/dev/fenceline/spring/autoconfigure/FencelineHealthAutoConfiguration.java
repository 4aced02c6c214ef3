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

import dev.fenceline.config.ConfiguredDestination;
import dev.fenceline.config.FencelineConfig;
import dev.fenceline.spi.LeaseIssuer;
import dev.fenceline.spring.FencedRuns;
import dev.fenceline.spring.health.FencelineHealthIndicator;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;

/**
 * The {@link FencelineHealthIndicator} ({@code fenceline} in the health endpoint), when Spring
 * Boot's health support ({@code spring-boot-health}, which the actuator brings) is on the class
 * path and the application has Fenceline's beans; {@code management.health.fenceline.enabled=false}
 * turns it off.
 */
@AutoConfiguration(
    after = FencelineAutoConfiguration.class,
    afterName =
        "org.springframework.boot.health.autoconfigure.contributor.HealthContributorAutoConfiguration")
@ConditionalOnClass(HealthIndicator.class)
@ConditionalOnBean({LeaseIssuer.class, FencelineConfig.class, FencedRuns.class})
@ConditionalOnEnabledHealthIndicator("fenceline")
public class FencelineHealthAutoConfiguration {

  /** Fenceline's health indicator. */
  @Bean
  @ConditionalOnMissingBean(name = "fencelineHealthIndicator")
  public FencelineHealthIndicator fencelineHealthIndicator(
      LeaseIssuer issuer,
      FencelineConfig config,
      ObjectProvider<ConfiguredDestination> destinations,
      FencedRuns runs) {
    return new FencelineHealthIndicator(
        issuer, config, () -> destinations.orderedStream().toList(), runs);
  }
}
