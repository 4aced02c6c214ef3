package dev.fenceline.config;

import static java.util.Objects.requireNonNull;

import dev.fenceline.spi.Capability;
import dev.fenceline.spi.Guarantee;
import java.util.EnumSet;
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
 */
public record DestinationReport(
    String name,
    String type,
    Set<Capability> capabilities,
    Guarantee guarantee,
    Strategy strategy,
    String why) {

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
  }
}
