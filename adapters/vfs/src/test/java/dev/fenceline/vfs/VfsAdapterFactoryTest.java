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
package dev.fenceline.vfs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fenceline.spi.Adapter;
import dev.fenceline.spi.AdapterFactory;
import dev.fenceline.spi.ConfigurationException;
import java.nio.file.Path;
import java.util.Map;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class VfsAdapterFactoryTest {

  @TempDir Path directory;

  private static AdapterFactory vfs() {
    return ServiceLoader.load(AdapterFactory.class).stream()
        .map(ServiceLoader.Provider::get)
        .filter(factory -> factory.name().equals("vfs"))
        .findFirst()
        .orElseThrow();
  }

  @Test
  void isFoundByServiceLoaderAndOffersABlobStore() {
    try (Adapter adapter =
        vfs().create("files", Map.of("uri", directory.resolve("blobs").toUri().toString()))) {
      assertThat(adapter.blobStore()).isPresent();
      assertThat(adapter.leaseIssuer()).isEmpty();
      assertThat(adapter.pointerStore("reports")).isEmpty();
    }
  }

  @Test
  void acceptsAllowCaseFolding() {
    String uri = directory.resolve("blobs").toUri().toString();
    try (Adapter adapter =
        vfs().create("files", Map.of("uri", uri, "allow-case-folding", "true"))) {
      assertThat(adapter.blobStore()).isPresent();
    }
  }

  @Test
  void rejectsUnknownMissingAndMalformedKeysByName() {
    String uri = directory.toUri().toString();
    assertThatThrownBy(() -> vfs().create("files", Map.of("uri", uri, "url", "x")))
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("Cannot configure vfs adapter \"files\": unknown key \"url\"");
    assertThatThrownBy(() -> vfs().create("files", Map.of()))
        .hasMessageContaining("key \"uri\" is missing");
    assertThatThrownBy(() -> vfs().create("files", Map.of("uri", uri, "user", "u")))
        .hasMessageContaining("go together");
    assertThatThrownBy(() -> vfs().create("files", Map.of("uri", uri, "timeout", "30")))
        .hasMessageContaining("\"timeout\" has value \"30\"");
    assertThatThrownBy(
            () -> vfs().create("files", Map.of("uri", uri, "strict-host-key-checking", "no")))
        .hasMessageContaining("write true or false");
    assertThatThrownBy(() -> vfs().create("files", Map.of("uri", uri, "allow-case-folding", "1")))
        .hasMessageContaining("write true or false");
  }
}
