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
package dev.fenceline.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fenceline.spi.Adapter;
import dev.fenceline.spi.StorePreflight;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link JdbcAdapterFactory#preflight} for SQLite creates nothing; opening creates the directory.
 */
class JdbcPreflightTest {

  @TempDir Path directory;

  private final JdbcAdapterFactory factory = new JdbcAdapterFactory();

  @Test
  void aMissingFileInAMissingDirectoryWouldCreateBothAndNothingIsCreated() {
    Path file = directory.resolve("data").resolve("fenceline.db");

    StorePreflight preflight = factory.preflight("main", Map.of("url", "jdbc:sqlite:" + file));

    assertThat(preflight)
        .isEqualTo(
            new StorePreflight(
                true,
                List.of("directory " + file.getParent(), "SQLite database " + file),
                List.of()));
    assertThat(file.getParent()).doesNotExist();
  }

  @Test
  void anExistingFileIsReadyAndOpeningCreatesAMissingDirectoryFirst() {
    Path file = directory.resolve("data").resolve("fenceline.db");
    try (Adapter adapter = factory.create("main", Map.of("url", "jdbc:sqlite:" + file))) {
      assertThat(adapter.leaseIssuer()).isPresent();
    }

    assertThat(file).isRegularFile();
    assertThat(factory.preflight("main", Map.of("url", "jdbc:sqlite:" + file)))
        .isEqualTo(StorePreflight.ready());
  }

  @Test
  void aRelativeFileResolvesAgainstTheWorkingDirectoryAndPostgresIsNotChecked() {
    Path expected = Path.of("target", "preflight-relative", "f.db").toAbsolutePath();

    assertThat(
            factory
                .preflight("main", Map.of("url", "jdbc:sqlite:./target/preflight-relative/f.db"))
                .wouldCreate())
        .contains("SQLite database " + expected);
    assertThat(factory.preflight("pg", Map.of("url", "jdbc:postgresql://db:5432/app")))
        .isEqualTo(StorePreflight.notChecked());
    assertThat(Files.exists(expected.getParent())).isFalse();
  }
}
