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
package dev.fenceline.cli;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;

/**
 * Reads durations as the configuration file writes them: {@code 500ms}, {@code 10s}, {@code 2m}.
 */
final class DurationConverter implements CommandLine.ITypeConverter<Duration> {

  private static final Pattern SIMPLE = Pattern.compile("(\\d{1,9})(ms|s|m|h)");

  @Override
  public Duration convert(String value) {
    Matcher matcher = SIMPLE.matcher(value.trim());
    Duration duration;
    if (matcher.matches()) {
      long amount = Long.parseLong(matcher.group(1));
      duration =
          switch (matcher.group(2)) {
            case "ms" -> Duration.ofMillis(amount);
            case "s" -> Duration.ofSeconds(amount);
            case "m" -> Duration.ofMinutes(amount);
            default -> Duration.ofHours(amount);
          };
    } else {
      try {
        duration = Duration.parse(value.trim());
      } catch (DateTimeParseException e) {
        throw new CommandLine.TypeConversionException(
            Options.quote(value) + " is not a duration (write e.g. 30s, 500ms, 2m or 1h)");
      }
    }
    if (duration.isZero() || duration.isNegative()) {
      throw new CommandLine.TypeConversionException(
          Options.quote(value) + " is not a positive duration (write e.g. 30s)");
    }
    return duration;
  }

  /** {@code 1m30s}-style text for messages. */
  static String format(Duration duration) {
    if (duration.toMillis() % 1000 != 0) {
      return duration.toMillis() + "ms";
    }
    long seconds = duration.toSeconds();
    return seconds % 60 == 0 && seconds > 0 ? seconds / 60 + "m" : seconds + "s";
  }
}
