package dev.fenceline.it;

import dev.fenceline.vfs.VfsBlobStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** A local directory shared by the test classes of this JVM. */
final class LocalFiles {

  private static Path root;

  private LocalFiles() {}

  static synchronized Path root() {
    if (root == null) {
      try {
        root = Files.createTempDirectory("fenceline-blobs-");
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return root;
  }

  static VfsBlobStore open() {
    return VfsBlobStore.open(root().toUri().toString());
  }
}
