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
package dev.fenceline.spi;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Why nothing can be written at a local path, found without writing: for {@link
 * AdapterFactory#preflight} and for the messages of a failed write, since some libraries (Commons
 * VFS's "Could not create folder") do not say why. The nearest existing directory on the way to the
 * path is judged: a read-only file system (its {@link java.nio.file.FileStore#isReadOnly()} flag,
 * or on Linux the mount's {@code ro} option in {@code /proc/self/mountinfo}, which also covers
 * read-only bind mounts; both hold for root too), else the permission check ({@link
 * Files#isWritable}, which root passes on a read-write file system whatever the mode bits say).
 *
 * @param path the nearest existing directory (or file) that cannot be written
 * @param readOnlyFileSystem true if it lies on a read-only file system, false if the permissions
 *     deny this user
 */
public record LocalWriteProblem(Path path, boolean readOnlyFileSystem) {

  private static final Path MOUNT_INFO = Path.of("/proc/self/mountinfo");

  /**
   * Validates the path.
   *
   * @param path the path
   * @param readOnlyFileSystem whether the file system is read-only
   */
  public LocalWriteProblem {
    requireNonNull(path, "path is null");
  }

  /**
   * {@return why {@code target}, which need not exist yet, could not be written: a problem of its
   * nearest existing ancestor (or itself), or empty if that one is writable or cannot be judged}
   *
   * @param target the file or directory to write
   */
  public static Optional<LocalWriteProblem> of(Path target) {
    Path existing = nearestExisting(requireNonNull(target, "target is null").toAbsolutePath());
    if (existing == null) {
      return Optional.empty();
    }
    try {
      if (Files.getFileStore(existing).isReadOnly() || readOnlyMount(existing)) {
        return Optional.of(new LocalWriteProblem(existing, true));
      }
    } catch (IOException e) {
      return Optional.empty(); // cannot judge; the caller reports what the write said
    }
    return Files.isWritable(existing)
        ? Optional.empty()
        : Optional.of(new LocalWriteProblem(existing, false));
  }

  /**
   * {@return the path itself if it exists, else its nearest existing ancestor; null if none exists}
   *
   * @param path the path
   */
  public static Path nearestExisting(Path path) {
    Path current = requireNonNull(path, "path is null");
    while (current != null && !Files.exists(current)) {
      current = current.getParent();
    }
    return current;
  }

  /**
   * For messages: "/x is on a read-only file system".
   *
   * @return the problem, worded for a message
   */
  public String describe() {
    return readOnlyFileSystem
        ? path + " is on a read-only file system"
        : path + " is not writable by this user (permission denied)";
  }

  /** {@return the fix, for the parentheses of a message} */
  public String fix() {
    return readOnlyFileSystem
        ? "mount it read-write or choose another uri"
        : "give this user write permission on it, or choose another uri";
  }

  /**
   * For {@code fenceline doctor}: "not writable: /x (read-only file system)".
   *
   * @return the problem, worded as a {@code fenceline doctor} finding
   */
  public String finding() {
    return "not writable: "
        + path
        + (readOnlyFileSystem ? " (read-only file system)" : " (permission denied)");
  }

  /**
   * Linux: whether the mount {@code path} lies on has the {@code ro} option. The JDK's file store
   * finds a bind mount's entry by device, which is the (writable) mount it was bound from.
   */
  private static boolean readOnlyMount(Path path) throws IOException {
    if (!Files.isReadable(MOUNT_INFO)) {
      return false;
    }
    Path real = path.toRealPath();
    String longest = null;
    boolean readOnly = false;
    List<String> lines;
    try {
      lines = Files.readAllLines(MOUNT_INFO);
    } catch (IOException e) {
      return false;
    }
    for (String line : lines) {
      // id parent major:minor root mount-point options ... (man 5 proc)
      String[] fields = line.split(" ");
      if (fields.length < 6) {
        continue;
      }
      String mountPoint = unescape(fields[4]);
      if (real.startsWith(mountPoint)
          && (longest == null || mountPoint.length() >= longest.length())) {
        longest = mountPoint;
        readOnly = List.of(fields[5].split(",")).contains("ro");
      }
    }
    return readOnly;
  }

  private static String unescape(String field) {
    return field
        .replace("\\040", " ")
        .replace("\\011", "\t")
        .replace("\\012", "\n")
        .replace("\\134", "\\");
  }
}
