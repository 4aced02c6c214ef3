package dev.fenceline.config;

import dev.fenceline.spi.ConfigKey;
import java.time.Duration;
import java.util.Optional;

/**
 * Durations as people write them ({@code 500ms}, {@code 10s}, {@code 2m}, {@code 1h}, {@code 7d},
 * ISO-8601), read by the one parser the adapters use too ({@link ConfigKey#parseDuration}).
 */
final class Durations {

  private Durations() {}

  /** The duration {@code text} stands for, or empty if it is not one. */
  static Optional<Duration> parse(String text) {
    return ConfigKey.parseDuration(text);
  }

  /** {@code duration} for messages: {@code 500ms}, {@code 30s} or ISO-8601. */
  static String format(Duration duration) {
    if (duration.toNanos() % 1_000_000 == 0 && duration.toMillis() % 1000 != 0) {
      return duration.toMillis() + "ms";
    }
    if (duration.getNano() == 0) {
      return duration.getSeconds() + "s";
    }
    return duration.toString();
  }
}
