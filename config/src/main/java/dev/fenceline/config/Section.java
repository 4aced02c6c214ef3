package dev.fenceline.config;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * One mapping of the configuration file at a key path (such as {@code stores.main}), with typed
 * getters whose errors name the file, line, column, key path, the value (masked if secret) and the
 * fix. Values are interpolated from the environment when read.
 */
final class Section {

  /** What every section of one file shares. */
  record Source(Function<String, String> environment, Secrets secrets) {}

  private final Source source;
  private final String path;
  private final ConfigNode.Mapping node;

  Section(Source source, String path, ConfigNode.Mapping node) {
    this.source = source;
    this.path = path;
    this.node = node;
  }

  String path() {
    return path;
  }

  String path(String key) {
    return path.isEmpty() ? key : path + "." + key;
  }

  ConfigLocation location() {
    return node.location();
  }

  /** Where {@code key} is written, or this section's start if it is not. */
  ConfigLocation location(String key) {
    ConfigNode.Key found = node.key(key);
    return found == null ? node.location() : found.location();
  }

  boolean has(String key) {
    ConfigNode value = node.get(key);
    return value != null && !isNull(value);
  }

  List<String> keys() {
    List<String> keys = new ArrayList<>();
    node.entries().keySet().forEach(key -> keys.add(key.name()));
    return keys;
  }

  Source source() {
    return source;
  }

  /**
   * Refuses keys outside {@code known}, at the first unknown key, listing the known ones.
   *
   * @throws ConfigFileException naming the unknown key
   */
  Section allowOnly(Set<String> known) {
    for (ConfigNode.Key key : node.entries().keySet()) {
      if (!known.contains(key.name())) {
        String suggestion =
            closest(key.name(), known).map(near -> "did you mean \"" + near + "\"? ").orElse("");
        throw error(
            key.location(),
            path(key.name()),
            "unknown key \"" + key.name() + "\"",
            suggestion + "known keys here: " + String.join(", ", new TreeSet<>(known)));
      }
    }
    return this;
  }

  /** The string value of {@code key}, interpolated, if set and not empty. */
  Optional<String> string(String key) {
    ConfigNode value = node.get(key);
    if (value == null || isNull(value)) {
      return Optional.empty();
    }
    if (!(value instanceof ConfigNode.Scalar scalar)) {
      throw error(
          value.location(),
          path(key),
          "expected a single value, found " + value.kind(),
          "write it on the same line, e.g. " + key + ": value");
    }
    return Optional.of(interpolate(key, scalar));
  }

  String requiredString(String key, String example) {
    return string(key)
        .orElseThrow(
            () ->
                error(
                    location(key),
                    path(key),
                    "the key is missing or empty",
                    "add it, e.g. " + key + ": " + example));
  }

  Optional<Duration> duration(String key) {
    return string(key)
        .map(
            text ->
                Durations.parse(text)
                    .orElseThrow(
                        () ->
                            valueError(
                                key,
                                "\"" + shown(key, text) + "\" is not a duration",
                                "write a number with ms, s, m or h, e.g. 30s, 500ms, 2m, 1h")));
  }

  Optional<Duration> positiveDuration(String key) {
    Optional<Duration> duration = duration(key);
    duration.ifPresent(
        value -> {
          if (value.isZero() || value.isNegative()) {
            throw valueError(key, "the duration must be positive", "e.g. 30s");
          }
        });
    return duration;
  }

  Optional<Boolean> bool(String key) {
    return string(key)
        .map(
            text -> {
              if (text.equals("true") || text.equals("false")) {
                return Boolean.valueOf(text);
              }
              throw valueError(
                  key, "\"" + shown(key, text) + "\" is not a boolean", "write true or false");
            });
  }

  Optional<Integer> integer(String key, int min, int max) {
    return string(key)
        .map(
            text -> {
              int number;
              try {
                number = Integer.parseInt(text.strip());
              } catch (NumberFormatException e) {
                throw valueError(
                    key,
                    "\"" + shown(key, text) + "\" is not a whole number",
                    "write a number from " + min + " to " + max);
              }
              if (number < min || number > max) {
                throw valueError(
                    key, number + " is out of range", "write a number from " + min + " to " + max);
              }
              return number;
            });
  }

  Optional<Double> decimal(String key, double min, double max) {
    return string(key)
        .map(
            text -> {
              double number;
              try {
                number = Double.parseDouble(text.strip());
              } catch (NumberFormatException e) {
                number = Double.NaN;
              }
              if (Double.isNaN(number) || number < min || number > max) {
                throw valueError(
                    key,
                    "\"" + shown(key, text) + "\" is not a number from " + min + " to " + max,
                    "e.g. 2.0");
              }
              return number;
            });
  }

  /** The mapping at {@code key}, if set. */
  Optional<Section> section(String key) {
    ConfigNode value = node.get(key);
    if (value == null || isNull(value)) {
      return Optional.empty();
    }
    if (!(value instanceof ConfigNode.Mapping mapping)) {
      throw error(
          value.location(),
          path(key),
          "expected a mapping of keys, found " + value.kind(),
          "indent its keys below \"" + key + ":\" on their own lines");
    }
    return Optional.of(new Section(source, path(key), mapping));
  }

  /** The mapping at {@code key} whose values are mappings (named instances), in file order. */
  Map<String, Section> sections(String key) {
    Map<String, Section> result = new LinkedHashMap<>();
    section(key)
        .ifPresent(
            named -> {
              for (String name : named.keys()) {
                result.put(
                    name,
                    named
                        .section(name)
                        .orElseThrow(
                            () ->
                                error(
                                    named.location(name),
                                    named.path(name),
                                    "it is empty",
                                    "give its keys below it, e.g. type: ...")));
              }
            });
    return result;
  }

  /** The mapping at {@code key} whose values are single values, in file order. */
  Map<String, String> strings(String key) {
    Map<String, String> result = new LinkedHashMap<>();
    section(key)
        .ifPresent(
            map -> map.keys().forEach(name -> result.put(name, map.requiredString(name, "value"))));
    return result;
  }

  /** An error about the value of {@code key}. */
  ConfigFileException valueError(String key, String problem, String fix) {
    ConfigNode value = node.get(key);
    return error(value == null ? location(key) : value.location(), path(key), problem, fix);
  }

  /** An error about {@code key} (at the key, or at this section if the key is missing). */
  ConfigFileException keyError(String key, String problem, String fix) {
    return error(location(key), path(key), problem, fix);
  }

  /** An error about this whole section. */
  ConfigFileException sectionError(String problem, String fix) {
    return error(node.location(), path, problem, fix);
  }

  /** {@code Cannot configure <path> at <location>: <problem> (<fix>)}, secrets masked. */
  ConfigFileException error(ConfigLocation location, String keyPath, String problem, String fix) {
    return error(location, keyPath, problem, fix, null);
  }

  ConfigFileException error(
      ConfigLocation location, String keyPath, String problem, String fix, Throwable cause) {
    String message =
        "Cannot configure "
            + (keyPath.isEmpty() ? "the file" : keyPath)
            + " at "
            + location
            + ": "
            + problem
            + (fix == null ? "" : " (" + fix + ")");
    String scrubbed = source.secrets().scrub(message);
    // A cause whose text held a secret is left out: stack traces print causes.
    Throwable kept = cause != null && scrubbed.equals(message) && !leaks(cause) ? cause : null;
    return new ConfigFileException(scrubbed, location, keyPath, kept);
  }

  private boolean leaks(Throwable cause) {
    for (Throwable t = cause; t != null; t = t.getCause()) {
      String text = String.valueOf(t.getMessage());
      if (!source.secrets().scrub(text).equals(text)) {
        return true;
      }
    }
    return false;
  }

  /**
   * The value of {@code key} as it may be shown: {@code ****} if the key is secret, as written
   * ({@code ${NAME}} not replaced) if it was made from a secret environment variable, else the
   * value; credentials in URLs masked.
   */
  String shown(String key, String value) {
    if (Secrets.isSecretKey(key)) {
      return Secrets.MASK;
    }
    if (secret(key)) {
      // Made from a secret variable: shown as written, ${NAME} and all.
      return Secrets.redactUrls(((ConfigNode.Scalar) node.get(key)).text());
    }
    return Secrets.redactUrls(value);
  }

  /** Whether the value of {@code key} is secret: a secret key, or made from a secret variable. */
  boolean secret(String key) {
    if (Secrets.isSecretKey(key)) {
      return true;
    }
    ConfigNode value = node.get(key);
    if (value instanceof ConfigNode.Scalar scalar && scalar.text().contains("${")) {
      try {
        return Interpolation.resolve(scalar.text(), name -> "").variables().stream()
            .anyMatch(Secrets::isSecretVariable);
      } catch (Interpolation.Unresolved e) {
        return true;
      }
    }
    return false;
  }

  private String interpolate(String key, ConfigNode.Scalar scalar) {
    if (scalar.type() != ConfigNode.Scalar.Type.STRING) {
      return scalar.text();
    }
    try {
      Interpolation.Result result = Interpolation.resolve(scalar.text(), source.environment());
      boolean secret =
          Secrets.isSecretKey(key)
              || result.variables().stream().anyMatch(Secrets::isSecretVariable);
      if (secret) {
        source.secrets().add(result.value());
      }
      return result.value();
    } catch (Interpolation.Unresolved e) {
      throw error(scalar.location(), path(key), e.problem, e.fix);
    }
  }

  private static boolean isNull(ConfigNode node) {
    return node instanceof ConfigNode.Scalar scalar && scalar.type() == ConfigNode.Scalar.Type.NULL;
  }

  /** The known key closest to a misspelt one, if it is close (at most 2 edits). */
  static Optional<String> closest(String key, Set<String> known) {
    String best = null;
    int bestDistance = 3;
    for (String candidate : new TreeSet<>(known)) {
      int distance = distance(key, candidate);
      if (distance < bestDistance) {
        best = candidate;
        bestDistance = distance;
      }
    }
    return Optional.ofNullable(best);
  }

  private static int distance(String a, String b) {
    int[] previous = new int[b.length() + 1];
    int[] current = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      previous[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      current[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        current[j] =
            Math.min(Math.min(current[j - 1] + 1, previous[j] + 1), previous[j - 1] + cost);
      }
      int[] swap = previous;
      previous = current;
      current = swap;
    }
    return previous[b.length()];
  }
}
