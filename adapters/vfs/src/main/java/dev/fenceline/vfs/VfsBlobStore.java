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

import static java.util.Objects.requireNonNull;

import dev.fenceline.spi.BlobInfo;
import dev.fenceline.spi.BlobKey;
import dev.fenceline.spi.BlobStore;
import dev.fenceline.spi.ConfigurationException;
import dev.fenceline.spi.LocalWriteProblem;
import dev.fenceline.spi.StoreException;
import dev.fenceline.spi.StorePreflight;
import dev.fenceline.spi.UnsafeStoreException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.commons.vfs2.FileObject;
import org.apache.commons.vfs2.FileSystemException;
import org.apache.commons.vfs2.FileSystemOptions;
import org.apache.commons.vfs2.FileType;
import org.apache.commons.vfs2.NameScope;
import org.apache.commons.vfs2.auth.StaticUserAuthenticator;
import org.apache.commons.vfs2.impl.DefaultFileSystemConfigBuilder;
import org.apache.commons.vfs2.provider.sftp.SftpFileSystemConfigBuilder;

/**
 * A {@link BlobStore} on Apache Commons VFS: local files ({@code file:///var/lib/reports}), SFTP
 * ({@code sftp://user@host:22/srv/reports}) and {@code ram://} for tests. Keys map to paths below
 * the base directory; a key can never reach outside it. On local files a key whose path passes
 * through a symbolic link below the base directory is refused, and listings skip links, so a link
 * cannot redirect writes or the sweep's deletions elsewhere (the base directory itself may be a
 * link).
 *
 * <p>The user name and password are never shown in messages, logs or the causes of exceptions, also
 * when written into the URI. The store refuses to open on a file system that folds case unless
 * allowed (see {@link Builder#allowCaseFolding}).
 *
 * <p>Payloads are streamed in and out, never held in memory. A {@link #put} writes the blob at its
 * key directly and deletes it again if the write fails; nothing in Fenceline depends on a rename
 * being atomic (VFS's {@code moveTo} is not an atomic replace, and SFTP servers differ), because a
 * staged blob only becomes visible through a fenced pointer swap after {@code put} returned.
 *
 * <p>A URI without a scheme is a local path, relative to the working directory ({@code ./reports}).
 * The base directory is created when the store opens; {@link Builder#preflight()} tells, creating
 * nothing, whether it would be created or cannot be written. If it vanishes later (deleted, or an
 * unmounted volume), writes fail with a clear error instead of silently recreating it somewhere
 * else. Every call sees the file system as it is now (no VFS caching), so several processes can
 * share the directory. Thread-safe; close it to release connections.
 *
 * <p>Opening the base directory is {@link OpenedBase}; the symbolic-link checks are {@link
 * LinkRefusal}.
 */
public final class VfsBlobStore implements BlobStore, AutoCloseable {

  /** The default SFTP connect and read {@linkplain Builder#timeout timeout}: 30 s. */
  public static final java.time.Duration DEFAULT_TIMEOUT = java.time.Duration.ofSeconds(30);

  /** The scheme of a URI: {@code file} of {@code file:///srv/reports}. */
  static final Pattern SCHEME = Pattern.compile("^([A-Za-z][A-Za-z0-9+.-]*)://");

  private static final System.Logger LOG = System.getLogger(VfsBlobStore.class.getName());

  private final Redaction redaction;
  private final OpenedBase opened;
  private final FileObject base;
  private final String description;
  private final LinkRefusal links;

  private VfsBlobStore(Builder builder) {
    this.redaction = new Redaction(builder.uri, builder.user, builder.password);
    this.opened =
        OpenedBase.open(builder.uri, builder::options, builder.allowCaseFolding, redaction);
    this.base = opened.directory();
    this.description = opened.description();
    this.links = new LinkRefusal(opened, redaction);
  }

  /** Opens a store on {@code uri} with default options (SFTP checks the host key). */
  public static VfsBlobStore open(String uri) {
    return builder(uri).build();
  }

  /** Starts a configuration for the base directory {@code uri}. */
  public static Builder builder(String uri) {
    return new Builder(uri);
  }

  /** The base directory, as shown in messages (no user name, no password). */
  public String description() {
    return description;
  }

  @Override
  public BlobInfo put(BlobKey key, InputStream content) {
    requireNonNull(key, "key is null");
    requireNonNull(content, "content is null");
    requireBase("put blob " + key);
    FileObject target = resolve(key, "put");
    try {
      if (target.exists()) {
        throw new StoreException(
            "Cannot put blob "
                + key
                + " at "
                + description
                + ": a blob already exists there (staging keys are never reused; use a new key)",
            null);
      }
    } catch (FileSystemException e) {
      throw failure("put blob " + key, e);
    }
    SourceTrackingInputStream source = new SourceTrackingInputStream(content);
    try {
      try (OutputStream out = target.getContent().getOutputStream()) {
        source.transferTo(out);
      }
      forceToDisk(target);
      target.refresh();
      return info(key, target);
    } catch (IOException | RuntimeException e) {
      deletePartial(target, e);
      throw putFailure(key, target, source, e);
    }
  }

  /**
   * The failure of a put whose write failed, after what it left was deleted: the payload's producer
   * failed, or the local volume refused the write (read-only, no permission), or another failure.
   */
  private StoreException putFailure(
      BlobKey key, FileObject target, SourceTrackingInputStream source, Exception e) {
    if (e instanceof StoreException store) {
      return store;
    }
    if (source.failed()) {
      return new StoreException(
          redaction.scrub(
              "Cannot put blob "
                  + key
                  + " at "
                  + description
                  + ": reading the payload failed: "
                  + FailureText.reason(e)
                  + " (nothing was left at the key; the producer of the payload failed, not the"
                  + " store)"),
          e);
    }
    Optional<LocalWriteProblem> local =
        opened.local() == null ? Optional.empty() : LocalWriteProblem.of(Path.of(target.getURI()));
    String what = "put blob " + key + " at " + description;
    String note = "nothing was left at the key";
    return local.isPresent()
        ? FailureText.failure(what, local.get(), note, e, redaction)
        : FailureText.failure(what, note, e, redaction);
  }

  /**
   * Local files: flushes the blob and its directory to the disk before the caller publishes it, so
   * a power loss after the pointer swap cannot leave the pointer naming an empty or short file.
   * SFTP offers no portable fsync through Commons VFS; remote stores keep what their server keeps.
   */
  private static void forceToDisk(FileObject target) throws IOException {
    if (!"file".equals(target.getName().getScheme())) {
      return;
    }
    Path file = Path.of(target.getURI());
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
      channel.force(true);
    }
    try (FileChannel directory = FileChannel.open(file.getParent(), StandardOpenOption.READ)) {
      directory.force(true);
    }
  }

  @Override
  public InputStream open(BlobKey key) {
    requireNonNull(key, "key is null");
    FileObject target = resolve(key, "open");
    try {
      if (!target.exists() || target.getType() != FileType.FILE) {
        throw new StoreException(
            "Cannot open blob " + key + " at " + description + ": there is no blob at that key",
            null);
      }
      return target.getContent().getInputStream();
    } catch (FileSystemException e) {
      throw failure("open blob " + key, e);
    }
  }

  @Override
  public Optional<BlobInfo> stat(BlobKey key) {
    requireNonNull(key, "key is null");
    FileObject target = resolve(key, "stat");
    try {
      if (!target.exists() || target.getType() != FileType.FILE) {
        return Optional.empty();
      }
      return Optional.of(info(key, target));
    } catch (FileSystemException e) {
      throw failure("stat blob " + key, e);
    }
  }

  @Override
  public boolean delete(BlobKey key) {
    requireNonNull(key, "key is null");
    FileObject target = resolve(key, "delete");
    try {
      return target.exists() && target.getType() == FileType.FILE && target.delete();
    } catch (FileSystemException e) {
      if (!stillExists(target)) {
        return false; // deleted concurrently, for example by a second sweeper
      }
      throw failure("delete blob " + key, e);
    }
  }

  @Override
  public Stream<BlobInfo> list(BlobKey prefix) {
    requireNonNull(prefix, "prefix is null");
    FileObject directory = resolve(prefix, "list");
    try {
      if (!directory.exists() || directory.getType() != FileType.FOLDER) {
        return Stream.empty();
      }
      FileObject[] files = directory.findFiles(links.filesNotBehindLinks());
      List<BlobInfo> found = new ArrayList<>(files == null ? 0 : files.length);
      if (files != null) {
        for (FileObject file : files) {
          String name = base.getName().getRelativeName(file.getName());
          try {
            found.add(info(BlobKey.of(name), file));
          } catch (IllegalArgumentException notAKey) {
            // Not written through this store (a name no BlobKey can have): not Fenceline's.
            LOG.log(
                System.Logger.Level.DEBUG,
                "Skipping " + name + " in " + description + ": " + notAKey);
          }
        }
      }
      return found.stream();
    } catch (FileSystemException e) {
      throw failure("list blobs below " + prefix, e);
    }
  }

  /** Closes the store's file systems and connections. */
  @Override
  public void close() {
    opened.manager().close();
  }

  private FileObject resolve(BlobKey key, String action) {
    links.refuseLinks(key, action);
    try {
      // DESCENDENT refuses any name that would leave the base directory.
      return base.resolveFile(key.value(), NameScope.DESCENDENT);
    } catch (FileSystemException e) {
      throw failure(action + " blob " + key, e);
    }
  }

  private void requireBase(String action) {
    try {
      base.refresh();
      if (!base.exists()) {
        throw new StoreException(
            "Cannot "
                + action
                + " at "
                + description
                + ": the base directory has vanished (was it deleted or unmounted? recreate it,"
                + " then retry; Fenceline does not recreate it to avoid writing onto the wrong"
                + " volume)",
            null);
      }
    } catch (FileSystemException e) {
      throw failure(action, e);
    }
  }

  private static boolean stillExists(FileObject target) {
    try {
      target.refresh();
      return target.exists();
    } catch (FileSystemException e) {
      return true;
    }
  }

  private BlobInfo info(BlobKey key, FileObject file) throws FileSystemException {
    return new BlobInfo(
        key,
        file.getContent().getSize(),
        Instant.ofEpochMilli(file.getContent().getLastModifiedTime()));
  }

  private void deletePartial(FileObject target, Exception cause) {
    try {
      target.refresh();
      if (target.exists()) {
        target.delete();
      }
    } catch (FileSystemException e) {
      cause.addSuppressed(e);
    }
  }

  private StoreException failure(String action, FileSystemException e) {
    return FailureText.failure(action + " at " + description, "", e, redaction);
  }

  /** Validating builder for {@link VfsBlobStore}. */
  public static final class Builder {
    private final String uri;
    private String user;
    private String password;
    private boolean strictHostKeyChecking = true;
    private boolean allowCaseFolding;
    private java.time.Duration timeout = DEFAULT_TIMEOUT;
    private FileSystemOptions options;

    private Builder(String uri) {
      requireNonNull(uri, "uri is null");
      if (uri.isBlank()) {
        throw new ConfigurationException(
            "Cannot open a blob store at \"\": the URI is empty (e.g. file:///var/lib/fenceline)");
      }
      this.uri = localPathAsUri(uri);
    }

    /**
     * A value without a scheme is a local path, resolved against the working directory ({@code
     * ./reports}, {@code /srv/reports}). {@code file://./reports} is refused: the part after {@code
     * file://} is a host name, so Commons VFS would read it as {@code /reports}.
     */
    private static String localPathAsUri(String uri) {
      if (uri.startsWith("file://") && !uri.startsWith("file:///")) {
        String rest = uri.substring("file://".length());
        if (!rest.startsWith("localhost/")) {
          throw new ConfigurationException(
              "Cannot open a blob store at "
                  + uri
                  + ": after file:// comes a host name, so this names /"
                  + rest.substring(rest.indexOf('/') + 1)
                  + ", not a path relative to the working directory (write a plain path such as ./"
                  + rest.replaceFirst("^\\./", "")
                  + ", or an absolute URI such as file:///srv/reports)");
        }
      }
      if (SCHEME.matcher(uri).find() || uri.matches("^[A-Za-z][A-Za-z0-9+.-]*:.*")) {
        return uri;
      }
      return Path.of(uri).toAbsolutePath().normalize().toUri().toString();
    }

    /**
     * Checks, creating nothing, what {@link #build()} would need: for local files whether the base
     * directory exists (else it would be created) and whether it, or its nearest existing parent,
     * can be written (a read-only file system, missing permissions); for other schemes, the same
     * through Commons VFS (connecting, for SFTP, and disconnecting again).
     *
     * @throws ConfigurationException if the URI is malformed or its scheme is not supported
     */
    public StorePreflight preflight() {
      if (uri.startsWith("file:")) {
        try {
          return LocalWritability.preflight(Path.of(java.net.URI.create(uri)));
        } catch (IllegalArgumentException e) {
          throw new ConfigurationException(
              "Cannot open blob store at "
                  + new Redaction(uri, user, password).shownUri()
                  + ": "
                  + e.getMessage()
                  + " (use a path or a URI such as file:///var/lib/fenceline)");
        }
      }
      return RemoteWritability.preflight(uri, new Redaction(uri, user, password), this::options);
    }

    /** Credentials for SFTP (instead of putting them into the URI, where they are not shown). */
    public Builder credentials(String user, String password) {
      this.user = requireNonNull(user, "user is null");
      this.password = requireNonNull(password, "password is null");
      return this;
    }

    /**
     * Whether SFTP checks the server's host key against {@code ~/.ssh/known_hosts} (default true).
     * Turn it off only for test servers.
     */
    public Builder strictHostKeyChecking(boolean strict) {
      this.strictHostKeyChecking = strict;
      return this;
    }

    /**
     * Whether the store may open on a file system that folds case (default false: opening fails
     * with {@link UnsafeStoreException}). There, keys differing only in case name one file, so the
     * staging areas of resources whose IDs differ only in case collide and one resource's sweep can
     * delete another's published blobs. Allow it only if no two resource IDs or prefixes using this
     * store differ only in case.
     */
    public Builder allowCaseFolding(boolean allow) {
      this.allowCaseFolding = allow;
      return this;
    }

    /** Connect and read timeout for SFTP (default 30 s): a dead server fails instead of hanging. */
    public Builder timeout(java.time.Duration timeout) {
      requireNonNull(timeout, "timeout is null");
      if (timeout.isNegative() || timeout.isZero()) {
        throw new ConfigurationException(
            "Cannot use SFTP timeout " + timeout + ": it must be positive (e.g. PT30S)");
      }
      this.timeout = timeout;
      return this;
    }

    /** Full control over VFS options; the settings above are applied on top. */
    public Builder options(FileSystemOptions options) {
      this.options = requireNonNull(options, "options is null");
      return this;
    }

    private FileSystemOptions options() {
      FileSystemOptions result = options != null ? options : new FileSystemOptions();
      try {
        SftpFileSystemConfigBuilder sftp = SftpFileSystemConfigBuilder.getInstance();
        sftp.setStrictHostKeyChecking(result, strictHostKeyChecking ? "yes" : "no");
        sftp.setUserDirIsRoot(result, false);
        sftp.setConnectTimeout(result, timeout);
        sftp.setSessionTimeout(result, timeout);
        if (user != null) {
          DefaultFileSystemConfigBuilder.getInstance()
              .setUserAuthenticator(result, new StaticUserAuthenticator(null, user, password));
        }
      } catch (FileSystemException e) {
        throw new ConfigurationException("Cannot configure SFTP: " + e.getMessage(), e);
      }
      return result;
    }

    /**
     * Opens the store: resolves the URI and creates the base directory if missing.
     *
     * @throws ConfigurationException if the URI is malformed or ambiguous, has an unknown scheme,
     *     or names a file
     * @throws UnsafeStoreException if the file system folds case and that was not allowed
     * @throws StoreException if the store cannot be reached or the directory cannot be created
     */
    public VfsBlobStore build() {
      return new VfsBlobStore(this);
    }
  }
}
