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
package dev.fenceline.core;

import static java.util.Objects.requireNonNull;

import dev.fenceline.spi.Adapter;
import dev.fenceline.spi.AdapterFactory;
import dev.fenceline.spi.ConfigurationException;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;

/** The adapter factories found on the class path with {@link ServiceLoader}, by name. */
public final class AdapterRegistry {

  private final Map<String, AdapterFactory> factories;

  private AdapterRegistry(Map<String, AdapterFactory> factories) {
    this.factories = factories;
  }

  /**
   * Finds every {@link AdapterFactory} visible to {@code classLoader}.
   *
   * @throws ConfigurationException if two factories share a name
   */
  public static AdapterRegistry load(ClassLoader classLoader) {
    TreeMap<String, AdapterFactory> found = new TreeMap<>();
    for (AdapterFactory factory : ServiceLoader.load(AdapterFactory.class, classLoader)) {
      AdapterFactory previous = found.putIfAbsent(factory.name(), factory);
      if (previous != null) {
        throw new ConfigurationException(
            "Cannot load adapter \""
                + factory.name()
                + "\": both "
                + previous.getClass().getName()
                + " and "
                + factory.getClass().getName()
                + " use that name (remove one of the jars from the class path)");
      }
    }
    return new AdapterRegistry(Map.copyOf(found));
  }

  /** Finds every {@link AdapterFactory} visible to this class's class loader. */
  public static AdapterRegistry load() {
    return load(AdapterRegistry.class.getClassLoader());
  }

  /** The names of the adapters found, sorted. */
  public java.util.SortedSet<String> names() {
    return java.util.Collections.unmodifiableSortedSet(new java.util.TreeSet<>(factories.keySet()));
  }

  /**
   * Returns the factory called {@code name}.
   *
   * @throws ConfigurationException if there is none; the message lists the known names
   */
  public AdapterFactory factory(String name) {
    requireNonNull(name, "name is null");
    AdapterFactory factory = factories.get(name);
    if (factory == null) {
      throw new ConfigurationException(
          "Cannot find adapter \""
              + name
              + "\": known adapters are "
              + new TreeMap<>(factories).keySet()
              + " (check the spelling, or add the adapter's jar to the class path)");
    }
    return factory;
  }

  /**
   * Creates an adapter instance.
   *
   * @see AdapterFactory#create(String, Map)
   */
  public Adapter create(String adapterName, String instanceName, Map<String, String> config) {
    return factory(adapterName).create(instanceName, config);
  }
}
