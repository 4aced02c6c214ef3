package dev.fenceline.spi;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The flat configuration of one adapter instance, checked against the keys the adapter knows, with
 * typed getters whose errors name the adapter, the instance, the key, the value and the fix. For
 * {@link AdapterFactory} implementations.
 */
public final class AdapterConfig {

  private final String adapter;
  private final String instance;
  private final Map<String, String> values;

  private AdapterConfig(String adapter, String instance, Map<String, String> values) {
    this.adapter = adapter;
    this.instance = instance;
    this.values = values;
  }

  /**
   * Checks {@code values} against {@code knownKeys}.
   *
   * @param adapter the adapter's name, such as {@code jdbc}
   * @param instance the user's name for the instance
   * @param values the configuration
   * @param knownKeys every key the adapter understands
   * @return the checked configuration
   * @throws ConfigurationException if a key is unknown; the message lists the known keys
   */
  public static AdapterConfig of(
      String adapter, String instance, Map<String, String> values, Set<String> knownKeys) {
    requireNonNull(adapter, "adapter is null");
    requireNonNull(instance, "instance is null");
    requireNonNull(values, "values is null");
    requireNonNull(knownKeys, "knownKeys is null");
    AdapterConfig config = new AdapterConfig(adapter, instance, Map.copyOf(values));
    for (String key : new TreeSet<>(values.keySet())) {
      if (!knownKeys.contains(key)) {
        throw config.error(
            "unknown key \"" + key + "\" (known keys: " + new TreeSet<>(knownKeys) + ")");
      }
    }
    return config;
  }

  /**
   * The value of {@code key}.
   *
   * @param key the key
   * @param example a value to show in the error, such as {@code jdbc:sqlite:fenceline.db}
   * @return the value, not blank
   * @throws ConfigurationException if the key is missing or blank
   */
  public String required(String key, String example) {
    String value = values.get(key);
    if (value == null || value.isBlank()) {
      throw error("key \"" + key + "\" is missing (e.g. " + key + ": " + example + ")");
    }
    return value;
  }

  /**
   * The value of {@code key}, if set.
   *
   * @param key the key
   * @return the value
   */
  public Optional<String> optional(String key) {
    return Optional.ofNullable(values.get(key));
  }

  /**
   * The value of {@code key} as {@code true} or {@code false}, if set.
   *
   * @param key the key
   * @return the value
   * @throws ConfigurationException if the value is neither
   */
  public Optional<Boolean> bool(String key) {
    return optional(key)
        .map(
            value -> {
              if (value.equals("true") || value.equals("false")) {
                return Boolean.valueOf(value);
              }
              throw error("key \"" + key + "\" has value \"" + value + "\" (write true or false)");
            });
  }

  /**
   * The value of {@code key} as a duration, if set: {@code 500ms}, {@code 30s}, {@code 2m} or
   * ISO-8601 such as {@code PT30S}.
   *
   * @param key the key
   * @return the value
   * @throws ConfigurationException if the value is not a duration
   */
  public Optional<Duration> duration(String key) {
    return optional(key).map(value -> parseDuration(key, value));
  }

  /**
   * An error about this instance: {@code Cannot configure <adapter> adapter "<instance>":
   * <problem>}.
   *
   * @param problem what is wrong and how to fix it
   * @return the exception, to throw
   */
  public ConfigurationException error(String problem) {
    return new ConfigurationException(
        "Cannot configure " + adapter + " adapter \"" + instance + "\": " + problem);
  }

  private Duration parseDuration(String key, String value) {
    String text = value.trim();
    try {
      if (text.startsWith("PT") || text.startsWith("pt")) {
        return Duration.parse(text);
      }
      if (text.endsWith("ms")) {
        return Duration.ofMillis(Long.parseLong(text.substring(0, text.length() - 2)));
      }
      if (text.endsWith("s")) {
        return Duration.ofSeconds(Long.parseLong(text.substring(0, text.length() - 1)));
      }
      if (text.endsWith("m")) {
        return Duration.ofMinutes(Long.parseLong(text.substring(0, text.length() - 1)));
      }
    } catch (NumberFormatException | DateTimeParseException e) {
      // Falls through to the message below.
    }
    throw error(
        "key \""
            + key
            + "\" has value \""
            + value
            + "\", which is not a duration (write 30s, 500ms, 2m or PT30S)");
  }
}
