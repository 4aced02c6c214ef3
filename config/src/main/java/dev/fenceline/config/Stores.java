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

import static java.util.Objects.requireNonNull;

import dev.fenceline.core.AdapterRegistry;
import dev.fenceline.spi.Adapter;
import dev.fenceline.spi.AdapterFactory;
import dev.fenceline.spi.ConfigurationException;
import dev.fenceline.spi.StoreException;
import dev.fenceline.spi.StorePreflight;
import dev.fenceline.spi.StoreRole;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The {@code stores:} of one file: each section read against its adapter's declared keys and
 * checked by the adapter ({@link AdapterFactory#validate}) at load; the adapters opened on first
 * use and closed together. Which roles a store can play comes from its factory's {@link
 * AdapterFactory#roles()}; a factory that declares none is found out when the store opens.
 */
final class Stores implements AutoCloseable {

  /** One store section: its adapter, and its values as written. */
  record Entry(
      String name,
      String type,
      AdapterFactory factory,
      Section section,
      Map<String, String> values) {
    Entry {
      values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
    }

    /** Name, type and values, the secret ones as {@code ****} and URLs without credentials. */
    @Override
    public String toString() {
      Predicate<String> secret = DeclaredKeys.secretKeys(factory.configKeys());
      Map<String, String> shown = new LinkedHashMap<>();
      values.forEach(
          (key, value) ->
              shown.put(key, secret.test(key) ? Secrets.MASK : Secrets.redactUrls(value)));
      return "Store[name=" + name + ", type=" + type + ", values=" + shown + "]";
    }
  }

  /**
   * A store the caller provides ({@link FencelineConfig.Loader#store}): its adapter comes from
   * {@code open}, its roles from adapter {@code type}.
   */
  record Provided(String name, String type, String description, Supplier<Adapter> open) {}

  private final AdapterRegistry registry;
  private final Map<String, Entry> entries;
  private final Map<String, Provided> provided;
  private final Map<String, Adapter> opened = new LinkedHashMap<>();

  /** During {@link FencelineConfig#check()} only: stand-ins for the stores it did not open. */
  private final Map<String, Adapter> standIns = new LinkedHashMap<>();

  private boolean forReading;

  private Stores(
      AdapterRegistry registry, Map<String, Entry> entries, Map<String, Provided> provided) {
    this.registry = registry;
    this.entries = entries;
    this.provided = provided;
  }

  /**
   * Reads and checks every store section of {@code root}, opening nothing.
   *
   * @throws ConfigFileException at the first mistake
   */
  static Stores read(Section root, AdapterRegistry registry) {
    return read(root, registry, Map.of());
  }

  /**
   * As {@link #read(Section, AdapterRegistry)}, with the stores the caller provides first; a store
   * of the same name in {@code root} replaces a provided one.
   */
  static Stores read(Section root, AdapterRegistry registry, Map<String, Provided> provided) {
    Map<String, Entry> result = new LinkedHashMap<>();
    Map<String, Provided> used = new LinkedHashMap<>();
    Map<String, Section> written = root.sections("stores");
    provided.forEach(
        (name, store) -> {
          if (!written.containsKey(name)) {
            result.put(name, providedEntry(root, store, registry));
            used.put(name, store);
          }
        });
    for (Map.Entry<String, Section> named : written.entrySet()) {
      result.put(named.getKey(), entry(named.getKey(), named.getValue(), registry));
    }
    if (result.isEmpty()) {
      throw root.keyError(
          "stores",
          "no store is configured",
          "add one, e.g. stores: {main: {type: jdbc, url: \"jdbc:sqlite:fenceline.db\"}}");
    }
    return new Stores(registry, result, used);
  }

  /** A provided store's entry: no values, its section empty and placed at its description. */
  private static Entry providedEntry(Section root, Provided store, AdapterRegistry registry) {
    Section section =
        new Section(
            root.source(),
            root.path("stores") + "." + store.name(),
            new ConfigNode.Mapping(ConfigLocation.of(store.description()), Map.of()));
    return new Entry(store.name(), store.type(), registry.factory(store.type()), section, Map.of());
  }

  private static Entry entry(String name, Section raw, AdapterRegistry registry) {
    String type = raw.requiredString("type", "jdbc");
    AdapterFactory factory;
    try {
      factory = registry.factory(type);
    } catch (ConfigurationException e) {
      throw raw.valueError(
          "type",
          "unknown store type \"" + type + "\"",
          "known types: "
              + (registry.names().isEmpty()
                  ? "(none on the class path)"
                  : String.join(", ", registry.names()))
              + "; check the spelling, or add the adapter's jar to the class path");
    }
    Section section = raw.withSecretKeys(DeclaredKeys.secretKeys(factory.configKeys()));
    Map<String, String> values;
    if (factory.configKeys().isEmpty()) {
      // An adapter that declares nothing: its keys pass through, checked when its store opens.
      values = new LinkedHashMap<>();
      for (String key : section.keys()) {
        if (!key.equals("type")) {
          Map<String, String> into = values;
          section.string(key).ifPresent(value -> into.put(key, value));
        }
      }
    } else {
      values = DeclaredKeys.read(section, factory.configKeys(), Set.of("type"));
    }
    try {
      factory.validate(name, values);
    } catch (ConfigurationException e) {
      throw DeclaredKeys.refusal(section, e, "the " + type + " adapter refused the store");
    }
    return new Entry(name, type, factory, section, values);
  }

  /** The store names, in file order. */
  Set<String> names() {
    return Collections.unmodifiableSet(entries.keySet());
  }

  /** Every store, in file order. */
  List<Entry> entries() {
    return List.copyOf(entries.values());
  }

  boolean has(String name) {
    return entries.containsKey(name);
  }

  /** The store called {@code name}, which must exist. */
  Entry entry(String name) {
    return requireNonNull(entries.get(name), name);
  }

  /** {@code name (type)}, for messages. */
  String describe(String name) {
    return name + " (" + entry(name).type() + ")";
  }

  /**
   * Refuses a reference to a store that is not configured, at {@code key} of {@code section}.
   *
   * @throws ConfigFileException if there is no store {@code store}
   */
  void require(Section section, String key, String store) {
    if (!entries.containsKey(store)) {
      throw section.valueError(
          key,
          "no store is called \"" + store + "\"",
          "configured stores: " + String.join(", ", entries.keySet()));
    }
  }

  /** Whether store {@code name} can play {@code role}; true if its factory declares no roles. */
  boolean offers(String name, StoreRole role) {
    Set<StoreRole> roles = entry(name).factory().roles();
    return roles.isEmpty() || roles.contains(role);
  }

  /** Whether the factory of store {@code name} declares its roles. */
  boolean declaresRoles(String name) {
    return !entry(name).factory().roles().isEmpty();
  }

  /**
   * The types on the class path whose stores play {@code role}, for hints: those that play only it
   * first (the dedicated stores), then the others, each by name.
   */
  List<String> typesOffering(StoreRole role) {
    List<String> dedicated = new ArrayList<>();
    List<String> others = new ArrayList<>();
    for (String type : registry.names()) {
      Set<StoreRole> roles = registry.factory(type).roles();
      if (roles.contains(role)) {
        (roles.size() == 1 ? dedicated : others).add(type);
      }
    }
    dedicated.addAll(others);
    return dedicated;
  }

  /**
   * How many versions of each publish pointer store {@code name}'s pointer stores keep, if its
   * configuration bounds them ({@link AdapterFactory#pointerVersionsKey()}), with that key.
   */
  Optional<Map.Entry<String, Long>> pointerVersions(String name) {
    Entry store = entry(name);
    Optional<String> key = store.factory().pointerVersionsKey();
    if (key.isEmpty() || !store.values().containsKey(key.get())) {
      return Optional.empty();
    }
    OptionalLong versions = parse(store.values().get(key.get()));
    return versions.isEmpty()
        ? Optional.empty()
        : Optional.of(Map.entry(key.get(), versions.getAsLong()));
  }

  private static OptionalLong parse(String number) {
    try {
      return OptionalLong.of(Long.parseLong(number.strip()));
    } catch (NumberFormatException e) {
      return OptionalLong.empty();
    }
  }

  /** From now on, stores open for looking only ({@link AdapterFactory#createForReading}). */
  void forReading(String file) {
    if (!opened.isEmpty()) {
      throw new IllegalStateException(
          "Cannot open the stores of " + file + " for reading: some are open already");
    }
    forReading = true;
  }

  boolean openedForReading() {
    return forReading;
  }

  /** The store's adapter: its stand-in during a check, else the adapter, opened on first use. */
  Adapter adapter(String name, Secrets secrets) {
    Adapter standIn = standIns.get(name);
    if (standIn != null) {
      return standIn;
    }
    Adapter adapter = opened.get(name);
    if (adapter != null) {
      return adapter;
    }
    Entry store = entry(name);
    Section section = store.section();
    try {
      Provided given = provided.get(name);
      adapter =
          given != null
              ? requireNonNull(given.open().get(), "the provided store's adapter is null")
              : forReading
                  ? store.factory().createForReading(name, store.values())
                  : store.factory().create(name, store.values());
    } catch (ConfigurationException e) {
      throw DeclaredKeys.refusal(section, e, "the " + store.type() + " adapter refused the store");
    } catch (StoreException e) {
      String message =
          "Cannot open store "
              + section.path()
              + " ("
              + store.type()
              + ") configured at "
              + section.location()
              + ": "
              + secrets.scrub(e.getMessage());
      throw new StoreException(
          message, secrets.scrub(e.getMessage()).equals(e.getMessage()) ? e : null, false);
    }
    opened.put(name, adapter);
    return adapter;
  }

  /** The store's {@linkplain AdapterFactory#preflight preflight}, creating nothing. */
  StorePreflight preflight(Entry store) {
    if (provided.containsKey(store.name())) {
      return StorePreflight.notChecked(); // the caller's connection: only opening it checks it
    }
    try {
      return store.factory().preflight(store.name(), store.values());
    } catch (ConfigurationException e) {
      throw DeclaredKeys.refusal(
          store.section(), e, "the " + store.type() + " adapter refused the store");
    }
  }

  /**
   * Makes store {@code name} answer with the stand-in components of its declared roles until {@link
   * #clearStandIns()} (see {@link StandInAdapter}); false if its factory declares none.
   */
  boolean standIn(String name) {
    Optional<Adapter> standIn = StandInAdapter.of(name, entry(name).factory().roles());
    standIn.ifPresent(adapter -> standIns.put(name, adapter));
    return standIn.isPresent();
  }

  void clearStandIns() {
    standIns.clear();
  }

  /** Closes every opened adapter, the last opened first. */
  @Override
  public void close() {
    RuntimeException failure = null;
    List<Adapter> toClose = new ArrayList<>(opened.values());
    Collections.reverse(toClose);
    for (Adapter adapter : toClose) {
      try {
        adapter.close();
      } catch (RuntimeException e) {
        if (failure == null) {
          failure = e;
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
  }
}
