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
