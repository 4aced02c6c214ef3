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

import dev.fenceline.spi.UnsafeStoreException;
import java.io.IOException;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Locale;
import org.apache.commons.vfs2.FileObject;
import org.apache.commons.vfs2.NameScope;

/**
 * Finds out whether a directory folds case (macOS and Windows by default, ext4 with casefold, SMB
 * shares): there, two staging areas whose keys differ only in case are one directory, and one
 * resource's sweep could delete another's published blobs.
 *
 * <p>The probe creates a file with a lower-case name, asks whether the upper-case name exists, and
 * deletes the file again.
 */
final class CaseFolding {

  private static final SecureRandom RANDOM = new SecureRandom();

  /** What the probe needs from the directory it tests. */
  interface ProbeDirectory {
    /** Creates an empty file {@code name}; fails if the directory is not writable. */
    void create(String name) throws IOException;

    /** Whether a file {@code name} exists. */
    boolean exists(String name) throws IOException;

    /** Deletes the file {@code name}. */
    void delete(String name) throws IOException;
  }

  /** What the probe found. */
  enum Result {
    /** Names differing only in case are different files. */
    CASE_SENSITIVE,
    /** Names differing only in case are the same file. */
    FOLDS_CASE,
    /** The probe file could not be created (a read-only directory, say): nothing can be written. */
    UNKNOWN
  }

  private CaseFolding() {}

  /** The probe directory {@code directory} of a Commons VFS file system. */
  static ProbeDirectory of(FileObject directory) {
    return new ProbeDirectory() {
      @Override
      public void create(String name) throws IOException {
        directory.resolveFile(name, NameScope.CHILD).createFile();
      }

      @Override
      public boolean exists(String name) throws IOException {
        return directory.resolveFile(name, NameScope.CHILD).exists();
      }

      @Override
      public void delete(String name) throws IOException {
        directory.resolveFile(name, NameScope.CHILD).delete();
      }
    };
  }

  /**
   * Probes {@code directory} and refuses a store there if it folds case, unless {@code allowed}.
   *
   * @param description the store, as shown in messages
   * @return what the probe found
   * @throws UnsafeStoreException if the directory folds case and folding is not allowed
   * @throws IOException if the probe file was created but could not be checked or deleted
   */
  static Result requireCaseSensitive(ProbeDirectory directory, String description, boolean allowed)
      throws IOException {
    Result result = probe(directory);
    if (result == Result.FOLDS_CASE && !allowed) {
      throw new UnsafeStoreException(
          "Cannot open blob store at "
              + description
              + ": its file system folds case (names differing only in case are one file), so"
              + " the staging areas of resources whose IDs differ only in case would be one"
              + " directory and one resource's sweep could delete another's published blobs (use a"
              + " case-sensitive file system, or opt in with allowCaseFolding(true), key"
              + " allow-case-folding, if no two resource IDs or prefixes of this store differ only"
              + " in case)");
    }
    return result;
  }

  /** Probes {@code directory}; the probe file is deleted again (if it was created). */
  static Result probe(ProbeDirectory directory) throws IOException {
    byte[] random = new byte[8];
    RANDOM.nextBytes(random);
    String name = ".fenceline-case-probe-" + HexFormat.of().formatHex(random);
    String upper = name.toUpperCase(Locale.ROOT);
    try {
      directory.create(name);
    } catch (IOException e) {
      return Result.UNKNOWN;
    }
    try {
      return directory.exists(upper) ? Result.FOLDS_CASE : Result.CASE_SENSITIVE;
    } finally {
      directory.delete(name);
    }
  }
}
