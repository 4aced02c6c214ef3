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
package dev.fenceline.spring.health;

import static java.util.Objects.requireNonNull;

import dev.fenceline.config.ConfiguredDestination;
import dev.fenceline.config.FencelineConfig;
import dev.fenceline.core.HeldLease;
import dev.fenceline.spi.Guarantee;
import dev.fenceline.spi.LeaseIssuer;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spring.FencedRuns;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * Fenceline's health ({@code fenceline} in the health endpoint): the issuer answers, every
 * destination may be published to under the {@code allow-*} flags, and which {@link
 * dev.fenceline.spring.Fenced} calls hold leases now.
 *
 * <ul>
 *   <li>{@code issuer}: {@code id} and {@code reachable}; a status read of resource {@value #PROBE}
 *       that fails makes the health DOWN with the issuer's {@code error};
 *   <li>{@code destinations}: per destination its {@code guarantee}, {@code strategy}, {@code why}
 *       and {@code allowed}; one whose guarantee the {@code allow-*} flags do not accept (every
 *       publish to it would be refused) makes the health DOWN;
 *   <li>{@code leases}: per running {@code @Fenced} call its {@code resource}, {@code epoch},
 *       {@code state}, {@code remainingMillis} (of the local belief) and {@code method}.
 * </ul>
 *
 * Messages are masked with the configuration's secrets.
 */
public final class FencelineHealthIndicator implements HealthIndicator {

  /** The resource whose status is read to see that the issuer answers (never acquired). */
  public static final String PROBE = "fenceline-health";

  private final LeaseIssuer issuer;
  private final FencelineConfig config;
  private final Supplier<List<ConfiguredDestination>> destinations;
  private final FencedRuns runs;

  /**
   * An indicator over the application's issuer, configuration, destinations and fenced calls.
   *
   * @param issuer the application's issuer
   * @param config the configuration: its {@code allow-*} flags and secrets
   * @param destinations the application's destinations, read at each check
   * @param runs the running {@code @Fenced} calls
   */
  public FencelineHealthIndicator(
      LeaseIssuer issuer,
      FencelineConfig config,
      Supplier<List<ConfiguredDestination>> destinations,
      FencedRuns runs) {
    this.issuer = requireNonNull(issuer, "issuer is null");
    this.config = requireNonNull(config, "config is null");
    this.destinations = requireNonNull(destinations, "destinations is null");
    this.runs = requireNonNull(runs, "runs is null");
  }

  @Override
  public Health health() {
    Health.Builder health = Health.up();
    Map<String, Object> issuerDetails = new LinkedHashMap<>();
    issuerDetails.put("id", issuer.id());
    try {
      issuer.status(ResourceId.of(PROBE));
      issuerDetails.put("reachable", true);
    } catch (RuntimeException e) {
      issuerDetails.put("reachable", false);
      issuerDetails.put("error", config.mask(String.valueOf(e.getMessage())));
      health.down();
    }
    health.withDetail("issuer", issuerDetails);

    Guarantee weakest = weakestAllowed();
    Map<String, Object> destinationDetails = new LinkedHashMap<>();
    for (ConfiguredDestination destination : destinations.get()) {
      Map<String, Object> details = new LinkedHashMap<>();
      boolean allowed = destination.guarantee().compareTo(weakest) <= 0;
      details.put("guarantee", destination.guarantee().name());
      details.put("strategy", destination.strategy().name());
      details.put("why", config.mask(destination.why()));
      details.put("allowed", allowed);
      if (!allowed) {
        health.down();
      }
      destinationDetails.put(destination.name(), details);
    }
    health.withDetail("destinations", destinationDetails);

    List<Map<String, Object>> leases = new ArrayList<>();
    for (FencedRuns.Run run : runs.running()) {
      HeldLease lease = run.lease();
      Map<String, Object> details = new LinkedHashMap<>();
      details.put("resource", lease.token().resource().value());
      details.put("epoch", lease.token().epoch().value());
      details.put("state", lease.state().name());
      details.put("remainingMillis", lease.remaining().toMillis());
      details.put(
          "method",
          run.method().getDeclaringClass().getSimpleName() + "." + run.method().getName());
      leases.add(details);
    }
    health.withDetail("leases", leases);
    return health.build();
  }

  /** The weakest guarantee the configuration lets {@code Fenceline.publish} accept. */
  private Guarantee weakestAllowed() {
    if (config.allowUnguarded()) {
      return Guarantee.UNGUARDED;
    }
    if (config.allowIdempotentOnly()) {
      return Guarantee.IDEMPOTENT_ONLY;
    }
    return config.allowFencedAtIntent() ? Guarantee.FENCED_AT_INTENT : Guarantee.FENCED_BY_STAGING;
  }
}
