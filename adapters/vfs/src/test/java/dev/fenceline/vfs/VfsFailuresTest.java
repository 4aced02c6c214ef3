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
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.fenceline.spi.BlobKey;
import dev.fenceline.spi.ConfigurationException;
import dev.fenceline.spi.StoreException;
import dev.fenceline.tck.Payloads;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bad URIs, a vanished directory, a full disk, a read-only volume, refused SFTP writes. */
class VfsFailuresTest {

  @TempDir Path directory;

  private static ByteArrayInputStream bytes(String text) {
    return new ByteArrayInputStream(text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
  }

  @Test
  void unknownSchemesAndFilesAsBaseAreConfigurationErrors() throws IOException {
    assertThatThrownBy(() -> VfsBlobStore.open("nosuch://host/dir"))
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("Cannot open blob store at nosuch://host/dir")
        .hasMessageContaining("file:///var/lib/fenceline");
    Path file = Files.writeString(directory.resolve("a-file"), "x");
    assertThatThrownBy(() -> VfsBlobStore.open(file.toUri().toString()))
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("it is a file, not a directory");
    assertThatThrownBy(() -> VfsBlobStore.open(" ")).hasMessageContaining("the URI is empty");
  }

  @Test
  void anUnknownSchemeNamesTheSupportedSchemesNotARelativePath() {
    assertThatThrownBy(() -> VfsBlobStore.open("nosuch://host/dir"))
        .isInstanceOf(ConfigurationException.class)
        .hasMessage(
            "Cannot open blob store at nosuch://host/dir: scheme \"nosuch\" is not supported (use"
                + " one of file, sftp, ram, e.g. file:///var/lib/fenceline, sftp://host/srv/fenceline"
                + " or ram:///fenceline)");
  }

  @Test
  void passwordsInTheUriNeverReachAMessage() {
    assertThatThrownBy(
            () ->
                VfsBlobStore.builder("sftp://user:hunter2@127.0.0.1:1/x")
                    .timeout(Duration.ofSeconds(2))
                    .build())
        .isInstanceOf(StoreException.class)
        .hasMessageNotContaining("hunter2");
  }

  @Test
  void aPutOnAnInterruptedThreadSaysItWasInterruptedAndLeavesNothing() throws IOException {
    Path base = directory.resolve("blobs");
    try (VfsBlobStore store = VfsBlobStore.open(base.toUri().toString())) {
      Thread.currentThread().interrupt(); // as a @Fenced method's thread whose lease was lost
      try {
        assertThatThrownBy(() -> store.put(BlobKey.of("staging/a-1"), bytes("one")))
            .isInstanceOf(StoreException.class)
            .hasMessageContaining("Cannot put blob staging/a-1")
            .hasMessageContaining("the thread was interrupted (ClosedByInterruptException)")
            .hasMessageContaining("nothing was left at the key")
            .hasMessageNotContaining(": null");
      } finally {
        Thread.interrupted();
      }
      assertThat(Files.exists(base.resolve("staging/a-1"))).isFalse();
    }
  }

  @Test
  void filesThatNoKeyCanNameAreLeftOutOfListings() throws IOException {
    Path base = directory.resolve("blobs");
    try (VfsBlobStore store = VfsBlobStore.open(base.toUri().toString())) {
      store.put(BlobKey.of("staging/a-1"), bytes("one"));
      Files.writeString(base.resolve("staging/report (1).csv"), "copied in by hand");

      try (var listed = store.list(BlobKey.of("staging"))) {
        assertThat(listed.map(info -> info.key().value())).containsExactly("staging/a-1");
      }
    }
  }

  @Test
  void aVanishedBaseDirectoryIsAnErrorAndIsNotRecreated() throws IOException {
    Path base = directory.resolve("blobs");
    try (VfsBlobStore store = VfsBlobStore.open(base.toUri().toString())) {
      store.put(BlobKey.of("a/1"), bytes("one"));
      deleteTree(base);

      assertThatThrownBy(() -> store.put(BlobKey.of("a/2"), bytes("two")))
          .isInstanceOf(StoreException.class)
          .hasMessageContaining("the base directory has vanished");
      assertThat(base).doesNotExist();
      assertThatThrownBy(() -> store.open(BlobKey.of("a/1")))
          .isInstanceOf(StoreException.class)
          .hasMessageContaining("there is no blob at that key");
    }
  }

  @Test
  void aFullDiskIsAClearErrorAndLeavesNothingAtTheKey() throws Exception {
    Path volume = mountTmpfs("size=1m");
    try (VfsBlobStore store = VfsBlobStore.open(volume.toUri().toString())) {
      BlobKey key = BlobKey.of("staging/big");

      assertThatThrownBy(() -> store.put(key, Payloads.generated(4L * 1024 * 1024, 1)))
          .isInstanceOf(StoreException.class)
          .hasMessageContaining("Cannot put blob staging/big")
          .hasMessageContaining("No space left on device")
          .hasMessageContaining("the volume is full");

      assertThat(store.stat(key)).isEmpty();
      assertThat(store.put(BlobKey.of("staging/small"), bytes("fits")).size()).isEqualTo(4);
    } finally {
      unmount(volume);
    }
  }

  @Test
  void aReadOnlyVolumeIsAClearError() throws Exception {
    Path volume = mountTmpfs("size=1m");
    try {
      Files.createDirectories(volume.resolve("blobs"));
      run("mount", "-o", "remount,ro", volume.toString());
      try (VfsBlobStore store = VfsBlobStore.open(volume.resolve("blobs").toUri().toString())) {
        assertThatThrownBy(() -> store.put(BlobKey.of("k"), bytes("x")))
            .isInstanceOf(StoreException.class)
            .hasMessageContaining("Cannot put blob k")
            .hasMessageContaining(
                ": "
                    + volume.resolve("blobs")
                    + " is on a read-only file system (mount it read-write or choose another uri");
      }
    } finally {
      unmount(volume);
    }
  }

  @Test
  void openingAMissingDirectoryOnAReadOnlyVolumeNamesTheVolumeNotCouldNotCreate() throws Exception {
    Path volume = mountTmpfs("size=1m");
    try {
      run("mount", "-o", "remount,ro", volume.toString());
      String uri = volume.resolve("reports").toUri().toString();

      assertThat(VfsBlobStore.builder(uri).preflight())
          .isEqualTo(
              new dev.fenceline.spi.StorePreflight(
                  true,
                  List.of(),
                  List.of("not writable: " + volume + " (read-only file system)")));
      assertThatThrownBy(() -> VfsBlobStore.open(uri))
          .isInstanceOf(StoreException.class)
          .hasMessageContaining(
              ": "
                  + volume
                  + " is on a read-only file system (mount it read-write or choose"
                  + " another uri)")
          .hasMessageNotContaining("Could not create");
    } finally {
      unmount(volume);
    }
  }

  @Test
  void anSftpServerRefusingWritesAndWrongPasswordsGetClearErrors() throws IOException {
    Files.createDirectories(directory.resolve("root"));
    try (SftpTestServer server =
        new SftpTestServer(directory.resolve("root"), directory.resolve("host.key"))) {
      assertThatThrownBy(
              () ->
                  VfsBlobStore.builder(server.uri("blobs"))
                      .credentials(SftpTestServer.USER, "wrong")
                      .strictHostKeyChecking(false)
                      .timeout(Duration.ofSeconds(10))
                      .build())
          .isInstanceOf(StoreException.class)
          .hasMessageContaining("Cannot open blob store at " + server.shownUri("blobs"))
          .hasMessageNotContaining("wrong");

      try (VfsBlobStore store =
          VfsBlobStore.builder(server.uri("blobs"))
              .credentials(SftpTestServer.USER, SftpTestServer.PASSWORD)
              .strictHostKeyChecking(false)
              .timeout(Duration.ofSeconds(10))
              .build()) {
        server.refuseWrites(true);
        assertThatThrownBy(() -> store.put(BlobKey.of("k"), bytes("x")))
            .isInstanceOf(StoreException.class)
            .hasMessageContaining("Cannot put blob k")
            .hasMessageContaining("ermission denied")
            .hasMessageNotContaining(SftpTestServer.PASSWORD);
        assertThat(store.stat(BlobKey.of("k"))).isEmpty();
      }
    }
  }

  @Test
  void anUnknownSftpHostKeyIsRefusedByDefaultNotHung() throws IOException {
    Files.createDirectories(directory.resolve("root"));
    try (SftpTestServer server =
        new SftpTestServer(directory.resolve("root"), directory.resolve("host.key"))) {
      // Strict host key checking is on by default and this test server is unknown.
      assertThatThrownBy(
              () ->
                  VfsBlobStore.builder(server.uri("blobs"))
                      .credentials(SftpTestServer.USER, SftpTestServer.PASSWORD)
                      .timeout(Duration.ofSeconds(10))
                      .build())
          .isInstanceOf(StoreException.class)
          .hasMessageContaining("Cannot open blob store at " + server.shownUri("blobs"))
          .hasMessageNotContaining(SftpTestServer.PASSWORD);
    }
  }

  /** Mounts a small tmpfs (needs root, as on this project's machines and CI). */
  private Path mountTmpfs(String options) throws Exception {
    assumeTrue(
        "root".equals(System.getProperty("user.name")),
        "mounting a test volume needs root, as on this project's CI");
    Path volume = Files.createDirectories(directory.resolve("volume"));
    run("mount", "-t", "tmpfs", "-o", options, "tmpfs", volume.toString());
    return volume;
  }

  private static void unmount(Path volume) throws Exception {
    run("umount", volume.toString());
  }

  private static void run(String... command) throws Exception {
    Process process = new ProcessBuilder(List.of(command)).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes());
    if (!process.waitFor(30, TimeUnit.SECONDS) || process.exitValue() != 0) {
      throw new IllegalStateException(String.join(" ", command) + " failed: " + output);
    }
  }

  private static void deleteTree(Path root) throws IOException {
    try (var paths = Files.walk(root)) {
      for (Path path : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(path);
      }
    }
  }
}
