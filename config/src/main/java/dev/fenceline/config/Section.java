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

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * One mapping of the configuration file at a key path (such as {@code stores.main}), with typed
 * getters whose errors name the file, line, column, key path, the value (masked if secret) and the
 * fix. Values are interpolated from the environment when read.
 */
final class Section {

  /**
   * What every section of one configuration shares.
   *
   * @param environment where {@code ${NAME}} references (and HTTP bearer tokens) are read
   * @param secrets the configuration's secrets, masked in every message
   * @param interpolates whether string values are interpolated ({@link Interpolation}): true for a
   *     file, false for a {@link ConfigTree} whose host resolved its own placeholders
   */
  record Source(Function<String, String> environment, Secrets secrets, boolean interpolates) {

    /** A file's source: string values are interpolated from {@code environment}. */
    Source(Function<String, String> environment, Secrets secrets) {
      this(environment, secrets, true);
    }

    /** {@code text} with its references replaced, if this source interpolates; else as it is. */
    Interpolation.Result resolve(String text) throws Interpolation.Unresolved {
      return interpolates
          ? Interpolation.resolve(text, environment)
          : new Interpolation.Result(text, List.of());
    }
  }

  private final Source source;
  private final String path;
  private final ConfigNode.Mapping node;
  private final Predicate<String> secretKey;

  Section(Source source, String path, ConfigNode.Mapping node) {
    this(source, path, node, key -> false);
  }

  private Section(
      Source source, String path, ConfigNode.Mapping node, Predicate<String> secretKey) {
    this.source = source;
    this.path = path;
    this.node = node;
    this.secretKey = secretKey;
  }

  /**
   * This section, whose keys {@code secretKey} accepts hold secrets (dotted names for the keys of
   * its mappings): their values are shown as {@code ****} and masked wherever they appear.
   */
  Section withSecretKeys(Predicate<String> secretKey) {
    return new Section(source, path, node, secretKey);
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

  Optional<Duration> nonNegativeDuration(String key) {
    Optional<Duration> duration = duration(key);
    duration.ifPresent(
        value -> {
          if (value.isNegative()) {
            throw valueError(key, "the duration must not be negative", "e.g. 30s, or 0");
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
    return number(key, min, max, min + " to " + max).map(Math::toIntExact);
  }

  /** A whole number from {@code min} to {@code max}, which {@code range} says in words. */
  Optional<Long> number(String key, long min, long max, String range) {
    return string(key)
        .map(
            text -> {
              long number;
              try {
                number = Long.parseLong(text.strip());
              } catch (NumberFormatException e) {
                throw valueError(
                    key,
                    "\"" + shown(key, text) + "\" is not a whole number",
                    "write a number from " + range);
              }
              if (number < min || number > max) {
                throw valueError(key, number + " is out of range", "write a number from " + range);
              }
              return number;
            });
  }

  /** A size such as {@code 16MiB} from {@code min} to {@code max} bytes, as {@code range} says. */
  Optional<Long> size(String key, long min, long max, String range) {
    return string(key)
        .map(
            text -> {
              java.util.OptionalLong bytes = dev.fenceline.spi.ConfigKey.parseSize(text);
              if (bytes.isEmpty()) {
                throw valueError(
                    key,
                    "\"" + shown(key, text) + "\" is not a size",
                    "write bytes or a number with KiB, MiB or GiB, e.g. 16MiB");
              }
              if (bytes.getAsLong() < min || bytes.getAsLong() > max) {
                throw valueError(
                    key, shown(key, text) + " is out of range", "write a size from " + range);
              }
              return bytes.getAsLong();
            });
  }

  /** An absolute URL with a scheme, such as {@code example}. */
  Optional<java.net.URI> uri(String key, String example) {
    return string(key)
        .map(
            text -> {
              try {
                java.net.URI uri = new java.net.URI(text);
                if (uri.getScheme() == null) {
                  throw new java.net.URISyntaxException(text, "no scheme");
                }
                return uri;
              } catch (java.net.URISyntaxException e) {
                throw valueError(
                    key, "\"" + shown(key, text) + "\" is not a URL", "write it like " + example);
              }
            });
  }

  /** One of {@code choices}. */
  Optional<String> choice(String key, List<String> choices) {
    return string(key)
        .map(
            text -> {
              if (!choices.contains(text.strip())) {
                throw valueError(
                    key,
                    "\"" + shown(key, text) + "\" is not one of the choices",
                    "write " + String.join(", ", choices));
              }
              return text;
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
    return Optional.of(
        new Section(source, path(key), mapping, sub -> secretKey.test(key + "." + sub)));
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
    if (secretKey.test(key)) {
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
    if (secretKey.test(key)) {
      return true;
    }
    ConfigNode value = node.get(key);
    if (source.interpolates()
        && value instanceof ConfigNode.Scalar scalar
        && scalar.text().contains("${")) {
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
      Interpolation.Result result = source.resolve(scalar.text());
      boolean secret =
          secretKey.test(key) || result.variables().stream().anyMatch(Secrets::isSecretVariable);
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
    return dev.fenceline.spi.AdapterConfig.closest(key, known);
  }
}
