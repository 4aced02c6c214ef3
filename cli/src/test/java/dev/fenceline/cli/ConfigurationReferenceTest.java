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
package dev.fenceline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fenceline.config.ConfigReference;
import dev.fenceline.core.AdapterRegistry;
import dev.fenceline.spi.AdapterFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.Test;

/**
 * {@code docs/configuration-reference.md} is what {@link ConfigReference} generates from the
 * built-in adapters' declarations (all of them are on this module's class path), so the reference
 * cannot drift from the code. To regenerate it after changing a declaration, run the command in
 * {@link #REGENERATE}.
 */
class ConfigurationReferenceTest {

  static final String REGENERATE =
      "mvn -B -pl cli -am verify -Dsurefire.failIfNoSpecifiedTests=false"
          + " -Dtest=ConfigurationReferenceTest -Dfenceline.regenerate-docs=true";

  private static final Path REFERENCE = Path.of("../docs/configuration-reference.md");

  @Test
  void theCheckedInReferenceIsTheOneTheDeclarationsGive() throws IOException {
    AdapterRegistry registry = AdapterRegistry.load();
    // The adapters a user gets, not this module's test stores.
    List<AdapterFactory> adapters =
        registry.names().stream()
            .map(registry::factory)
            .filter(factory -> !fromThisModulesTests(factory))
            .toList();
    String generated = ConfigReference.markdown(adapters);
    assertThat(adapters)
        .extracting(AdapterFactory::name)
        .containsExactly("jdbc", "s3", "vfs", "zookeeper");
    if (Boolean.getBoolean("fenceline.regenerate-docs")) {
      Files.createDirectories(REFERENCE.getParent());
      Files.writeString(REFERENCE, generated);
    }
    String checkedIn = Files.exists(REFERENCE) ? Files.readString(REFERENCE) : "(missing)";
    assertThat(checkedIn)
        .as(
            "docs/configuration-reference.md differs from the adapters' declarations; regenerate"
                + " it with: "
                + REGENERATE)
        .isEqualTo(generated);
  }

  private static boolean fromThisModulesTests(AdapterFactory factory) {
    return Objects.equals(
        factory.getClass().getProtectionDomain().getCodeSource().getLocation(),
        ConfigurationReferenceTest.class.getProtectionDomain().getCodeSource().getLocation());
  }
}
