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
