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
