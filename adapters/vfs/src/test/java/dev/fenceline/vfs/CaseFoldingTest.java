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

import dev.fenceline.spi.UnsafeStoreException;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.commons.vfs2.FileObject;
import org.apache.commons.vfs2.impl.StandardFileSystemManager;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The case-folding probe, on hand-written directories that fold case or not (Linux cannot fold case
 * on this machine's file systems), and on the real temporary directory.
 */
class CaseFoldingTest {

  @TempDir Path directory;

  /** A directory in memory; folding case like macOS and Windows do if asked to. */
  private static final class FakeDirectory implements CaseFolding.ProbeDirectory {
    private final boolean foldsCase;
    private final boolean writable;
    private final Set<String> files = new HashSet<>();
    private final Set<String> created = new HashSet<>();

    FakeDirectory(boolean foldsCase, boolean writable) {
      this.foldsCase = foldsCase;
      this.writable = writable;
    }

    private String fold(String name) {
      return foldsCase ? name.toLowerCase(Locale.ROOT) : name;
    }

    @Override
    public void create(String name) throws IOException {
      if (!writable) {
        throw new AccessDeniedException(name, null, "Read-only file system");
      }
      created.add(name);
      files.add(fold(name));
    }

    @Override
    public boolean exists(String name) {
      return files.contains(fold(name));
    }

    @Override
    public void delete(String name) {
      files.remove(fold(name));
    }
  }

  @Test
  void aDirectoryThatFoldsCaseIsFoundAndRefused() throws IOException {
    FakeDirectory folding = new FakeDirectory(true, true);

    assertThat(CaseFolding.probe(folding)).isEqualTo(CaseFolding.Result.FOLDS_CASE);
    assertThatThrownBy(() -> CaseFolding.requireCaseSensitive(folding, "file:///Volumes/x", false))
        .isInstanceOf(UnsafeStoreException.class)
        .hasMessageStartingWith(
            "Cannot open blob store at file:///Volumes/x: its file system folds case")
        .hasMessageContaining("allowCaseFolding(true)");
    assertThat(folding.files).isEmpty();
    assertThat(folding.created).allSatisfy(name -> assertThat(name).isLowerCase());
  }

  @Test
  void aDirectoryThatFoldsCaseIsAcceptedWhenAllowed() throws IOException {
    FakeDirectory folding = new FakeDirectory(true, true);

    assertThat(CaseFolding.requireCaseSensitive(folding, "file:///Volumes/x", true))
        .isEqualTo(CaseFolding.Result.FOLDS_CASE);
    assertThat(folding.files).isEmpty();
  }

  @Test
  void aCaseSensitiveDirectoryPasses() throws IOException {
    FakeDirectory sensitive = new FakeDirectory(false, true);

    assertThat(CaseFolding.requireCaseSensitive(sensitive, "file:///srv/x", false))
        .isEqualTo(CaseFolding.Result.CASE_SENSITIVE);
    assertThat(sensitive.files).isEmpty();
    assertThat(sensitive.created).hasSize(1);
  }

  @Test
  void aDirectoryWhereNothingCanBeCreatedIsUnknownNotRefused() throws IOException {
    assertThat(CaseFolding.requireCaseSensitive(new FakeDirectory(true, false), "x", false))
        .isEqualTo(CaseFolding.Result.UNKNOWN);
  }

  @Test
  void theLocalTemporaryDirectoryIsCaseSensitiveAndKeepsNoProbe() throws IOException {
    StandardFileSystemManager manager = new StandardFileSystemManager();
    manager.init();
    try {
      FileObject local = manager.resolveFile(directory.toUri());

      assertThat(CaseFolding.probe(CaseFolding.of(local)))
          .isEqualTo(CaseFolding.Result.CASE_SENSITIVE);
    } finally {
      manager.close();
    }
    try (Stream<Path> left = Files.list(directory)) {
      assertThat(left).isEmpty();
    }
  }

  @Test
  void aStoreOpensOnTheLocalTemporaryDirectoryAndKeepsNoProbe() throws IOException {
    Path base = directory.resolve("blobs");
    VfsBlobStore.open(base.toUri().toString()).close();

    try (Stream<Path> left = Files.list(base)) {
      assertThat(left).isEmpty();
    }
  }
}
