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

import dev.fenceline.spi.AdapterConfig;
import dev.fenceline.spi.ConfigurationException;
import dev.fenceline.spi.Destination;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The destination kinds a file may name ({@code type: staged}, the default; {@code http}; {@code
 * fenced}), and the reading of its {@code destinations:} sections through them.
 */
final class DestinationKinds {

  /** The kind of a destination section without {@code type:}. */
  static final String DEFAULT = "staged";

  private static final List<DestinationKind> KINDS =
      List.of(new StagedKind(), new HttpKind(), new FencedKind());

  /**
   * One destination section.
   *
   * @param name the destination's name
   * @param kind its kind
   * @param section its section, secret keys marked
   * @param values its values as written, nested keys dotted
   * @param settings the same values with the kind's declared defaults
   */
  record Entry(
      String name,
      DestinationKind kind,
      Section section,
      Map<String, String> values,
      AdapterConfig settings) {}

  private DestinationKinds() {}

  /** Every kind, the default first. */
  static List<DestinationKind> all() {
    return KINDS;
  }

  /** The kind called {@code type}, if there is one. */
  static Optional<DestinationKind> find(String type) {
    return KINDS.stream().filter(kind -> kind.name().equals(type)).findFirst();
  }

  /**
   * Reads every destination section of {@code root} and runs its kind's checks, opening nothing.
   *
   * @throws ConfigFileException at the first mistake
   */
  static Map<String, Entry> read(Section root, KindContext context) {
    Map<String, Entry> result = new LinkedHashMap<>();
    Section names = root.section("destinations").orElse(null);
    for (Map.Entry<String, Section> named : root.sections("destinations").entrySet()) {
      String name = named.getKey();
      if (!Destination.NAME.matcher(name).matches()) {
        throw names.keyError(
            name,
            "\"" + name + "\" is not a destination name",
            "use 1 to 64 characters from a-z, 0-9, '.', '_' and '-', starting with a letter or digit");
      }
      Entry entry = entry(name, named.getValue());
      entry.kind().check(entry, context);
      result.put(name, entry);
    }
    return result;
  }

  private static Entry entry(String name, Section raw) {
    String type = raw.string("type").orElse(DEFAULT);
    DestinationKind kind =
        find(type)
            .orElseThrow(
                () ->
                    raw.valueError(
                        "type",
                        "unknown destination type \"" + type + "\"",
                        Section.closest(type, names())
                                .map(near -> "did you mean \"" + near + "\"? ")
                                .orElse("")
                            + "known types: "
                            + KINDS.stream()
                                .map(known -> known.name() + " (" + known.summary() + ")")
                                .collect(Collectors.joining(", "))));
    Section section = raw.withSecretKeys(DeclaredKeys.secretKeys(kind.keys()));
    Map<String, String> values = DeclaredKeys.read(section, kind.keys(), Set.of("type"));
    AdapterConfig settings;
    try {
      settings = AdapterConfig.of(kind.name(), name, values, kind.keys());
    } catch (ConfigurationException e) {
      throw DeclaredKeys.refusal(section, e, "the " + kind.name() + " destination refused it");
    }
    return new Entry(name, kind, section, values, settings);
  }

  private static Set<String> names() {
    return KINDS.stream().map(DestinationKind::name).collect(Collectors.toSet());
  }
}
