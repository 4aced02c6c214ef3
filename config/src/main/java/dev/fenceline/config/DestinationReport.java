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

import dev.fenceline.spi.Capability;
import dev.fenceline.spi.Guarantee;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

/**
 * What {@code fenceline doctor} prints for one destination. Holds no secrets.
 *
 * @param name the destination's name
 * @param type the type of the store it writes to ({@code vfs}, {@code s3}, ...) or {@code http}
 * @param capabilities what the destination can check and record by itself
 * @param guarantee the guarantee those capabilities support
 * @param strategy how stale writers are kept out
 * @param why which stores were chosen and why, in one sentence
 * @param resendRule for an {@code http} destination, what it does before sending a request again
 *     that may have reached the API, and what that can still let through ({@code
 *     HttpApiDestination#describeResendRule}); empty for other destinations
 * @param notUsable why publishing to it would fail here (a store that cannot be written, an unset
 *     token variable), from {@link FencelineConfig#check()}; empty if it is usable
 */
public record DestinationReport(
    String name,
    String type,
    Set<Capability> capabilities,
    Guarantee guarantee,
    Strategy strategy,
    String why,
    Optional<String> resendRule,
    Optional<String> notUsable) {

  /** A usable destination's report. */
  public DestinationReport(
      String name,
      String type,
      Set<Capability> capabilities,
      Guarantee guarantee,
      Strategy strategy,
      String why,
      Optional<String> resendRule) {
    this(name, type, capabilities, guarantee, strategy, why, resendRule, Optional.empty());
  }

  /** A report without a re-send rule (a destination that is not {@code http}). */
  public DestinationReport(
      String name,
      String type,
      Set<Capability> capabilities,
      Guarantee guarantee,
      Strategy strategy,
      String why) {
    this(name, type, capabilities, guarantee, strategy, why, Optional.empty(), Optional.empty());
  }

  /** Validates the report. */
  public DestinationReport {
    requireNonNull(name, "name is null");
    requireNonNull(type, "type is null");
    capabilities =
        capabilities.isEmpty()
            ? Set.of()
            : java.util.Collections.unmodifiableSet(EnumSet.copyOf(capabilities));
    requireNonNull(guarantee, "guarantee is null");
    requireNonNull(strategy, "strategy is null");
    requireNonNull(why, "why is null");
    requireNonNull(resendRule, "resendRule is null");
    requireNonNull(notUsable, "notUsable is null");
  }

  /** This report, marked as not usable for {@code reason}. */
  public DestinationReport withNotUsable(String reason) {
    requireNonNull(reason, "reason is null");
    return new DestinationReport(
        name, type, capabilities, guarantee, strategy, why, resendRule, Optional.of(reason));
  }
}
