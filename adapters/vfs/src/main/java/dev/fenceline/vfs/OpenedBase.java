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

import dev.fenceline.spi.ConfigurationException;
import dev.fenceline.spi.LocalWriteProblem;
import dev.fenceline.spi.StoreException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
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
 * The base directory of a {@link VfsBlobStore} as it was opened ({@link #open}): resolved by its
 * own Commons VFS manager, created if it was missing, and checked to be a directory on a file
 * system that does not fold case.
 *
 * @param manager the manager that resolved the directory; closing it releases the connections
 * @param directory the base directory
 * @param description the base directory as shown in messages (no user name, no password)
 * @param local local files: the base directory as configured; else null
 * @param localReal local files: where the base directory really lay when the store opened; else
 *     null
 */
record OpenedBase(
    StandardFileSystemManager manager,
    FileObject directory,
    String description,
    Path local,
    Path localReal) {

  private static final System.Logger LOG = System.getLogger(VfsBlobStore.class.getName());

  /** The schemes this store is made for and tested with. */
  private static final List<String> SUPPORTED_SCHEMES = List.of("file", "sftp", "ram");

  /**
   * Opens the base directory {@code uri}, creating it if missing. A failure closes the manager
   * again, except when {@code options} fail.
   *
   * @param options the options to resolve the directory with, asked for once the scheme is known
   * @throws ConfigurationException if the URI is malformed or ambiguous, has an unknown scheme, or
   *     names a file
   * @throws dev.fenceline.spi.UnsafeStoreException if the file system folds case and that was not
   *     allowed
   * @throws StoreException if the store cannot be reached or the directory cannot be created
   */
  static OpenedBase open(
      String uri,
      Supplier<FileSystemOptions> options,
      boolean allowCaseFolding,
      Redaction redaction) {
    String shownUri = redaction.shownUri();
    refuseAmbiguity(redaction);
    StandardFileSystemManager manager = startManager(redaction);
    requireProvider(manager, uri, shownUri);
    FileObject resolved = resolve(manager, uri, options.get(), redaction);
    String description = redaction.scrub(Redaction.withoutUserInfo(resolved.getPublicURIString()));
    // Local files: where a failure to create the base directory is explained from.
    Path localTarget =
        "file".equals(resolved.getName().getScheme()) ? Path.of(resolved.getURI()) : null;
    try {
      if (!resolved.exists()) {
        resolved.createFolder();
      } else if (resolved.getType() != FileType.FOLDER) {
        throw new ConfigurationException(
            "Cannot open blob store at "
                + description
                + ": it is a file, not a directory (point the URI at a directory)");
      }
      Path local = null;
      Path localReal = null;
      if ("file".equals(resolved.getName().getScheme())) {
        local = Path.of(resolved.getURI());
        localReal = local.toRealPath();
      }
      checkCaseFolding(resolved, description, allowCaseFolding);
      return new OpenedBase(manager, resolved, description, local, localReal);
    } catch (IOException e) {
      manager.close();
      throw openFailure(description, e, localTarget, redaction);
    } catch (RuntimeException e) {
      manager.close();
      throw e;
    }
  }

  /** Refuses user information that Commons VFS would read differently than Fenceline does. */
  private static void refuseAmbiguity(Redaction redaction) {
    Optional<String> ambiguity = redaction.ambiguity();
    if (ambiguity.isPresent()) {
      throw new ConfigurationException(
          "Cannot open blob store at "
              + redaction.shownUri()
              + ": "
              + ambiguity.get()
              + " (percent-encode them in the URI, '/' as %2F, '@' as %40, '?' as %3F, '#' as %23,"
              + " '\\' as %5C; or better, pass the user name and password separately)");
    }
  }

  private static StandardFileSystemManager startManager(Redaction redaction) {
    StandardFileSystemManager manager = new StandardFileSystemManager();
    try {
      manager.setFilesCache(new NullFilesCache());
      // No cached file objects: every call resolves afresh and sees other processes' changes.
      // (ON_CALL would do the same but breaks ram:// in VFS 2.10 with a ClassCastException.)
      manager.setCacheStrategy(CacheStrategy.MANUAL);
      manager.init();
    } catch (FileSystemException e) {
      throw new ConfigurationException(
          "Cannot start Commons VFS: "
              + redaction.scrub(e.getMessage())
              + " (check the class path)",
          redaction.scrub(e));
    }
    return manager;
  }

  private static void requireProvider(
      StandardFileSystemManager manager, String uri, String shownUri) {
    Matcher scheme = VfsBlobStore.SCHEME.matcher(uri);
    if (scheme.find() && !manager.hasProvider(scheme.group(1))) {
      manager.close();
      throw new ConfigurationException(
          "Cannot open blob store at "
              + shownUri
              + ": scheme \""
              + scheme.group(1)
              + "\" is not supported (use one of "
              + String.join(", ", SUPPORTED_SCHEMES)
              + ", e.g. file:///var/lib/fenceline, sftp://host/srv/fenceline or ram:///fenceline)");
    }
  }

  /** Resolves {@code uri}; a URI that does not parse is a configuration error. */
  private static FileObject resolve(
      StandardFileSystemManager manager,
      String uri,
      FileSystemOptions options,
      Redaction redaction) {
    String shownUri = redaction.shownUri();
    try {
      manager.resolveURI(uri); // parses only: a bad URI is a configuration error
    } catch (FileSystemException e) {
      manager.close();
      throw new ConfigurationException(
          redaction.scrub(
              "Cannot open blob store at "
                  + shownUri
                  + ": "
                  + e.getMessage()
                  + " (use a URI such as file:///var/lib/fenceline, sftp://host/srv/fenceline"
                  + " or ram:///fenceline)"),
          redaction.scrub(e));
    }
    try {
      return manager.resolveFile(uri, options);
    } catch (FileSystemException e) {
      manager.close();
      throw openFailure(shownUri, e, null, redaction);
    }
  }

  private static void checkCaseFolding(FileObject directory, String description, boolean allowed)
      throws IOException {
    if (CaseFolding.requireCaseSensitive(CaseFolding.of(directory), description, allowed)
        == CaseFolding.Result.UNKNOWN) {
      LOG.log(
          System.Logger.Level.WARNING,
          "Cannot check whether "
              + description
              + " folds case: no file can be created there (writes will fail the same way;"
              + " reopen the store once it is writable)");
    }
  }

  /**
   * The failure to open, naming a read-only volume or missing permissions at {@code localTarget} (a
   * local base directory, else null) when the file system says so: Commons VFS reports a failed
   * {@code mkdir} as "Could not create folder" without the reason.
   */
  private static StoreException openFailure(
      String shown, IOException e, Path localTarget, Redaction redaction) {
    Optional<LocalWriteProblem> local =
        localTarget == null ? Optional.empty() : LocalWriteProblem.of(localTarget);
    return local.isPresent()
        ? FailureText.failure("open blob store at " + shown, local.get(), "", e, redaction)
        : FailureText.failure("open blob store at " + shown, "", e, redaction);
  }
}
