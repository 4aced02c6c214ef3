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
package dev.fenceline.spi;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One configuration key an adapter understands, declared once by its {@link
 * AdapterFactory#configKeys()}: its name, type, default, whether it is required or secret, and what
 * it means. Fenceline's YAML loader refuses unknown keys (naming the closest known one), checks
 * each value against its type, points at the line of a value the adapter refused, and masks secret
 * values everywhere; the configuration reference is generated from the same declarations, so docs
 * and code cannot drift.
 *
 * <p>Keys are kebab-case. A dotted name ({@code backoff.initial}) is a key of a nested mapping
 * ({@code backoff:} with {@code initial:} below it); a key of type {@link Type#MAP} takes a mapping
 * of names to values. In the flat configuration an adapter receives ({@link AdapterFactory#create})
 * nested keys keep their dotted names, and a map's entries are {@code name.entry}.
 *
 * <pre>{@code
 * ConfigKey.duration("lock-timeout")
 *     .defaultValue(Duration.ofSeconds(8))
 *     .description("How long a step waits for another writer's lock.")
 *     .build();
 * }</pre>
 *
 * @param name the key, kebab-case, dots separating nested mappings
 * @param type how its value is written and checked
 * @param description one line saying what it does, for the reference and for messages
 * @param defaultValue the value used when the key is not set, as it would be written; empty if
 *     there is none (a required key, or one whose absence means "off", which the description says)
 * @param required whether the key must be set
 * @param secret whether the value is a secret (a password, a token): never shown, masked in every
 *     message
 * @param example a value to show in the message for a missing key, such as {@code
 *     jdbc:sqlite:/var/lib/fenceline/fenceline.db}
 * @param min the smallest value of an {@link Type#INTEGER}, {@link Type#DECIMAL} or {@link
 *     Type#SIZE} (in bytes); for a {@link Type#DURATION}, 0 allows zero and 1 requires a positive
 *     duration
 * @param max the largest value of an {@link Type#INTEGER}, {@link Type#DECIMAL} or {@link
 *     Type#SIZE} (in bytes)
 * @param choices the allowed values of a {@link Type#CHOICE}, else empty
 * @param bounds how the allowed range of an {@link Type#INTEGER}, {@link Type#DECIMAL} or {@link
 *     Type#SIZE} is written in messages and the reference, when {@code min to max} does not say
 *     enough, such as {@code 5MiB (S3's smallest part) to 512MiB}; else empty
 */
public record ConfigKey(
    String name,
    Type type,
    String description,
    Optional<String> defaultValue,
    boolean required,
    boolean secret,
    Optional<String> example,
    long min,
    long max,
    List<String> choices,
    Optional<String> bounds) {

  /** The rule for a key's name: kebab-case words, dots between the names of nested mappings. */
  public static final Pattern NAME =
      Pattern.compile("[a-z][a-z0-9]*(-[a-z0-9]+)*(\\.[a-z][a-z0-9]*(-[a-z0-9]+)*)*");

  private static final Pattern SIMPLE_DURATION = Pattern.compile("([0-9]{1,12})\\s*(ms|s|m|h|d)");
  private static final Pattern SIZE =
      Pattern.compile("([0-9]{1,12})\\s*(B|KiB|MiB|GiB)?", Pattern.CASE_INSENSITIVE);

  /** How a value is written and checked. */
  public enum Type {
    /** Any text. */
    STRING,
    /** An absolute URI with a scheme, such as {@code https://s3.example.com}. */
    URI,
    /** {@code true} or {@code false}. */
    BOOLEAN,
    /** A whole number from {@link #min} to {@link #max}. */
    INTEGER,
    /** A decimal number from {@link #min} to {@link #max}. */
    DECIMAL,
    /**
     * A duration: {@code 500ms}, {@code 30s}, {@code 2m}, {@code 1h}, {@code 7d}, ISO-8601 such as
     * {@code PT30S}, or {@code 0} where zero is allowed ({@link #min} 0).
     */
    DURATION,
    /** A size in bytes: {@code 5242880}, {@code 512KiB}, {@code 16MiB}, {@code 1GiB}. */
    SIZE,
    /** One of {@link #choices}. */
    CHOICE,
    /** A mapping of names to text values, such as {@code receipt-fields: {payment-id: /id}}. */
    MAP
  }

  /**
   * Validates the declaration.
   *
   * @param name the key's name: kebab-case words, dots between nested mappings
   * @param type the value's type
   * @param description what the key does, in one line
   * @param defaultValue the default value, as written in a configuration file
   * @param required whether the key must be set
   * @param secret whether the value is a secret
   * @param example an example value
   * @param min the smallest allowed value
   * @param max the largest allowed value
   * @param choices the allowed values
   * @param bounds how the allowed range is written, if {@code min to max} does not say enough
   */
  public ConfigKey {
    requireNonNull(name, "name is null");
    requireNonNull(type, "type is null");
    requireNonNull(description, "description is null");
    requireNonNull(defaultValue, "defaultValue is null");
    requireNonNull(example, "example is null");
    choices = List.copyOf(requireNonNull(choices, "choices is null"));
    requireNonNull(bounds, "bounds is null");
    if (!NAME.matcher(name).matches()) {
      throw new IllegalArgumentException(
          "Cannot declare key "
              + Text.quoteForMessage(name)
              + ": use kebab-case words, dots between nested mappings (e.g. lock-timeout)");
    }
    if (description.isBlank()) {
      throw new IllegalArgumentException("Cannot declare key " + name + ": it has no description");
    }
    if (required && defaultValue.isPresent()) {
      throw new IllegalArgumentException(
          "Cannot declare key " + name + ": a required key has no default");
    }
    if (type == Type.CHOICE && choices.isEmpty()) {
      throw new IllegalArgumentException("Cannot declare key " + name + ": a choice needs choices");
    }
    if (type != Type.CHOICE && !choices.isEmpty()) {
      throw new IllegalArgumentException(
          "Cannot declare key " + name + ": only a choice has choices");
    }
    if (min > max) {
      throw new IllegalArgumentException(
          "Cannot declare key " + name + ": min " + min + " is above max " + max);
    }
    if (defaultValue.isPresent()) {
      Optional<String> problem = problemWith(type, min, max, choices, bounds, defaultValue.get());
      if (problem.isPresent()) {
        throw new IllegalArgumentException(
            "Cannot declare key " + name + ": its default " + problem.get());
      }
    }
  }

  /**
   * {@return a key whose value is any text}
   *
   * @param name the key's name: kebab-case words, dots between nested mappings
   */
  public static Builder string(String name) {
    return new Builder(name, Type.STRING);
  }

  /**
   * {@return a key whose value is an absolute URI}
   *
   * @param name the key's name: kebab-case words, dots between nested mappings
   */
  public static Builder uri(String name) {
    return new Builder(name, Type.URI);
  }

  /**
   * {@return a key whose value is {@code true} or {@code false}}
   *
   * @param name the key's name: kebab-case words, dots between nested mappings
   */
  public static Builder bool(String name) {
    return new Builder(name, Type.BOOLEAN);
  }

  /**
   * {@return a key whose value is a whole number from {@code min} to {@code max}}
   *
   * @param name the key's name: kebab-case words, dots between nested mappings
   * @param min the smallest allowed value
   * @param max the largest allowed value
   */
  public static Builder integer(String name, long min, long max) {
    return new Builder(name, Type.INTEGER).range(min, max);
  }

  /**
   * {@return a key whose value is a decimal number from {@code min} to {@code max}}
   *
   * @param name the key's name: kebab-case words, dots between nested mappings
   * @param min the smallest allowed value
   * @param max the largest allowed value
   */
  public static Builder decimal(String name, long min, long max) {
    return new Builder(name, Type.DECIMAL).range(min, max);
  }

  /**
   * {@return a key whose value is a positive duration (see {@link Builder#zeroAllowed()})}
   *
   * @param name the key's name: kebab-case words, dots between nested mappings
   */
  public static Builder duration(String name) {
    return new Builder(name, Type.DURATION).range(1, Long.MAX_VALUE);
  }

  /**
   * {@return a key whose value is a size from {@code min} to {@code max} bytes}
   *
   * @param name the key's name: kebab-case words, dots between nested mappings
   * @param min the smallest allowed value
   * @param max the largest allowed value
   */
  public static Builder size(String name, long min, long max) {
    return new Builder(name, Type.SIZE).range(min, max);
  }

  /**
   * {@return a key whose value is one of {@code choices}}
   *
   * @param name the key's name: kebab-case words, dots between nested mappings
   * @param choices the allowed values
   */
  public static Builder choice(String name, String... choices) {
    Builder builder = new Builder(name, Type.CHOICE);
    builder.choices = List.of(choices);
    return builder;
  }

  /**
   * {@return a key whose value is a mapping of names to text values}
   *
   * @param name the key's name: kebab-case words, dots between nested mappings
   */
  public static Builder map(String name) {
    return new Builder(name, Type.MAP);
  }

  /**
   * Checks {@code value} against this key's type, as {@link AdapterConfig} does.
   *
   * @param value the value as written
   * @return what is wrong with it, such as {@code is not a duration (write 30s, ...)}, phrased to
   *     follow the value; empty if it is fine
   */
  public Optional<String> problemWith(String value) {
    requireNonNull(value, "value is null");
    return problemWith(type, min, max, choices, bounds, value);
  }

  /**
   * {@return how the allowed range of an {@link Type#INTEGER}, {@link Type#DECIMAL} or {@link
   * Type#SIZE} is written, to follow "write a number from" or "write a size from": {@link #bounds},
   * else {@code min to max} (sizes with their unit, such as {@code 5MiB to 512MiB}); empty for
   * other types and for a range without bounds}
   */
  public Optional<String> range() {
    boolean ranged = type == Type.INTEGER || type == Type.DECIMAL || type == Type.SIZE;
    if (!ranged || (bounds.isEmpty() && min <= 0 && max == Long.MAX_VALUE)) {
      return Optional.empty();
    }
    return Optional.of(bounds.orElseGet(() -> rangeOf(type, min, max)));
  }

  /**
   * {@return the value as its type: a {@link String}, {@link java.net.URI}, {@link Boolean}, {@link
   * Long} (an integer, or a size in bytes), {@link Double} or {@link Duration}}
   *
   * @param value the value as written
   * @throws IllegalArgumentException if {@link #problemWith} finds a problem
   */
  public Object parse(String value) {
    Optional<String> problem = problemWith(value);
    if (problem.isPresent()) {
      throw new IllegalArgumentException(
          "Cannot read key " + name + ": the value " + problem.get());
    }
    String text = value.strip();
    return switch (type) {
      case STRING, CHOICE, MAP -> value;
      case URI -> java.net.URI.create(text);
      case BOOLEAN -> Boolean.valueOf(text);
      case INTEGER -> Long.parseLong(text);
      case DECIMAL -> Double.parseDouble(text);
      case DURATION -> parseDuration(text).orElseThrow();
      case SIZE -> parseSize(text).orElseThrow();
    };
  }

  /**
   * A duration as people write it: {@code 0}, {@code 500ms}, {@code 30s}, {@code 2m}, {@code 1h},
   * {@code 7d}, or ISO-8601 such as {@code PT30S}.
   *
   * @param text the text to read
   * @return the duration, or empty if {@code text} is none
   */
  public static Optional<Duration> parseDuration(String text) {
    String value = text.strip();
    if (value.equals("0")) {
      return Optional.of(Duration.ZERO);
    }
    Matcher matcher = SIMPLE_DURATION.matcher(value);
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
    if (value.startsWith("P") || value.startsWith("p")) {
      try {
        return Optional.of(Duration.parse(value));
      } catch (DateTimeParseException e) {
        return Optional.empty();
      }
    }
    return Optional.empty();
  }

  /**
   * {@return {@code duration} written as {@link #parseDuration} reads it: {@code 500ms}, {@code
   * 30s}, or ISO-8601 for what those cannot say}
   *
   * @param duration the duration
   */
  public static String formatDuration(Duration duration) {
    requireNonNull(duration, "duration is null");
    if (duration.isZero()) {
      return "0";
    }
    if (duration.toNanos() % 1_000_000 == 0 && duration.toMillis() % 1000 != 0) {
      return duration.toMillis() + "ms";
    }
    if (duration.getNano() == 0 && !duration.isNegative()) {
      return duration.getSeconds() + "s";
    }
    return duration.toString();
  }

  /**
   * A size as people write it: bytes, or a number with {@code KiB}, {@code MiB} or {@code GiB}
   * (case-insensitive).
   *
   * @param text the text to read
   * @return the bytes, or empty if {@code text} is no size or too large
   */
  public static OptionalLong parseSize(String text) {
    Matcher matcher = SIZE.matcher(text.strip());
    if (!matcher.matches()) {
      return OptionalLong.empty();
    }
    long factor =
        switch (matcher.group(2) == null ? "b" : matcher.group(2).toLowerCase(Locale.ROOT)) {
          case "kib" -> 1024L;
          case "mib" -> 1024L * 1024;
          case "gib" -> 1024L * 1024 * 1024;
          default -> 1L;
        };
    long number = Long.parseLong(matcher.group(1));
    return number > Long.MAX_VALUE / factor
        ? OptionalLong.empty()
        : OptionalLong.of(number * factor);
  }

  /**
   * {@return {@code bytes} as {@link #parseSize} reads it: in the largest binary unit that divides
   * it, such as {@code 16MiB} or {@code 512KiB}, else in bytes}
   *
   * @param bytes the size in bytes
   */
  public static String formatSize(long bytes) {
    String[] units = {"GiB", "MiB", "KiB"};
    long[] factors = {1024L * 1024 * 1024, 1024L * 1024, 1024L};
    for (int i = 0; i < units.length; i++) {
      if (bytes != 0 && bytes % factors[i] == 0) {
        return bytes / factors[i] + units[i];
      }
    }
    return Long.toString(bytes);
  }

  /**
   * {@code duration} in the largest whole unit {@link #parseDuration} reads ({@code 7d}, {@code
   * 1h}, {@code 10m}, {@code 30s}, {@code 500ms}), or ISO-8601 for what those cannot say: how a
   * declared default is written.
   */
  static String formatReadably(Duration duration) {
    if (duration.isZero()) {
      return "0";
    }
    if (duration.isNegative() || duration.toNanos() % 1_000_000 != 0) {
      return duration.toString();
    }
    if (duration.toMillis() % 1000 != 0) {
      return duration.toMillis() + "ms";
    }
    long seconds = duration.getSeconds();
    if (seconds % 86_400 == 0) {
      return seconds / 86_400 + "d";
    }
    if (seconds % 3600 == 0) {
      return seconds / 3600 + "h";
    }
    return seconds % 60 == 0 ? seconds / 60 + "m" : seconds + "s";
  }

  private static Optional<String> problemWith(
      Type type, long min, long max, List<String> choices, Optional<String> bounds, String value) {
    String text = value.strip();
    String range = bounds.orElseGet(() -> rangeOf(type, min, max));
    return switch (type) {
      case STRING, MAP -> Optional.empty();
      case URI -> uriProblem(text);
      case BOOLEAN ->
          text.equals("true") || text.equals("false")
              ? Optional.empty()
              : Optional.of("is not a boolean (write true or false)");
      case INTEGER -> integerProblem(text, min, max, range);
      case DECIMAL -> decimalProblem(text, min, max, range);
      case DURATION -> durationProblem(text, min);
      case SIZE -> sizeProblem(text, min, max, range);
      case CHOICE ->
          choices.contains(text)
              ? Optional.empty()
              : Optional.of("is not one of the choices (write " + String.join(", ", choices) + ")");
    };
  }

  private static String rangeOf(Type type, long min, long max) {
    return type == Type.SIZE ? formatSize(min) + " to " + formatSize(max) : min + " to " + max;
  }

  private static Optional<String> uriProblem(String text) {
    try {
      java.net.URI uri = new java.net.URI(text);
      if (uri.getScheme() == null) {
        return Optional.of("is not a URL with a scheme (write it like https://api.example.com)");
      }
      return Optional.empty();
    } catch (java.net.URISyntaxException e) {
      return Optional.of("is not a URL (write it like https://api.example.com)");
    }
  }

  private static Optional<String> integerProblem(String text, long min, long max, String range) {
    long number;
    try {
      number = Long.parseLong(text);
    } catch (NumberFormatException e) {
      return Optional.of("is not a whole number (write a number from " + range + ")");
    }
    return number < min || number > max
        ? Optional.of("is out of range (write a number from " + range + ")")
        : Optional.empty();
  }

  private static Optional<String> decimalProblem(String text, long min, long max, String range) {
    double number;
    try {
      number = Double.parseDouble(text);
    } catch (NumberFormatException e) {
      number = Double.NaN;
    }
    return Double.isNaN(number) || number < min || number > max
        ? Optional.of("is not a number from " + range + " (e.g. " + min + ".0)")
        : Optional.empty();
  }

  private static Optional<String> durationProblem(String text, long min) {
    Optional<Duration> duration = parseDuration(text);
    if (duration.isEmpty()) {
      return Optional.of(
          "is not a duration (write a number with ms, s, m, h or d, e.g. 30s, 500ms, 2m, 1h, or"
              + " ISO-8601 such as PT30S)");
    }
    if (duration.get().isNegative() || (min > 0 && duration.get().isZero())) {
      return Optional.of(
          min > 0 ? "is not a positive duration (e.g. 30s)" : "is negative (e.g. 30s, or 0)");
    }
    return Optional.empty();
  }

  private static Optional<String> sizeProblem(String text, long min, long max, String range) {
    OptionalLong size = parseSize(text);
    if (size.isEmpty()) {
      return Optional.of(
          "is not a size (write bytes or a number with KiB, MiB or GiB, e.g. 16MiB)");
    }
    return size.getAsLong() < min || size.getAsLong() > max
        ? Optional.of("is out of range (write a size from " + range + ")")
        : Optional.empty();
  }

  /** Builds a {@link ConfigKey}; see the factory methods of {@link ConfigKey}. */
  public static final class Builder {
    private final String name;
    private final Type type;
    private String description = "";
    private Optional<String> defaultValue = Optional.empty();
    private boolean required;
    private boolean secret;
    private Optional<String> example = Optional.empty();
    private long min = Long.MIN_VALUE;
    private long max = Long.MAX_VALUE;
    private List<String> choices = List.of();
    private Optional<String> bounds = Optional.empty();

    private Builder(String name, Type type) {
      this.name = requireNonNull(name, "name is null");
      this.type = type;
    }

    private Builder range(long min, long max) {
      this.min = min;
      this.max = max;
      return this;
    }

    /**
     * What the key does, in one line.
     *
     * @param description what the key does, in one line
     * @return this builder
     */
    public Builder description(String description) {
      this.description = requireNonNull(description, "description is null");
      return this;
    }

    /**
     * The key must be set.
     *
     * @return this builder
     */
    public Builder required() {
      this.required = true;
      return this;
    }

    /**
     * The value is a secret: never shown, masked in every message.
     *
     * @return this builder
     */
    public Builder secret() {
      this.secret = true;
      return this;
    }

    /**
     * A value to show in the message for a missing required key.
     *
     * @param example an example value
     * @return this builder
     */
    public Builder example(String example) {
      this.example = Optional.of(requireNonNull(example, "example is null"));
      return this;
    }

    /**
     * A {@link Type#DURATION} that may be {@code 0}.
     *
     * @return this builder
     */
    public Builder zeroAllowed() {
      if (type != Type.DURATION) {
        throw new IllegalStateException("Cannot allow zero for key " + name + ": not a duration");
      }
      this.min = 0;
      return this;
    }

    /**
     * The value used when the key is not set, as written in a configuration file.
     *
     * @param value the default
     * @return this builder
     */
    public Builder defaultValue(String value) {
      this.defaultValue = Optional.of(requireNonNull(value, "value is null"));
      return this;
    }

    /**
     * The duration used when the key is not set, written in its largest whole unit ({@code 1h}).
     *
     * @param value the default
     * @return this builder
     */
    public Builder defaultValue(Duration value) {
      return defaultValue(formatReadably(requireNonNull(value, "value is null")));
    }

    /**
     * The decimal number used when the key is not set.
     *
     * @param value the default
     * @return this builder
     */
    public Builder defaultValue(double value) {
      return defaultValue(Double.toString(value));
    }

    /**
     * How the allowed range is written in messages and the reference when {@code min to max} does
     * not say enough, such as {@code 5MiB (S3's smallest part) to 512MiB}.
     *
     * @param bounds how the allowed range is written, if {@code min to max} does not say enough
     * @return this builder
     */
    public Builder bounds(String bounds) {
      this.bounds = Optional.of(requireNonNull(bounds, "bounds is null"));
      return this;
    }

    /**
     * The boolean used when the key is not set.
     *
     * @param value the default
     * @return this builder
     */
    public Builder defaultValue(boolean value) {
      return defaultValue(Boolean.toString(value));
    }

    /**
     * The number used when the key is not set; for a {@link Type#SIZE}, in bytes.
     *
     * @param value the default
     * @return this builder
     */
    public Builder defaultValue(long value) {
      return defaultValue(type == Type.SIZE ? formatSize(value) : Long.toString(value));
    }

    /**
     * {@return the declaration}
     *
     * @throws IllegalArgumentException if it is inconsistent (see {@link ConfigKey})
     */
    public ConfigKey build() {
      return new ConfigKey(
          name,
          type,
          description,
          defaultValue,
          required,
          secret,
          example,
          min == Long.MIN_VALUE ? 0 : min,
          max,
          choices,
          bounds);
    }
  }
}
