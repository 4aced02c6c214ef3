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

import dev.fenceline.spi.BlobKey;
import dev.fenceline.spi.StoreException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import org.apache.commons.vfs2.FileSelectInfo;
import org.apache.commons.vfs2.FileSelector;
import org.apache.commons.vfs2.FileSystemException;
import org.apache.commons.vfs2.FileType;

/**
 * Keeps a {@link VfsBlobStore} on local files inside its base directory: refuses a key whose path
 * below the base directory passes through a symbolic link, or a base directory that now lies
 * elsewhere than when the store opened, and lists no file behind a link. A link there would
 * redirect writes, reads and the sweep's deletions outside the base directory. (A link created
 * between the check and the operation is not caught: keep others from writing below the base.)
 */
final class LinkRefusal {

  private static final System.Logger LOG = System.getLogger(VfsBlobStore.class.getName());

  private final OpenedBase base;
  private final Redaction redaction;

  LinkRefusal(OpenedBase base, Redaction redaction) {
    this.base = base;
    this.redaction = redaction;
  }

  /**
   * Refuses {@code key} if its path passes through a symbolic link, or the base directory moved
   * (local files only; other schemes have no links to follow).
   *
   * @throws StoreException if so, or if the file system could not be asked
   */
  void refuseLinks(BlobKey key, String action) {
    Path localBase = base.local();
    if (localBase == null) {
      return;
    }
    try {
      refuseMovedBase(localBase.toRealPath(), key, action);
      refuseLinkOnPath(localBase, key, action);
    } catch (NoSuchFileException absent) {
      // The rest of the path does not exist: there is no link to follow (yet).
    } catch (IOException e) {
      throw FailureText.failure(
          action + " blob " + key + " at " + base.description(), "", e, redaction);
    }
  }

  /**
   * Refuses a base directory that now leads elsewhere ({@code real}) than when the store opened.
   */
  private void refuseMovedBase(Path real, BlobKey key, String action) {
    if (!real.equals(base.localReal())) {
      throw new StoreException(
          "Cannot "
              + action
              + " blob "
              + key
              + " at "
              + base.description()
              + ": the base directory now leads to "
              + real
              + ", not to "
              + base.localReal()
              + " as when the store opened (a link was changed; restore it or reopen the store)",
          null);
    }
  }

  /**
   * Refuses {@code key} if a segment of its path below {@code localBase} is a symbolic link.
   *
   * @throws NoSuchFileException if a segment does not exist (nor do the ones below it)
   */
  private void refuseLinkOnPath(Path localBase, BlobKey key, String action) throws IOException {
    Path current = localBase;
    for (String segment : key.value().split("/")) {
      current = current.resolve(segment);
      BasicFileAttributes attributes =
          Files.readAttributes(current, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      if (attributes.isSymbolicLink()) {
        throw new StoreException(
            "Cannot "
                + action
                + " blob "
                + key
                + " at "
                + base.description()
                + ": "
                + localBase.relativize(current)
                + " is a symbolic link, and links below the base directory are not followed"
                + " (they could redirect writes and deletions outside it; replace the link with"
                + " a directory or file of its own)",
            null);
      }
    }
  }

  /** Selects files, and neither selects nor descends into symbolic links. */
  FileSelector filesNotBehindLinks() {
    return new FilesNotBehindLinks();
  }

  private final class FilesNotBehindLinks implements FileSelector {
    @Override
    public boolean includeFile(FileSelectInfo info) throws FileSystemException {
      return info.getFile().getType() == FileType.FILE && !isLink(info);
    }

    @Override
    public boolean traverseDescendents(FileSelectInfo info) throws FileSystemException {
      return info.getDepth() == 0 || !isLink(info);
    }

    private boolean isLink(FileSelectInfo info) throws FileSystemException {
      if (!info.getFile().isSymbolicLink()) {
        return false;
      }
      LOG.log(
          System.Logger.Level.WARNING,
          "Skipping symbolic link "
              + base.directory().getName().getRelativeName(info.getFile().getName())
              + " in "
              + base.description()
              + " (links below the base directory are not followed; replace it with a directory"
              + " or file of its own)");
      return true;
    }
  }
}
