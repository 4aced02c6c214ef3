package dev.fenceline.vfs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fenceline.spi.ConfigurationException;
import dev.fenceline.spi.StorePreflight;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link VfsBlobStore.Builder#preflight()} creates nothing; plain paths and file://relative. */
class VfsPreflightTest {

  @TempDir Path directory;

  @Test
  void aMissingDirectoryIsReportedAsWouldCreateAndNotCreated() {
    Path typo = directory.resolve("reprots").resolve("nightly");

    StorePreflight preflight =
        new VfsAdapterFactory().preflight("reports-dir", Map.of("uri", typo.toUri().toString()));

    assertThat(preflight)
        .isEqualTo(new StorePreflight(true, List.of("directory " + typo), List.of()));
    assertThat(directory.resolve("reprots")).doesNotExist();
  }

  @Test
  void anExistingWritableDirectoryIsReadyAndAFileIsAProblem() throws Exception {
    Path file = Files.writeString(directory.resolve("file"), "x");

    assertThat(VfsBlobStore.builder(directory.toString()).preflight())
        .isEqualTo(StorePreflight.ready());
    assertThat(VfsBlobStore.builder(file.resolve("below").toString()).preflight().problems())
        .containsExactly("not a directory: " + file + " (point the uri at a directory)");
  }

  @Test
  void aPathWithoutSchemeIsALocalPathRelativeToTheWorkingDirectory() {
    Path expected = Path.of("target", "vfs-preflight-relative").toAbsolutePath();

    try (VfsBlobStore store = VfsBlobStore.open("./target/vfs-preflight-relative")) {
      assertThat(store.description()).isEqualTo("file://" + expected);
      assertThat(expected).isDirectory();
    }
  }

  @Test
  void fileSlashSlashDotIsRefusedSinceItNamesAHost() {
    assertThatThrownBy(() -> VfsBlobStore.builder("file://./fenceline-data/reports"))
        .isInstanceOf(ConfigurationException.class)
        .hasMessage(
            "Cannot open a blob store at file://./fenceline-data/reports: after file:// comes a"
                + " host name, so this names /fenceline-data/reports, not a path relative to the"
                + " working directory (write a plain path such as ./fenceline-data/reports, or an"
                + " absolute URI such as file:///srv/reports)");
  }
}
