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
package dev.fenceline.config;

import static java.util.Objects.requireNonNull;

import dev.fenceline.spi.FencingToken;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Set;

/**
 * The {@code lease:} section.
 *
 * <table>
 *   <caption>lease keys</caption>
 *   <tr><th>key</th><th>meaning</th><th>default</th></tr>
 *   <tr><td>{@code ttl}</td><td>lease length; choose it from observed pauses (R8)</td>
 *       <td>{@code 30s}</td></tr>
 *   <tr><td>{@code renew-every}</td><td>background renewal period, shorter than the ttl;
 *       {@code 0} turns it off</td><td>a third of the ttl</td></tr>
 *   <tr><td>{@code holder}</td><td>this worker's name, unique per worker instance</td>
 *       <td>{@code host:pid}</td></tr>
 * </table>
 *
 * @param ttl the lease length, positive
 * @param renewEvery the renewal period, shorter than {@code ttl}; zero turns background renewal off
 * @param holder this worker's name
 */
public record LeaseConfig(Duration ttl, Duration renewEvery, String holder) {

  static final Set<String> KEYS = Set.of("ttl", "renew-every", "holder");

  /** The default lease length. */
  public static final Duration DEFAULT_TTL = Duration.ofSeconds(30);

  /** Validates the settings. */
  public LeaseConfig {
    requireNonNull(ttl, "ttl is null");
    requireNonNull(renewEvery, "renewEvery is null");
    FencingToken.validateHolder(holder);
    if (ttl.isZero() || ttl.isNegative()) {
      throw new IllegalArgumentException("Cannot use lease ttl " + ttl + ": it must be positive");
    }
    if (renewEvery.isNegative() || renewEvery.compareTo(ttl) >= 0) {
      throw new IllegalArgumentException(
          "Cannot renew every "
              + renewEvery
              + " with lease ttl "
              + ttl
              + ": the period must be zero or shorter than the ttl (e.g. a third of it)");
    }
  }

  /** The defaults: 30 s ttl, renewed every 10 s, held as {@code host:pid}. */
  public static LeaseConfig defaults() {
    return new LeaseConfig(DEFAULT_TTL, DEFAULT_TTL.dividedBy(3), defaultHolder());
  }

  /** {@code host:pid} of this process. */
  public static String defaultHolder() {
    String host;
    try {
      host = InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      host = "localhost";
    }
    String holder = host + ":" + ProcessHandle.current().pid();
    try {
      return FencingToken.validateHolder(holder);
    } catch (IllegalArgumentException e) {
      // A host name a holder cannot carry (too long, odd characters).
      return "localhost:" + ProcessHandle.current().pid();
    }
  }

  static LeaseConfig from(Section section) {
    section.allowOnly(KEYS);
    Duration ttl = section.positiveDuration("ttl").orElse(DEFAULT_TTL);
    Duration renewEvery = section.duration("renew-every").orElse(ttl.dividedBy(3));
    if (renewEvery.compareTo(ttl) >= 0) {
      throw section.valueError(
          "renew-every",
          "renew-every "
              + Durations.format(renewEvery)
              + " is not shorter than ttl "
              + Durations.format(ttl),
          "the lease would expire between renewals; use a third of the ttl, e.g. "
              + Durations.format(ttl.dividedBy(3)));
    }
    String holder = section.string("holder").orElseGet(LeaseConfig::defaultHolder);
    try {
      FencingToken.validateHolder(holder);
    } catch (IllegalArgumentException e) {
      throw section.valueError("holder", e.getMessage(), "e.g. worker-a@host-1");
    }
    return new LeaseConfig(ttl, renewEvery, holder);
  }
}
