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
