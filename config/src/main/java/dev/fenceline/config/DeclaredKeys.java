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
import dev.fenceline.spi.ConfigurationException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Reads a section of the file against the keys its adapter or destination kind declares ({@link
 * ConfigKey}), the same way for every adapter and kind: unknown keys are refused with the closest
 * known one, each value is checked with the {@link Section} getter of its type (so every mistake is
 * reported at its line and column), and the values are handed on as written. A {@link
 * ConfigurationException} the adapter throws later is placed by its {@link
 * ConfigurationException#key() key}.
 */
final class DeclaredKeys {

  private DeclaredKeys() {}

  /**
   * Which keys of a section hold secrets: the declared secret keys (a map's entries with their
   * map), or every key if nothing is declared, since nothing says which are safe to show.
   */
  static Predicate<String> secretKeys(List<ConfigKey> keys) {
    if (keys.isEmpty()) {
      return name -> true;
    }
    return name -> {
      for (ConfigKey key : keys) {
        boolean entryOf = key.type() == ConfigKey.Type.MAP && name.startsWith(key.name() + ".");
        if (key.secret() && (name.equals(key.name()) || entryOf)) {
          return true;
        }
      }
      return false;
    };
  }

  /**
   * The values of {@code section}, checked against {@code keys}: nested keys dotted ({@code
   * backoff.max}), a map's entries as {@code key.entry}, as written (environment variables
   * replaced).
   *
   * @param own the keys this module reads itself in such a section, such as {@code type}
   * @throws ConfigFileException at the first unknown key, missing required key or wrong value
   */
  static Map<String, String> read(Section section, List<ConfigKey> keys, Set<String> own) {
    Map<String, String> values = new LinkedHashMap<>();
    read(section, "", keys, own, values);
    return values;
  }

  private static void read(
      Section section,
      String prefix,
      List<ConfigKey> keys,
      Set<String> own,
      Map<String, String> values) {
    Set<String> allowed = new LinkedHashSet<>(own);
    List<String> order = new ArrayList<>();
    for (ConfigKey key : keys) {
      String local = key.name().substring(prefix.length());
      String top = local.contains(".") ? local.substring(0, local.indexOf('.')) : local;
      if (allowed.add(top)) {
        order.add(top);
      }
    }
    section.allowOnly(allowed);
    for (String top : order) {
      ConfigKey exact = declared(keys, prefix + top);
      if (exact != null) {
        readValue(section, top, exact, values);
        continue;
      }
      List<ConfigKey> nested =
          keys.stream().filter(key -> key.name().startsWith(prefix + top + ".")).toList();
      Optional<Section> mapping = section.section(top);
      if (mapping.isPresent()) {
        read(mapping.get(), prefix + top + ".", nested, Set.of(), values);
      } else {
        nested.stream()
            .filter(ConfigKey::required)
            .findFirst()
            .ifPresent(
                key -> {
                  String rest = key.name().substring(prefix.length() + top.length() + 1);
                  throw section.keyError(
                      top,
                      "the key is missing",
                      "add it, e.g. "
                          + top
                          + ": {"
                          + rest
                          + ": "
                          + key.example().orElse("...")
                          + "}");
                });
      }
    }
  }

  private static ConfigKey declared(List<ConfigKey> keys, String name) {
    return keys.stream().filter(key -> key.name().equals(name)).findFirst().orElse(null);
  }

  /**
   * Checks the value of {@code local} in {@code section} with the getter of its type, which reports
   * a wrong value at its line and column; the value handed on is the text as written.
   */
  private static void readValue(
      Section section, String local, ConfigKey key, Map<String, String> values) {
    if (key.required()) {
      section.requiredString(local, key.example().orElse("..."));
    }
    String range = key.range().orElse(key.min() + " to " + key.max());
    switch (key.type()) {
      case STRING -> section.string(local);
      case URI -> section.uri(local, key.example().orElse("https://host.example.com"));
      case BOOLEAN -> section.bool(local);
      case INTEGER -> section.number(local, key.min(), key.max(), range);
      case DECIMAL -> section.decimal(local, key.min(), key.max());
      case DURATION -> {
        if (key.min() > 0) {
          section.positiveDuration(local);
        } else {
          section.nonNegativeDuration(local);
        }
      }
      case SIZE -> section.size(local, key.min(), key.max(), range);
      case CHOICE -> section.choice(local, key.choices());
      case MAP -> {
        section
            .strings(local)
            .forEach((entry, value) -> values.put(key.name() + "." + entry, value));
        return;
      }
    }
    section.string(local).ifPresent(value -> values.put(key.name(), value));
  }

  /**
   * A refusal by the adapter or destination, placed at the key it names ({@link
   * ConfigurationException#key()}): at the outermost key of a nested one, where the setting starts
   * ({@code lookup:} for {@code lookup.path}), or at the section if it names none or one the
   * section does not hold.
   *
   * @param refuser what refused it, such as {@code the jdbc adapter refused the store}
   */
  static ConfigFileException refusal(Section section, ConfigurationException e, String refuser) {
    String problem = refuser + ": " + e.getMessage();
    if (e.key().isEmpty()) {
      return section.error(section.location(), section.path(), problem, null, e);
    }
    String key = e.key().get();
    String top = key.contains(".") ? key.substring(0, key.indexOf('.')) : key;
    return section.error(section.location(top), section.path(key), problem, null, e);
  }
}
