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

import dev.fenceline.core.AdapterRegistry;
import dev.fenceline.spi.ConfigKey;
import dev.fenceline.spi.ConfigurationException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Registers every secret value of one file before anything of it can be shown: the values of the
 * keys that adapters and destination kinds declare secret (every value of an adapter that declares
 * no keys), values made from secret environment variables, passwords inside URLs, and the values of
 * the environment variables a destination reads a secret from. It reads leniently: what is
 * malformed here is reported, masked, when the file is read.
 */
final class FileSecrets {

  private FileSecrets() {}

  /** Registers the secrets of {@code tree} with {@code source}'s {@link Secrets}. */
  static void collect(ConfigNode.Mapping tree, Section.Source source, AdapterRegistry registry) {
    everyValue(tree, source);
    mappings(tree.get("stores"))
        .forEach((name, store) -> declared(store, "", storeSecrets(store, registry), source));
    mappings(tree.get("destinations"))
        .forEach(
            (name, destination) -> {
              String type = text(destination.get("type")).orElse(DestinationKinds.DEFAULT);
              DestinationKinds.find(type)
                  .ifPresent(
                      kind -> {
                        declared(destination, "", DeclaredKeys.secretKeys(kind.keys()), source);
                        for (String key : kind.secretVariableKeys()) {
                          text(destination.get(key))
                              .map(variable -> source.environment().apply(variable.strip()))
                              .ifPresent(source.secrets()::add);
                        }
                      });
            });
  }

  /** The secret keys of a store: its adapter's declared ones, or all of an unknown adapter's. */
  private static Predicate<String> storeSecrets(
      ConfigNode.Mapping store, AdapterRegistry registry) {
    Optional<String> type = text(store.get("type"));
    List<ConfigKey> keys = List.of();
    if (type.isPresent()) {
      try {
        keys = registry.factory(type.get()).configKeys();
      } catch (ConfigurationException e) {
        // An unknown type: refused when the store is read; meanwhile every value is secret.
      }
    }
    Predicate<String> secret = DeclaredKeys.secretKeys(keys);
    return key -> !key.equals("type") && secret.test(key);
  }

  /** Values made from secret variables, and passwords in URLs, wherever they are. */
  private static void everyValue(ConfigNode node, Section.Source source) {
    if (node instanceof ConfigNode.Mapping mapping) {
      mapping.entries().values().forEach(value -> everyValue(value, source));
    } else if (node instanceof ConfigNode.Sequence sequence) {
      sequence.items().forEach(item -> everyValue(item, source));
    } else if (node instanceof ConfigNode.Scalar scalar) {
      Secrets secrets = source.secrets();
      try {
        Interpolation.Result result = source.resolve(scalar.text());
        for (String variable : result.variables()) {
          if (Secrets.isSecretVariable(variable)) {
            secrets.add(result.value());
            secrets.add(source.environment().apply(variable));
          }
        }
        secrets.addFromUrl(result.value());
      } catch (Interpolation.Unresolved e) {
        // Reported with its location when the value is read.
      }
    }
  }

  /** The values of the keys of {@code mapping} that {@code secret} names, nested keys dotted. */
  private static void declared(
      ConfigNode.Mapping mapping, String prefix, Predicate<String> secret, Section.Source source) {
    for (Map.Entry<ConfigNode.Key, ConfigNode> entry : mapping.entries().entrySet()) {
      String key = prefix + entry.getKey().name();
      if (entry.getValue() instanceof ConfigNode.Mapping nested) {
        declared(nested, key + ".", secret, source);
      } else if (entry.getValue() instanceof ConfigNode.Scalar scalar && secret.test(key)) {
        if (!source.interpolates() || !scalar.text().contains("${")) {
          source.secrets().add(scalar.text());
        }
        try {
          source.secrets().add(source.resolve(scalar.text()).value());
        } catch (Interpolation.Unresolved e) {
          // Reported with its location when the value is read.
        }
      }
    }
  }

  private static Map<String, ConfigNode.Mapping> mappings(ConfigNode node) {
    Map<String, ConfigNode.Mapping> result = new java.util.LinkedHashMap<>();
    if (node instanceof ConfigNode.Mapping named) {
      named
          .entries()
          .forEach(
              (key, value) -> {
                if (value instanceof ConfigNode.Mapping mapping) {
                  result.put(key.name(), mapping);
                }
              });
    }
    return result;
  }

  private static Optional<String> text(ConfigNode node) {
    return node instanceof ConfigNode.Scalar scalar && scalar.type() != ConfigNode.Scalar.Type.NULL
        ? Optional.of(scalar.text())
        : Optional.empty();
  }
}
