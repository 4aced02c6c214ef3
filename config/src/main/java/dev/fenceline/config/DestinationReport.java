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
 */
public record DestinationReport(
    String name,
    String type,
    Set<Capability> capabilities,
    Guarantee guarantee,
    Strategy strategy,
    String why,
    Optional<String> resendRule) {

  /** A report without a re-send rule (a destination that is not {@code http}). */
  public DestinationReport(
      String name,
      String type,
      Set<Capability> capabilities,
      Guarantee guarantee,
      Strategy strategy,
      String why) {
    this(name, type, capabilities, guarantee, strategy, why, Optional.empty());
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
  }
}
