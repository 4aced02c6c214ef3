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

import dev.fenceline.spi.BlobKey;
import dev.fenceline.spi.StoreException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A symbolic link below the base directory pointing outside cannot redirect a put, a read, a
 * deletion or a listing there: the outside target is never touched.
 */
class LocalSymlinkTest {

  @TempDir Path directory;
  private Path base;
  private Path outside;
  private Path victim;
  private VfsBlobStore store;

  @BeforeEach
  void open() throws IOException {
    base = Files.createDirectories(directory.resolve("blobs"));
    outside = Files.createDirectories(directory.resolve("outside"));
    victim = Files.writeString(outside.resolve("1-op-victim"), "not Fenceline's");
    store = VfsBlobStore.open(base.toUri().toString());
  }

  @AfterEach
  void close() {
    store.close();
  }

  private static ByteArrayInputStream bytes(String text) {
    return new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void aLinkedDirectoryRefusesPutReadStatDeleteAndList() throws IOException {
    Files.createDirectories(base.resolve("staging"));
    Files.createSymbolicLink(base.resolve("staging/r"), outside);

    assertThatThrownBy(() -> store.put(BlobKey.of("staging/r/2-op-new"), bytes("new")))
        .isInstanceOf(StoreException.class)
        .hasMessage(
            "Cannot put blob staging/r/2-op-new at "
                + store.description()
                + ": staging/r is a symbolic link, and links below the base directory are not"
                + " followed (they could redirect writes and deletions outside it; replace the"
                + " link with a directory or file of its own)");
    assertThatThrownBy(() -> store.delete(BlobKey.of("staging/r/1-op-victim")))
        .isInstanceOf(StoreException.class)
        .hasMessageContaining("Cannot delete blob staging/r/1-op-victim")
        .hasMessageContaining("staging/r is a symbolic link");
    assertThatThrownBy(() -> store.open(BlobKey.of("staging/r/1-op-victim")))
        .isInstanceOf(StoreException.class)
        .hasMessageContaining("staging/r is a symbolic link");
    assertThatThrownBy(() -> store.stat(BlobKey.of("staging/r/1-op-victim")))
        .isInstanceOf(StoreException.class)
        .hasMessageContaining("staging/r is a symbolic link");
    assertThatThrownBy(() -> store.list(BlobKey.of("staging/r")))
        .isInstanceOf(StoreException.class)
        .hasMessageContaining("staging/r is a symbolic link");

    assertOutsideUntouched();
  }

  @Test
  void listingsSkipLinksToDirectoriesAndFilesBelowTheirPrefix() throws IOException {
    store.put(BlobKey.of("staging/own/1-op-mine"), bytes("mine"));
    Files.createSymbolicLink(base.resolve("staging/linked-dir"), outside);
    Files.createSymbolicLink(base.resolve("staging/own/1-op-linked-file"), victim);

    try (Stream<dev.fenceline.spi.BlobInfo> listed = store.list(BlobKey.of("staging"))) {
      assertThat(listed.map(info -> info.key().value())).containsExactly("staging/own/1-op-mine");
    }
    assertThatThrownBy(() -> store.delete(BlobKey.of("staging/own/1-op-linked-file")))
        .isInstanceOf(StoreException.class)
        .hasMessageContaining("staging/own/1-op-linked-file is a symbolic link");
    assertThatThrownBy(() -> store.put(BlobKey.of("staging/own/1-op-linked-file"), bytes("x")))
        .isInstanceOf(StoreException.class);

    assertOutsideUntouched();
  }

  @Test
  void aBaseDirectoryThatIsItselfALinkWorks() throws IOException {
    Path linkedBase = Files.createSymbolicLink(directory.resolve("linked-blobs"), base);
    try (VfsBlobStore linked = VfsBlobStore.open(linkedBase.toUri().toString())) {
      linked.put(BlobKey.of("staging/a/1-op-x"), bytes("through the base link"));

      assertThat(linked.stat(BlobKey.of("staging/a/1-op-x"))).isPresent();
      assertThat(base.resolve("staging/a/1-op-x")).hasContent("through the base link");
      assertThat(linked.delete(BlobKey.of("staging/a/1-op-x"))).isTrue();
    }
  }

  @Test
  void aBaseDirectoryRedirectedAfterOpeningIsRefused() throws IOException {
    Path linkedBase = Files.createSymbolicLink(directory.resolve("linked-blobs"), base);
    try (VfsBlobStore linked = VfsBlobStore.open(linkedBase.toUri().toString())) {
      Files.delete(linkedBase);
      Files.createSymbolicLink(linkedBase, outside);

      assertThatThrownBy(() -> linked.put(BlobKey.of("1-op-victim"), bytes("x")))
          .isInstanceOf(StoreException.class)
          .hasMessageContaining("the base directory now leads to " + outside.toRealPath());
      assertThatThrownBy(() -> linked.delete(BlobKey.of("1-op-victim")))
          .isInstanceOf(StoreException.class);
    }
    assertOutsideUntouched();
  }

  private void assertOutsideUntouched() throws IOException {
    assertThat(victim).hasContent("not Fenceline's");
    try (Stream<Path> files = Files.list(outside)) {
      assertThat(files).containsExactly(victim);
    }
  }
}
