package dev.fenceline.config;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Durations as people write them: {@code 500ms}, {@code 10s}, {@code 2m}, {@code 1h}, ISO-8601. */
final class Durations {

  private static final Pattern SIMPLE = Pattern.compile("([0-9]{1,12})\\s*(ms|s|m|h|d)");

  private Durations() {}

  /** The duration {@code text} stands for, or empty if it is not one. */
  static Optional<Duration> parse(String text) {
    String value = text.strip();
    if (value.equals("0")) {
      return Optional.of(Duration.ZERO);
    }
    Matcher matcher = SIMPLE.matcher(value);
    if (matcher.matches()) {
      long number = Long.parseLong(matcher.group(1));
      return Optional.of(
          switch (matcher.group(2)) {
            case "ms" -> Duration.ofMillis(number);
            case "s" -> Duration.ofSeconds(number);
            case "m" -> Duration.ofMinutes(number);
            case "h" -> Duration.ofHours(number);
            default -> Duration.ofDays(number);
          });
    }
    if (value.startsWith("PT") || value.startsWith("P")) {
      try {
        return Optional.of(Duration.parse(value));
      } catch (DateTimeParseException e) {
        return Optional.empty();
      }
    }
    return Optional.empty();
  }

  /**
   * {@code duration} as the adapters' flat configuration reads it ({@code 500ms}, {@code 30s} or
   * ISO-8601).
   */
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
