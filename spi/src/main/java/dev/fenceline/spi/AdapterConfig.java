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

import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Supplier;

/**
 * The flat configuration of one adapter instance, checked against the keys the adapter declares
 * ({@link AdapterFactory#configKeys()}), with typed getters that fall back on each key's declared
 * default. Every error is a {@link ConfigurationException} whose {@link
 * ConfigurationException#key() key} names the key and whose message names the adapter, the
 * instance, the key, the value (never a secret one) and the fix. For {@link AdapterFactory}
 * implementations.
 */
public final class AdapterConfig {

  /** The user information of a URL, such as {@code //user:password@} in {@code https://...}. */
  private static final java.util.regex.Pattern USER_INFO =
      java.util.regex.Pattern.compile("//[^/@\\s]*@");

  private final String adapter;
  private final String instance;
  private final Map<String, String> values;
  private final Map<String, ConfigKey> declared;

  private AdapterConfig(
      String adapter,
      String instance,
      Map<String, String> values,
      Map<String, ConfigKey> declared) {
    this.adapter = adapter;
    this.instance = instance;
    this.values = values;
    this.declared = declared;
  }

  /**
   * Checks {@code values} against the keys {@code factory} declares: no unknown key (the message
   * names the closest known one), every required key set, every value of its key's type.
   *
   * @param factory the adapter's factory
   * @param instance the user's name for the instance
   * @param values the configuration; nested keys dotted, a map's entries as {@code key.entry}
   * @return the checked configuration
   * @throws ConfigurationException about the first wrong key, in key order
   * @throws IllegalArgumentException if the factory declares no keys, or one key twice
   */
  public static AdapterConfig of(
      AdapterFactory factory, String instance, Map<String, String> values) {
    return unchecked(factory, instance, values).checkValues();
  }

  /**
   * Checks {@code values} against {@code keys}, as {@link #of(AdapterFactory, String, Map)} does.
   *
   * @param adapter the adapter's name, such as {@code jdbc}
   * @param instance the user's name for the instance
   * @param values the configuration
   * @param keys every key the adapter understands
   * @return the checked configuration
   */
  public static AdapterConfig of(
      String adapter, String instance, Map<String, String> values, List<ConfigKey> keys) {
    return unchecked(adapter, instance, values, keys).checkValues();
  }

  /**
   * Checks {@code values} for unknown keys only (the message names the closest known one), for a
   * factory that checks some values itself, with its own explanation, before {@link #checkValues()}
   * checks the rest against their declarations.
   *
   * @param factory the adapter's factory
   * @param instance the user's name for the instance
   * @param values the configuration; nested keys dotted, a map's entries as {@code key.entry}
   * @return the configuration, its values not checked yet
   * @throws ConfigurationException about the first unknown key, in key order
   * @throws IllegalArgumentException if the factory declares no keys, or one key twice
   */
  public static AdapterConfig unchecked(
      AdapterFactory factory, String instance, Map<String, String> values) {
    requireNonNull(factory, "factory is null");
    return unchecked(factory.name(), instance, values, factory.configKeys());
  }

  /**
   * {@return the configuration, as {@link #unchecked(AdapterFactory, String, Map)} with the
   * adapter's name and keys}
   *
   * @param adapter the adapter's name, such as {@code jdbc}
   * @param instance the user's name for the instance
   * @param values the configuration
   * @param keys every key the adapter understands
   */
  public static AdapterConfig unchecked(
      String adapter, String instance, Map<String, String> values, List<ConfigKey> keys) {
    requireNonNull(adapter, "adapter is null");
    requireNonNull(instance, "instance is null");
    requireNonNull(values, "values is null");
    requireNonNull(keys, "keys is null");
    if (keys.isEmpty()) {
      throw new IllegalArgumentException(
          "Cannot check the configuration of adapter " + adapter + ": it declares no keys");
    }
    Map<String, ConfigKey> declared = new LinkedHashMap<>();
    for (ConfigKey key : keys) {
      if (declared.putIfAbsent(key.name(), key) != null) {
        throw new IllegalArgumentException(
            "Cannot check the configuration of adapter "
                + adapter
                + ": key "
                + key.name()
                + " is declared twice");
      }
    }
    AdapterConfig config =
        new AdapterConfig(adapter, instance, Map.copyOf(values), Map.copyOf(declared));
    for (String name : new TreeSet<>(values.keySet())) {
      if (config.declaration(name) == null) {
        String closest =
            closest(name, declared.keySet())
                .map(near -> "did you mean \"" + near + "\"? ")
                .orElse("");
        throw config.error(
            name,
            "unknown key \""
                + name
                + "\" ("
                + closest
                + "known keys: "
                + new TreeSet<>(declared.keySet())
                + ")");
      }
    }
    return config;
  }

  /**
   * Checks every value against its key's declaration and that every required key is set, as {@link
   * #of(AdapterFactory, String, Map)} does.
   *
   * @return this configuration
   * @throws ConfigurationException about the first wrong key, in key order
   */
  public AdapterConfig checkValues() {
    for (String name : new TreeSet<>(values.keySet())) {
      ConfigKey key = declaration(name);
      if (key != null && (key.type() != ConfigKey.Type.MAP || !name.equals(key.name()))) {
        String value = requireNonNull(values.get(name), "value of " + name + " is null");
        Optional<String> problem = key.problemWith(value);
        if (problem.isPresent()) {
          throw error(
              key.name(),
              "key \"" + name + "\" has value " + shown(key, value) + ", which " + problem.get());
        }
      }
    }
    for (ConfigKey key : declared.values()) {
      if (key.required() && raw(key.name()).isEmpty()) {
        throw error(
            key.name(),
            "key \""
                + key.name()
                + "\" is missing (e.g. "
                + key.name()
                + ": "
                + key.example().orElse("...")
                + ")");
      }
    }
    return this;
  }

  /**
   * Checks {@code values} against {@code knownKeys}, without types or defaults; for factories that
   * do not declare their keys.
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
    AdapterConfig config = new AdapterConfig(adapter, instance, Map.copyOf(values), Map.of());
    for (String key : new TreeSet<>(values.keySet())) {
      if (!knownKeys.contains(key)) {
        throw config.error(
            key, "unknown key \"" + key + "\" (known keys: " + new TreeSet<>(knownKeys) + ")");
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
      throw error(key, "key \"" + key + "\" is missing (e.g. " + key + ": " + example + ")");
    }
    return value;
  }

  /**
   * {@return the value of a declared required key}
   *
   * @param key the declared key
   * @throws ConfigurationException if it is missing or blank
   */
  public String required(String key) {
    ConfigKey declaration = declared(key);
    return required(key, declaration.example().orElse("..."));
  }

  /**
   * The value of {@code key} as written, else its declared default.
   *
   * @param key the key
   * @return the value
   */
  public Optional<String> optional(String key) {
    Optional<String> value = raw(key);
    return value.isPresent() ? value : defaultOf(key);
  }

  /**
   * {@return whether {@code key} is set (not merely defaulted)}
   *
   * @param key the declared key
   */
  public boolean isSet(String key) {
    return raw(key).isPresent();
  }

  /**
   * {@return the value of {@code key} as {@code true} or {@code false}, if set or defaulted}
   *
   * @param key the declared key
   * @throws ConfigurationException if the value is neither
   */
  public Optional<Boolean> bool(String key) {
    return optional(key)
        .map(
            value -> {
              if (value.equals("true") || value.equals("false")) {
                return Boolean.valueOf(value);
              }
              throw error(
                  key, "key \"" + key + "\" has value \"" + value + "\" (write true or false)");
            });
  }

  /**
   * {@return the value of {@code key} as a duration, if set or defaulted: {@code 500ms}, {@code
   * 30s}, {@code 2m}, {@code 1h}, {@code 7d} or ISO-8601 such as {@code PT30S}}
   *
   * @param key the declared key
   * @throws ConfigurationException if the value is not a duration
   */
  public Optional<Duration> duration(String key) {
    return optional(key)
        .map(
            value ->
                ConfigKey.parseDuration(value)
                    .orElseThrow(
                        () ->
                            error(
                                key,
                                "key \""
                                    + key
                                    + "\" has value \""
                                    + value
                                    + "\", which is not a duration (write 30s, 500ms, 2m or"
                                    + " PT30S)")));
  }

  /**
   * {@return the value of a declared {@link ConfigKey.Type#INTEGER} or {@link ConfigKey.Type#SIZE}
   * key, if set or defaulted (a size in bytes)}
   *
   * @param key the declared key
   * @throws ConfigurationException if the value is not of the key's type
   */
  public Optional<Long> number(String key) {
    return typed(key, Long.class);
  }

  /**
   * {@return the value of a declared {@link ConfigKey.Type#DECIMAL} key, if set or defaulted}
   *
   * @param key the declared key
   */
  public Optional<Double> decimal(String key) {
    return typed(key, Double.class);
  }

  /**
   * {@return the value of a declared {@link ConfigKey.Type#URI} key, if set or defaulted}
   *
   * @param key the declared key
   */
  public Optional<URI> uri(String key) {
    return typed(key, URI.class);
  }

  /**
   * {@return the entries of a declared {@link ConfigKey.Type#MAP} key ({@code key.name} in the flat
   * configuration), sorted by name}
   *
   * @param key the declared key
   */
  public Map<String, String> map(String key) {
    declared(key);
    Map<String, String> entries = new TreeMap<>();
    String prefix = key + ".";
    values.forEach(
        (name, value) -> {
          if (name.startsWith(prefix)) {
            entries.put(name.substring(prefix.length()), value);
          }
        });
    return entries;
  }

  /**
   * Runs {@code setting}, typically a builder's setter given the value of {@code key}; if it
   * refuses the value ({@link IllegalArgumentException}, or a {@link ConfigurationException} that
   * names no key), throws a {@link ConfigurationException} about {@code key}: {@code Cannot
   * configure <adapter> adapter "<instance>": key "<key>" has value <value>: <its message>}, the
   * value shown as {@link #shown} shows it. A {@link ConfigurationException} that names a key
   * passes unchanged.
   *
   * <pre>{@code
   * config.apply("root-path", root, () -> builder.rootPath(root));
   * }</pre>
   *
   * @param key the key whose value is being set
   * @param value the value as the setting takes it (its {@code toString()} is shown)
   * @param setting the setting; what it returns (the builder) is returned
   * @param <T> the value's type
   * @return what {@code setting} returned
   * @throws ConfigurationException if the setting refused the value
   */
  public <T> T apply(String key, Object value, Supplier<T> setting) {
    requireNonNull(key, "key is null");
    requireNonNull(setting, "setting is null");
    try {
      return setting.get();
    } catch (ConfigurationException e) {
      if (e.key().isPresent()) {
        throw e;
      }
      throw refused(key, value, e);
    } catch (IllegalArgumentException e) {
      throw refused(key, value, e);
    }
  }

  private ConfigurationException refused(String key, Object value, RuntimeException refusal) {
    return new ConfigurationException(
        declaredName(key),
        "Cannot configure "
            + adapter
            + " adapter \""
            + instance
            + "\": key \""
            + key
            + "\" has value "
            + shown(key, String.valueOf(value))
            + ": "
            + refusal.getMessage(),
        refusal);
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

  /**
   * An error about {@code key} of this instance: {@code Cannot configure <adapter> adapter
   * "<instance>": <problem>}, whose {@link ConfigurationException#key()} is {@code key}.
   *
   * @param key the key the problem is about
   * @param problem what is wrong and how to fix it, naming the key
   * @return the exception, to throw
   */
  public ConfigurationException error(String key, String problem) {
    return new ConfigurationException(
        declaredName(key),
        "Cannot configure " + adapter + " adapter \"" + instance + "\": " + problem,
        null);
  }

  /**
   * {@return the value {@code value} of {@code key} as it may be shown in a message: quoted, with
   * the user information of a URL ({@code https://user:password@host}) replaced by {@code ****}, or
   * {@code (not shown)} for a secret key}
   *
   * @param key the declared key
   * @param value the value as written in the configuration
   */
  public String shown(String key, String value) {
    ConfigKey declaration = declaration(key);
    return declaration != null ? shown(declaration, value) : quoted(value);
  }

  private String shown(ConfigKey key, String value) {
    return key.secret() ? "(not shown)" : quoted(value);
  }

  private static String quoted(String value) {
    return Text.quoteForMessage(USER_INFO.matcher(value).replaceAll("//****@"));
  }

  private Optional<String> raw(String key) {
    return Optional.ofNullable(values.get(key));
  }

  private Optional<String> defaultOf(String key) {
    ConfigKey declaration = declared.get(key);
    return declaration == null ? Optional.empty() : declaration.defaultValue();
  }

  private <T> Optional<T> typed(String key, Class<T> type) {
    ConfigKey declaration = declared(key);
    return optional(key)
        .map(
            value -> {
              Optional<String> problem = declaration.problemWith(value);
              if (problem.isPresent()) {
                throw error(
                    key,
                    "key \""
                        + key
                        + "\" has value "
                        + shown(declaration, value)
                        + ", which "
                        + problem.get());
              }
              return type.cast(declaration.parse(value));
            });
  }

  private ConfigKey declared(String key) {
    ConfigKey declaration = declared.get(key);
    if (declaration == null) {
      throw new IllegalArgumentException(
          "Cannot read key " + key + " of adapter " + adapter + ": it is not declared");
    }
    return declaration;
  }

  /** The declaration {@code name} falls under: its own, or a map's for {@code map.entry}. */
  private ConfigKey declaration(String name) {
    ConfigKey key = declared.get(name);
    if (key != null) {
      return key;
    }
    int dot = name.lastIndexOf('.');
    while (dot > 0) {
      ConfigKey map = declared.get(name.substring(0, dot));
      if (map != null && map.type() == ConfigKey.Type.MAP) {
        return map;
      }
      dot = name.lastIndexOf('.', dot - 1);
    }
    return null;
  }

  private String declaredName(String key) {
    ConfigKey declaration = declaration(key);
    return declaration == null ? key : declaration.name();
  }

  /**
   * {@return the name in {@code known} closest to a misspelt {@code name}, if it is close (at most
   * 2 edits): for "did you mean" hints}
   *
   * @param name the misspelt name
   * @param known the known names
   */
  public static Optional<String> closest(String name, Set<String> known) {
    requireNonNull(name, "name is null");
    String best = null;
    int bestDistance = 3;
    for (String candidate : new TreeSet<>(known)) {
      int distance = distance(name, candidate);
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
