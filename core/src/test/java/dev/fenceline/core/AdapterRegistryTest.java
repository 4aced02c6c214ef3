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

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fenceline.spi.Adapter;
import dev.fenceline.spi.AdapterFactory;
import dev.fenceline.spi.ConfigurationException;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AdapterRegistryTest {

  @TempDir Path directory;

  /** A factory for the tests. */
  public static final class MemoryFactory implements AdapterFactory {
    @Override
    public String name() {
      return "memory";
    }

    @Override
    public Adapter create(String instanceName, Map<String, String> config) {
      return () -> {};
    }
  }

  /** A second factory that claims the same name. */
  public static final class ClashingFactory implements AdapterFactory {
    @Override
    public String name() {
      return "memory";
    }

    @Override
    public Adapter create(String instanceName, Map<String, String> config) {
      return () -> {};
    }
  }

  private ClassLoader loaderListing(Class<?>... factories) throws IOException {
    Path services = directory.resolve("META-INF/services");
    Files.createDirectories(services);
    StringBuilder lines = new StringBuilder();
    for (Class<?> factory : factories) {
      lines.append(factory.getName()).append('\n');
    }
    Files.writeString(services.resolve(AdapterFactory.class.getName()), lines);
    return new URLClassLoader(new URL[] {directory.toUri().toURL()}, getClass().getClassLoader());
  }

  @Test
  void findsFactoriesByName() throws IOException {
    AdapterRegistry registry = AdapterRegistry.load(loaderListing(MemoryFactory.class));

    assertThat(registry.factory("memory")).isInstanceOf(MemoryFactory.class);
    try (Adapter adapter = registry.create("memory", "test", Map.of())) {
      assertThat(adapter.leaseIssuer()).isEmpty();
    }
  }

  @Test
  void anUnknownNameListsTheKnownOnes() throws IOException {
    AdapterRegistry registry = AdapterRegistry.load(loaderListing(MemoryFactory.class));

    assertThatThrownBy(() -> registry.factory("jdbcc"))
        .isInstanceOf(ConfigurationException.class)
        .hasMessage(
            "Cannot find adapter \"jdbcc\": known adapters are [memory] (check the spelling, or add"
                + " the adapter's jar to the class path)");
  }

  @Test
  void twoFactoriesWithOneNameAreRefused() throws IOException {
    ClassLoader loader = loaderListing(MemoryFactory.class, ClashingFactory.class);

    assertThatThrownBy(() -> AdapterRegistry.load(loader))
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("both")
        .hasMessageContaining(ClashingFactory.class.getName());
  }
}
