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
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fenceline.spi.ConfigurationException;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StoreException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Which SQLite database a store opens, and what it says when it cannot. */
class SqliteFileTest {

  private static final ResourceId RESOURCE = ResourceId.of("nightly-report");

  @TempDir Path directory;

  @ParameterizedTest
  @ValueSource(
      strings = {
        "odd?name.db",
        "report?journal_mode=off.db",
        "hash#name.db",
        "percent%20name.db",
        "100%.db",
        "with space.db",
        "ünïcødé.db"
      })
  void sqliteOpensExactlyTheNamedFileWhateverCharactersItsNameHolds(String name)
      throws IOException {
    Path file = directory.resolve(name);

    try (JdbcStore store = JdbcStore.sqlite(file)) {
      store.leaseIssuer().tryAcquire(RESOURCE, "worker-a", Duration.ofMinutes(1)).orElseThrow();
    }

    assertThat(file).isRegularFile();
    assertThat(filesIn(directory)).allSatisfy(found -> assertThat(found).startsWith(name));
    try (JdbcStore reopened = JdbcStore.sqlite(file)) {
      assertThat(reopened.leaseIssuer().status(RESOURCE).epoch()).isEqualTo(Epoch.of(1));
    }
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "jdbc:sqlite:",
        "jdbc:sqlite::memory:",
        "jdbc:sqlite:file::memory:?cache=shared",
        "jdbc:sqlite:file:fenceline?mode=memory&cache=shared"
      })
  void inMemoryAndTemporaryDatabasesAreRefusedAtBuild(String url) {
    assertThatThrownBy(() -> JdbcStore.builder().url(url).build())
        .isInstanceOf(ConfigurationException.class)
        .hasMessageStartingWith("Cannot open jdbc:sqlite:")
        .hasMessageContaining("in-memory or temporary SQLite database")
        .hasMessageContaining("point the URL at a file");
  }

  @Test
  void aMissingDirectoryIsNamedAsTheProblem() {
    Path missingDirectory = directory.resolve("no-such-dir");
    Path file = missingDirectory.resolve("fenceline.db");

    assertThatThrownBy(() -> JdbcStore.sqlite(file))
        .isInstanceOf(StoreException.class)
        .hasMessageContaining("the directory " + missingDirectory + " does not exist; create it")
        .hasMessageNotContaining("running");
    assertThatThrownBy(() -> JdbcStore.builder().url("jdbc:sqlite:" + file).build())
        .isInstanceOf(StoreException.class)
        .hasMessageContaining("the directory " + missingDirectory + " does not exist; create it")
        .hasMessageNotContaining("running");
    assertThat(missingDirectory).doesNotExist();
  }

  private static List<String> filesIn(Path directory) throws IOException {
    try (Stream<Path> files = Files.list(directory)) {
      return files.map(path -> path.getFileName().toString()).toList();
    }
  }
}
