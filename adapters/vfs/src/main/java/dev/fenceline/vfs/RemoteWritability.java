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

import dev.fenceline.spi.StorePreflight;
import java.util.List;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import org.apache.commons.vfs2.CacheStrategy;
import org.apache.commons.vfs2.FileObject;
import org.apache.commons.vfs2.FileSystemException;
import org.apache.commons.vfs2.FileSystemOptions;
import org.apache.commons.vfs2.FileType;
import org.apache.commons.vfs2.cache.NullFilesCache;
import org.apache.commons.vfs2.impl.StandardFileSystemManager;

/**
 * The preflight of a store on another scheme than local files, through Commons VFS (connecting, for
 * SFTP, and disconnecting again): see {@link VfsBlobStore.Builder#preflight()}.
 */
final class RemoteWritability {

  private RemoteWritability() {}

  /**
   * @param shown hides the URI's user information in the findings
   * @param options the options to resolve the directory with, asked for once the scheme is known
   */
  static StorePreflight preflight(
      String uri, Redaction shown, Supplier<FileSystemOptions> options) {
    StandardFileSystemManager checker = new StandardFileSystemManager();
    try {
      checker.setFilesCache(new NullFilesCache());
      checker.setCacheStrategy(CacheStrategy.MANUAL);
      checker.init();
      Matcher scheme = VfsBlobStore.SCHEME.matcher(uri);
      if (!scheme.find() || !checker.hasProvider(scheme.group(1))) {
        return StorePreflight.notChecked(); // build() names the problem
      }
      FileObject directory = checker.resolveFile(uri, options.get());
      FileObject existing = directory;
      while (existing != null && !existing.exists()) {
        existing = existing.getParent();
      }
      String where =
          existing == null
              ? shown.shownUri()
              : shown.scrub(Redaction.withoutUserInfo(existing.getPublicURIString()));
      if (existing != null && existing.getType() != FileType.FOLDER) {
        return new StorePreflight(
            true, List.of(), List.of("not a directory: " + where + " (point the URI elsewhere)"));
      }
      if (existing == null || !existing.isWriteable()) {
        return new StorePreflight(
            true, List.of(), List.of("not writable: " + where + " (permission denied)"));
      }
      if (existing.equals(directory)) {
        return StorePreflight.ready();
      }
      return new StorePreflight(
          true,
          List.of(
              "directory "
                  + shown.scrub(Redaction.withoutUserInfo(directory.getPublicURIString()))),
          List.of());
    } catch (FileSystemException e) {
      return new StorePreflight(
          true,
          List.of(),
          List.of(
              "unreachable: "
                  + shown.shownUri()
                  + ": "
                  + shown.scrub(FailureText.reason(e))
                  + " ("
                  + FailureText.hint(e)
                  + ")"));
    } finally {
      checker.close();
    }
  }
}
