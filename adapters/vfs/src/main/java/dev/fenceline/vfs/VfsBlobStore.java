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
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.commons.vfs2.CacheStrategy;
import org.apache.commons.vfs2.FileObject;
import org.apache.commons.vfs2.FileSelectInfo;
import org.apache.commons.vfs2.FileSelector;
import org.apache.commons.vfs2.FileSystemException;
import org.apache.commons.vfs2.FileSystemOptions;
import org.apache.commons.vfs2.FileType;
import org.apache.commons.vfs2.NameScope;
import org.apache.commons.vfs2.auth.StaticUserAuthenticator;
import org.apache.commons.vfs2.cache.NullFilesCache;
import org.apache.commons.vfs2.impl.DefaultFileSystemConfigBuilder;
import org.apache.commons.vfs2.impl.StandardFileSystemManager;
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
 */
public final class VfsBlobStore implements BlobStore, AutoCloseable {

  /** The default SFTP connect and read {@linkplain Builder#timeout timeout}: 30 s. */
  public static final java.time.Duration DEFAULT_TIMEOUT = java.time.Duration.ofSeconds(30);

  private static final System.Logger LOG = System.getLogger(VfsBlobStore.class.getName());

  /** The schemes this store is made for and tested with. */
  private static final List<String> SUPPORTED_SCHEMES = List.of("file", "sftp", "ram");

  private static final Pattern SCHEME = Pattern.compile("^([A-Za-z][A-Za-z0-9+.-]*)://");

  private final StandardFileSystemManager manager;
  private final Redaction redaction;
  private final FileObject base;
  private final String description;

  /** Local files: the base directory as configured, and where it really lies; else null. */
  private final Path localBase;

  private final Path localBaseReal;

  private VfsBlobStore(Builder builder) {
    this.redaction = new Redaction(builder.uri, builder.user, builder.password);
    String shownUri = redaction.shownUri();
    Optional<String> ambiguity = redaction.ambiguity();
    if (ambiguity.isPresent()) {
      throw new ConfigurationException(
          "Cannot open blob store at "
              + shownUri
              + ": "
              + ambiguity.get()
              + " (percent-encode them in the URI, '/' as %2F, '@' as %40, '?' as %3F, '#' as %23,"
              + " '\\' as %5C; or better, pass the user name and password separately)");
    }
    this.manager = new StandardFileSystemManager();
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
    Matcher scheme = SCHEME.matcher(builder.uri);
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
    FileSystemOptions options = builder.options();
    try {
      manager.resolveURI(builder.uri); // parses only: a bad URI is a configuration error
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
    FileObject resolved;
    try {
      resolved = manager.resolveFile(builder.uri, options);
    } catch (FileSystemException e) {
      manager.close();
      throw openFailure(shownUri, e, null);
    }
    this.description = redaction.scrub(Redaction.withoutUserInfo(resolved.getPublicURIString()));
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
      if ("file".equals(resolved.getName().getScheme())) {
        this.localBase = Path.of(resolved.getURI());
        this.localBaseReal = localBase.toRealPath();
      } else {
        this.localBase = null;
        this.localBaseReal = null;
      }
      checkCaseFolding(resolved, builder.allowCaseFolding);
    } catch (IOException e) {
      manager.close();
      throw openFailure(description, e, localTarget);
    } catch (RuntimeException e) {
      manager.close();
      throw e;
    }
    this.base = resolved;
  }

  /**
   * The failure to open, naming a read-only volume or missing permissions at {@code localTarget} (a
   * local base directory, else null) when the file system says so: Commons VFS reports a failed
   * {@code mkdir} as "Could not create folder" without the reason.
   */
  private StoreException openFailure(String shown, IOException e, Path localTarget) {
    Optional<LocalWriteProblem> local =
        localTarget == null ? Optional.empty() : LocalWriteProblem.of(localTarget);
    if (local.isPresent()) {
      return new StoreException(
          "Cannot open blob store at "
              + shown
              + ": "
              + local.get().describe()
              + " ("
              + local.get().fix()
              + ")",
          redaction.scrub(e));
    }
    return new StoreException(
        redaction.scrub(
            "Cannot open blob store at " + shown + ": " + reason(e) + " (" + hint(e) + ")"),
        redaction.scrub(e));
  }

  private void checkCaseFolding(FileObject directory, boolean allowed) throws IOException {
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
      if (e instanceof StoreException store) {
        throw store;
      }
      if (source.failed()) {
        throw new StoreException(
            redaction.scrub(
                "Cannot put blob "
                    + key
                    + " at "
                    + description
                    + ": reading the payload failed: "
                    + reason(e)
                    + " (nothing was left at the key; the producer of the payload failed, not the"
                    + " store)"),
            e);
      }
      Optional<LocalWriteProblem> local =
          localBase == null ? Optional.empty() : LocalWriteProblem.of(Path.of(target.getURI()));
      if (local.isPresent()) {
        throw new StoreException(
            "Cannot put blob "
                + key
                + " at "
                + description
                + ": "
                + local.get().describe()
                + " ("
                + local.get().fix()
                + "; nothing was left at the key)",
            redaction.scrub(e));
      }
      throw new StoreException(
          redaction.scrub(
              "Cannot put blob "
                  + key
                  + " at "
                  + description
                  + ": "
                  + reason(e)
                  + " (nothing was left at the key; "
                  + hint(e)
                  + ")"),
          redaction.scrub(e));
    }
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
      FileObject[] files = directory.findFiles(new FilesNotBehindLinks());
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
    manager.close();
  }

  private FileObject resolve(BlobKey key, String action) {
    refuseLinks(key, action);
    try {
      // DESCENDENT refuses any name that would leave the base directory.
      return base.resolveFile(key.value(), NameScope.DESCENDENT);
    } catch (FileSystemException e) {
      throw failure(action + " blob " + key, e);
    }
  }

  /**
   * Local files: refuses a key whose path below the base directory passes through a symbolic link,
   * or a base directory that now lies elsewhere than when the store opened. A link there would
   * redirect writes, reads and the sweep's deletions outside the base directory. (A link created
   * between this check and the operation is not caught: keep others from writing below the base.)
   */
  private void refuseLinks(BlobKey key, String action) {
    if (localBase == null) {
      return;
    }
    try {
      Path real = localBase.toRealPath();
      if (!real.equals(localBaseReal)) {
        throw new StoreException(
            "Cannot "
                + action
                + " blob "
                + key
                + " at "
                + description
                + ": the base directory now leads to "
                + real
                + ", not to "
                + localBaseReal
                + " as when the store opened (a link was changed; restore it or reopen the store)",
            null);
      }
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
                  + description
                  + ": "
                  + localBase.relativize(current)
                  + " is a symbolic link, and links below the base directory are not followed"
                  + " (they could redirect writes and deletions outside it; replace the link with"
                  + " a directory or file of its own)",
              null);
        }
      }
    } catch (NoSuchFileException absent) {
      // The rest of the path does not exist: there is no link to follow (yet).
    } catch (IOException e) {
      throw new StoreException(
          redaction.scrub(
              "Cannot "
                  + action
                  + " blob "
                  + key
                  + " at "
                  + description
                  + ": "
                  + reason(e)
                  + " ("
                  + hint(e)
                  + ")"),
          redaction.scrub(e));
    }
  }

  /** Selects files, and neither selects nor descends into symbolic links (see refuseLinks). */
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
              + base.getName().getRelativeName(info.getFile().getName())
              + " in "
              + description
              + " (links below the base directory are not followed; replace it with a directory"
              + " or file of its own)");
      return true;
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
    return new StoreException(
        redaction.scrub(
            "Cannot " + action + " at " + description + ": " + reason(e) + " (" + hint(e) + ")"),
        redaction.scrub(e));
  }

  /** The innermost message: VFS wraps the operating system's or the SFTP server's answer. */
  private static String reason(Throwable e) {
    String message = e.getMessage();
    for (Throwable cause = e.getCause(); cause != null; cause = cause.getCause()) {
      if (cause.getMessage() != null) {
        message = message + ": " + cause.getMessage();
      }
    }
    return String.valueOf(message);
  }

  private static String hint(Throwable e) {
    String text = reason(e).toLowerCase(java.util.Locale.ROOT);
    if (text.contains("no space") || text.contains("disk full") || text.contains("quota")) {
      return "the volume is full; free space, then retry";
    }
    if (text.contains("permission") || text.contains("access denied") || text.contains("denied")) {
      return "the store's user may not write there; fix the permissions";
    }
    if (text.contains("read-only")) {
      return "the volume is mounted read-only; remount it writable or choose another directory";
    }
    if (text.contains("auth")) {
      return "check the user name and password or key";
    }
    return "check that the store is reachable and the path exists";
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
      return remotePreflight();
    }

    private StorePreflight remotePreflight() {
      Redaction shown = new Redaction(uri, user, password);
      StandardFileSystemManager checker = new StandardFileSystemManager();
      try {
        checker.setFilesCache(new NullFilesCache());
        checker.setCacheStrategy(CacheStrategy.MANUAL);
        checker.init();
        Matcher scheme = SCHEME.matcher(uri);
        if (!scheme.find() || !checker.hasProvider(scheme.group(1))) {
          return StorePreflight.notChecked(); // build() names the problem
        }
        FileObject directory = checker.resolveFile(uri, options());
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
                    + shown.scrub(reason(e))
                    + " ("
                    + hint(e)
                    + ")"));
      } finally {
        checker.close();
      }
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
