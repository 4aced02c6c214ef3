package dev.fenceline.config;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.Optional;
import java.util.Set;

/**
 * A destination that publishes files to a store's blob store through a fenced publish pointer
 * ({@code dev.fenceline.staging.StagedDestination}); the default destination type.
 *
 * <table>
 *   <caption>staged destination keys</caption>
 *   <tr><th>key</th><th>meaning</th><th>default</th></tr>
 *   <tr><td>{@code store}</td><td>the store whose blob store holds the files</td><td>required</td></tr>
 *   <tr><td>{@code pointer-store}</td><td>the store whose pointer store publishes them (overrides
 *       the store's own)</td><td>the store's own if it offers one that passes its checks; else, for a
 *       store without one (vfs), the issuer's store; an s3 store whose probe failed is refused
 *       until this is set</td></tr>
 *   <tr><td>{@code prefix}</td><td>key prefix of the staging area</td><td>none</td></tr>
 *   <tr><td>{@code sweep-grace}</td><td>how long an unpublished staged file is left alone</td>
 *       <td>{@code 1h}</td></tr>
 *   <tr><td>{@code keep-versions}</td><td>published versions a sweep keeps</td><td>{@code 3}</td></tr>
 *   <tr><td>{@code sweep-after-publish}</td><td>{@code fenceline publish} and {@code run
 *       --publish} sweep the published resource after each successful publish, so {@code
 *       keep-versions} and {@code sweep-grace} take effect without a separate {@code fenceline
 *       sweep}</td><td>{@code true}</td></tr>
 * </table>
 *
 * @param store the store's name
 * @param pointerStore the pointer store's store name, if set
 * @param prefix see the table
 * @param sweepGrace see the table
 * @param keepVersions see the table
 * @param sweepAfterPublish see the table
 */
public record StagedDestinationConfig(
    String store,
    Optional<String> pointerStore,
    Optional<String> prefix,
    Duration sweepGrace,
    int keepVersions,
    boolean sweepAfterPublish) {

  static final Set<String> KEYS =
      Set.of(
          "type",
          "store",
          "pointer-store",
          "prefix",
          "sweep-grace",
          "keep-versions",
          "sweep-after-publish");

  /** Validates the settings. */
  public StagedDestinationConfig {
    requireNonNull(store, "store is null");
    requireNonNull(pointerStore, "pointerStore is null");
    requireNonNull(prefix, "prefix is null");
    requireNonNull(sweepGrace, "sweepGrace is null");
    if (sweepGrace.isNegative()) {
      throw new IllegalArgumentException(
          "Cannot use sweep grace " + sweepGrace + ": it is negative");
    }
    if (keepVersions < 1) {
      throw new IllegalArgumentException(
          "Cannot keep " + keepVersions + " versions: the current one is always kept (1 or more)");
    }
  }

  static StagedDestinationConfig from(Section section) {
    section.allowOnly(KEYS);
    return new StagedDestinationConfig(
        section.requiredString("store", "reports-dir"),
        section.string("pointer-store"),
        section.string("prefix"),
        section.duration("sweep-grace").orElse(Duration.ofHours(1)),
        section.integer("keep-versions", 1, 10_000).orElse(3),
        section.bool("sweep-after-publish").orElse(true));
  }
}
