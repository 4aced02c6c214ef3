package dev.fenceline.staging;

import static java.util.Objects.requireNonNull;

import dev.fenceline.spi.AlreadyApplied;
import dev.fenceline.spi.BlobInfo;
import dev.fenceline.spi.BlobKey;
import dev.fenceline.spi.BlobStore;
import dev.fenceline.spi.Capability;
import dev.fenceline.spi.Destination;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingStep;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.OperationConflictException;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Pointer;
import dev.fenceline.spi.PointerState;
import dev.fenceline.spi.PointerStore;
import dev.fenceline.spi.Receipt;
import dev.fenceline.spi.ReceiptPrunedException;
import dev.fenceline.spi.RegisterOutcome;
import dev.fenceline.spi.RejectedStale;
import dev.fenceline.spi.RequestFingerprint;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StepListener;
import dev.fenceline.spi.StoreException;
import dev.fenceline.spi.SupportsEpochReset;
import dev.fenceline.spi.UnsupportedCapabilityException;
import dev.fenceline.spi.UntrustedTokenException;
import dev.fenceline.spi.WriteOutcome;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Publishes payloads to a {@link BlobStore} that cannot check epochs, fenced by a {@link
 * PointerStore} that can (R6), following Iceberg's commit: stage, then swap one pointer.
 *
 * <ol>
 *   <li>A retry is answered before staging: if the operation is recorded with a staged blob, the
 *       payload is read once through SHA-256 (not stored) and compared with the recorded SHA-256.
 *       The same payload is {@link AlreadyApplied} with the first receipt, another one is refused
 *       with {@link dev.fenceline.spi.OperationConflictException}, as the atomic step below would;
 *       either way nothing is uploaded. This costs a first attempt one more read at the pointer
 *       store.
 *   <li>The payload is streamed to a new staging key no other write can collide with, {@code
 *       <prefix>/.fenceline/staging/<store-id>.<name>/<resource>/<epoch>-<operation>-<random>},
 *       computing its size and SHA-256 on the way. Nothing is buffered in memory. The staging area
 *       is bound to the pointer store's identity ({@link PointerStore#storeId()} and {@link
 *       PointerStore#name()}), so two pointer stores that share a blob prefix never sweep each
 *       other's blobs.
 *   <li>In one atomic step at the pointer store: the epoch is current, the operation was not
 *       applied (or was applied with the same payload SHA-256, the request fingerprint), the
 *       resource's publish pointer now names the staged key, and the operation is recorded with a
 *       receipt ({@code target}, {@code size}, {@code sha256}, and the epoch).
 *   <li>If the epoch was stale, the operation was already applied, or the operation ID was used for
 *       another payload ({@link dev.fenceline.spi.OperationConflictException}), the staged blob is
 *       deleted (best effort; otherwise the {@linkplain #sweep() sweep} removes it). So is what a
 *       failed upload left behind, for example when reading the payload failed.
 * </ol>
 *
 * <p>Guarantee: {@link dev.fenceline.spi.Guarantee#FENCED_BY_STAGING}. A reader that resolves the
 * resource through {@link #resolve} or {@link #open} only ever sees a blob published with the
 * newest epoch at the time of its swap. Its content is checked against the size and SHA-256
 * recorded then, in one of two ways:
 *
 * <ul>
 *   <li>{@link #open(ResourceId)} streams and verifies as it goes: a changed blob fails at the
 *       latest when the end is read. A reader that stops early has had unverified bytes.
 *   <li>{@link #openVerified(ResourceId)} reads the whole blob once to verify it before handing out
 *       the first byte (a second read of the blob); for readers that may stop early.
 * </ul>
 *
 * <p>Older versions are read with {@link #resolveVersion}, {@link #open(ResourceId, long)} and
 * {@link #openVerified(ResourceId, long)}, and published again with {@link #rollback}.
 *
 * <p>Not guaranteed: a consumer that lists or reads the staging area directly sees unpublished and
 * stale blobs; anyone with write access to the blob store can still change a published blob (the
 * readers above then fail with {@link BlobVerificationException} instead of serving it, except to a
 * streaming reader that stops before the changed part); a publish is not exactly-once across
 * systems.
 *
 * <p>Thread-safe if the blob and pointer stores are.
 */
public final class StagedDestination implements Destination<InputStream>, SupportsEpochReset {

  /** Receipt and pointer attribute: the payload's size in bytes. */
  public static final String SIZE_ATTRIBUTE = "size";

  /** Receipt and pointer attribute: the payload's SHA-256, lowercase hex. */
  public static final String SHA256_ATTRIBUTE = "sha256";

  private static final Set<Capability> CAPABILITIES =
      Set.of(
          Capability.NATIVE_EPOCH_CHECK,
          Capability.OPERATION_RECORD,
          Capability.RESULT_LOOKUP,
          Capability.STAGED_PUBLISH);

  private static final SecureRandom RANDOM = new SecureRandom();

  private final BlobStore blobs;
  private final PointerStore pointers;
  private final StepListener steps;
  private final BlobKey stagingRoot;
  private final Duration sweepGrace;
  private final int keepVersions;
  private final Clock clock;

  private StagedDestination(Builder builder) {
    this.blobs = builder.blobs;
    this.pointers = builder.pointers;
    this.steps = builder.steps;
    String area = ".fenceline/staging/" + pointers.storeId() + "." + pointers.name();
    this.stagingRoot = builder.prefix == null ? BlobKey.of(area) : builder.prefix.resolve(area);
    this.sweepGrace = builder.sweepGrace;
    this.keepVersions = builder.keepVersions;
    this.clock = builder.clock;
  }

  /**
   * Starts a configuration over {@code blobs} (where payloads land) and {@code pointers} (where the
   * epoch is checked and the pointer swapped).
   */
  public static Builder builder(BlobStore blobs, PointerStore pointers) {
    return new Builder(blobs, pointers);
  }

  /** The pointer store's name: operations are recorded in its scope. */
  @Override
  public String name() {
    return pointers.name();
  }

  @Override
  public Set<Capability> capabilities() {
    return CAPABILITIES;
  }

  @Override
  public RegisterOutcome register(FencingToken token) {
    return pointers.register(token);
  }

  /**
   * Stages {@code payload} and publishes it if the token's epoch is current. The payload is read to
   * its end; the caller closes it. A retry of an applied operation reads the payload only to hash
   * it and stages nothing (see the class comment).
   *
   * @throws StoreException if the blob store or the pointer store failed; the previously published
   *     blob stays published. If {@link StoreException#outcomeUnknown()} is true the staged blob is
   *     kept, since the pointer may name it; look the operation up.
   */
  @Override
  public WriteOutcome write(FencingToken token, OperationId operation, InputStream payload) {
    requireNonNull(token, "token is null");
    requireNonNull(operation, "operation is null");
    requireNonNull(payload, "payload is null");
    ResourceId resource = token.resource();
    // An early look saves staging a payload that cannot be published. It decides nothing: the
    // pointer store checks the epoch again in the atomic step.
    Epoch registered = pointers.currentEpoch(resource);
    if (token.epoch().isOlderThan(registered)) {
      return new RejectedStale(resource, token.epoch(), registered);
    }
    Optional<WriteOutcome> replay = replayWithoutStaging(token, operation, payload);
    if (replay.isPresent()) {
      return replay.get();
    }
    BlobKey key = stagingKey(token, operation);
    CountingDigestInputStream counted = new CountingDigestInputStream(payload);
    BlobInfo stored;
    try {
      stored = blobs.put(key, counted);
    } catch (StoreException e) {
      if (!e.outcomeUnknown()) {
        // A blob store may leave part of the payload behind when the payload stream fails (a
        // producer that crashed, a publish interrupted by a signal): nothing names it, so delete
        // it now rather than leaving it to the sweep.
        deleteQuietly(key);
        throw e;
      }
      // The blob store lost an answer: the blob may exist, but no pointer names it, so nothing
      // was published. Say so, instead of passing on an unknown outcome for the whole write.
      deleteQuietly(key);
      throw new StoreException(
          "Cannot stage "
              + resource
              + " for operation "
              + operation
              + ": "
              + e.getMessage()
              + "; nothing was published (retry with the same operation ID)",
          e,
          false);
    }
    if (stored.size() != counted.count()) {
      deleteQuietly(key);
      throw new StoreException(
          "Cannot stage "
              + resource
              + ": the blob store reports "
              + stored.size()
              + " bytes at "
              + key
              + " but "
              + counted.count()
              + " bytes were streamed (the blob store lost data; retry)",
          null);
    }
    String sha256 = counted.sha256();
    Pointer pointer =
        new Pointer(
            key.value(),
            Map.of(SIZE_ATTRIBUTE, Long.toString(counted.count()), SHA256_ATTRIBUTE, sha256));
    WriteOutcome outcome;
    try {
      steps.reached(FencingStep.AFTER_STAGE, token, operation);
      // Every attempt stages under a new key: the payload, not the pointer, is the request.
      outcome = pointers.write(token, operation, pointer, RequestFingerprint.ofSha256Hex(sha256));
    } catch (StoreException e) {
      if (!e.outcomeUnknown()) {
        deleteQuietly(key);
      }
      throw e;
    } catch (OperationConflictException | UntrustedTokenException e) {
      deleteQuietly(key); // refused before anything changed
      throw e;
    }
    if (outcome instanceof RejectedStale || outcome instanceof AlreadyApplied) {
      deleteQuietly(key);
    }
    return outcome;
  }

  /**
   * A retry of an operation this destination applied is answered before anything is staged: the
   * payload is read once through SHA-256 (and not stored) and compared with the recorded one, the
   * request fingerprint the pointer store would compare in its atomic step. Empty if the operation
   * is not recorded, its receipt may have been pruned, or its receipt is not a staged blob of this
   * resource with a size and SHA-256 (then the payload is staged and the atomic step decides, as
   * for a first attempt).
   */
  private Optional<WriteOutcome> replayWithoutStaging(
      FencingToken token, OperationId operation, InputStream payload) {
    ResourceId resource = token.resource();
    Optional<Receipt> found;
    try {
      found = pointers.lookup(resource, operation);
    } catch (ReceiptPrunedException e) {
      return Optional.empty();
    }
    Optional<String> recordedSha256 = found.flatMap(receipt -> stagedSha256(resource, receipt));
    if (recordedSha256.isEmpty()) {
      return Optional.empty();
    }
    Receipt receipt = found.get();
    String sha256;
    try {
      CountingDigestInputStream counted = new CountingDigestInputStream(payload);
      counted.transferTo(OutputStream.nullOutputStream());
      sha256 = counted.sha256();
    } catch (IOException e) {
      throw new RetryNotComparedException(
          "Cannot publish "
              + resource
              + " for operation "
              + operation
              + ": reading the payload failed: "
              + e.getMessage()
              + "; operation "
              + operation
              + " was already applied at epoch "
              + receipt.epoch()
              + "; this retry changed nothing (its payload could not be read to compare)",
          receipt,
          e);
    }
    // The answers of the atomic step, in its order: a stale token first, then a conflict (which
    // registers nothing), then the replay (which checks the token and registers a newer epoch).
    if (!sha256.equals(recordedSha256.get())) {
      Epoch current = pointers.currentEpoch(resource);
      if (token.epoch().isOlderThan(current)) {
        return Optional.of(new RejectedStale(resource, token.epoch(), current));
      }
      throw OperationConflictException.differentRequest(
          receipt, RequestFingerprint.ofSha256Hex(sha256));
    }
    RegisterOutcome registered = pointers.register(token);
    if (registered instanceof RejectedStale stale) {
      return Optional.of(stale);
    }
    return Optional.of(new AlreadyApplied(receipt));
  }

  /**
   * The SHA-256 a receipt records, if it is a staged blob of this resource (written by {@link
   * #write} or {@link #rollback}, whose request fingerprint is that SHA-256).
   */
  private Optional<String> stagedSha256(ResourceId resource, Receipt receipt) {
    Map<String, String> attributes = receipt.attributes();
    String target = attributes.get(PointerStore.TARGET_ATTRIBUTE);
    String sha256 = attributes.get(SHA256_ATTRIBUTE);
    String area = stagingRoot.resolve(resource.value()).value() + "/";
    if (target == null
        || sha256 == null
        || attributes.get(SIZE_ATTRIBUTE) == null
        || !target.startsWith(area)
        || target.substring(area.length()).contains("/")
        || !sha256.matches("[0-9a-f]{64}")) {
      return Optional.empty();
    }
    return Optional.of(sha256);
  }

  @Override
  public Optional<Receipt> lookup(ResourceId resource, OperationId operation) {
    return pointers.lookup(resource, operation);
  }

  @Override
  public Epoch currentEpoch(ResourceId resource) {
    return pointers.currentEpoch(resource);
  }

  /**
   * Resets the registered epoch at the pointer store (see {@link SupportsEpochReset}).
   *
   * @throws UnsupportedCapabilityException if the pointer store cannot reset epochs
   */
  @Override
  public Epoch resetRegisteredEpoch(ResourceId resource, Epoch epoch, String reason) {
    if (!(pointers instanceof SupportsEpochReset resettable)) {
      throw new UnsupportedCapabilityException(
          "Cannot reset the registered epoch of "
              + resource
              + ": the pointer store "
              + pointers.getClass().getSimpleName()
              + " does not support it (reset it at the store itself)");
    }
    return resettable.resetRegisteredEpoch(resource, epoch, reason);
  }

  /**
   * Finds the blob the resource's publish pointer names, and checks that it lies in this resource's
   * staging area ({@code <prefix>/.fenceline/staging/<store-id>.<name>/<resource>/}) and exists
   * with the published size. The content is not read: {@link #open} and {@link #openVerified} check
   * the SHA-256.
   *
   * @return the published blob, or empty if nothing was published yet
   * @throws VersionUnavailableException if the pointer names no blob key, or a key outside this
   *     resource's staging area, or has no valid size; if the published blob is missing or has the
   *     wrong size
   * @throws StoreException if a store failed
   */
  public Optional<PublishedBlob> resolve(ResourceId resource) {
    requireNonNull(resource, "resource is null");
    Optional<PointerState> state = pointers.current(resource);
    if (state.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        requireStored(
            published(state.get()),
            "resolve " + resource,
            "the published blob",
            "it was deleted outside Fenceline; republish"));
  }

  /**
   * Finds the blob that version {@code version} of the resource's publish pointer names (see {@link
   * PointerStore#history}), with the same checks as {@link #resolve}: the target lies in this
   * resource's staging area and the blob exists with the size recorded for that version. Versions
   * older than the newest {@code keepVersions} may have been swept. Reads the pointer history from
   * the newest version down to {@code version}.
   *
   * @param version a pointer version, from 1 to the current one
   * @throws IllegalArgumentException if {@code version} is below 1
   * @throws VersionUnavailableException if nothing is published, there is no such version, its
   *     pointer is not a staged blob of this resource, or its blob is missing (swept or deleted) or
   *     has another size
   * @throws StoreException if a store failed
   */
  public PublishedBlob resolveVersion(ResourceId resource, long version) {
    requireNonNull(resource, "resource is null");
    String action = "resolve version " + version + " of " + resource;
    return requireStored(
        published(versionState(resource, version, action)),
        action,
        "its blob",
        "it was swept, being older than the newest kept versions, or deleted; pick a newer"
            + " version");
  }

  /**
   * Opens the currently published blob of {@code resource} for streaming. The stream verifies the
   * size and SHA-256 as it goes and throws {@link BlobVerificationException} when they differ, at
   * the latest when the end is read; the caller closes it.
   *
   * <p>Only a stream read to its end without an exception was verified. A reader that stops early
   * (reads a header, a first page) and closes the stream has had unverified bytes: if the blob was
   * changed after publishing, those bytes may be the changed ones. Such readers use {@link
   * #openVerified(ResourceId)}.
   *
   * @throws StoreException if nothing is published, the blob is missing, or a store failed
   */
  public InputStream open(ResourceId resource) {
    return streaming(current(resource, "open " + resource));
  }

  /**
   * Opens version {@code version} of the resource's blob for streaming, verified as it goes like
   * {@link #open(ResourceId)} (the same caveat for readers that stop early applies).
   *
   * @throws IllegalArgumentException if {@code version} is below 1
   * @throws StoreException as {@link #resolveVersion}
   */
  public InputStream open(ResourceId resource, long version) {
    return streaming(resolveVersion(resource, version));
  }

  /**
   * Opens the currently published blob of {@code resource} only after verifying all of it: the blob
   * is streamed once through SHA-256 (nothing is kept in memory) and compared with the published
   * size and checksum, and only then opened again for the caller. A blob changed or damaged before
   * this call is refused before the first byte is handed out, so a reader that stops early never
   * gets its bytes. Costs a second read of the blob.
   *
   * <p>A blob changed between the check and the caller's read (someone writing to the blob store
   * while you read) is caught only by the returned stream, which verifies as it goes like {@link
   * #open(ResourceId)}: read it to its end to be sure of every byte.
   *
   * @throws BlobVerificationException if the blob differs from the published size or SHA-256
   * @throws IOException if reading the blob failed
   * @throws StoreException if nothing is published, the blob is missing, or a store failed
   */
  public InputStream openVerified(ResourceId resource) throws IOException {
    return verifiedThenStreaming(current(resource, "open " + resource));
  }

  /**
   * Opens version {@code version} of the resource's blob after verifying all of it, like {@link
   * #openVerified(ResourceId)}: for audits of older versions.
   *
   * @throws IllegalArgumentException if {@code version} is below 1
   * @throws BlobVerificationException if the blob differs from that version's size or SHA-256
   * @throws IOException if reading the blob failed
   * @throws StoreException as {@link #resolveVersion}
   */
  public InputStream openVerified(ResourceId resource, long version) throws IOException {
    return verifiedThenStreaming(resolveVersion(resource, version));
  }

  /**
   * Publishes an older version again: a new, fenced pointer swap to the blob that version {@code
   * version} named, with that version's size and SHA-256. It is an ordinary write in every other
   * respect: the token's epoch is checked and the operation recorded in the same atomic step at the
   * pointer store, a retry with the same operation ID answers {@link AlreadyApplied}, and the
   * history keeps every version (the rollback is a new version; nothing is rewritten). The request
   * fingerprint is the blob's SHA-256, as for a publish of the same bytes.
   *
   * <p>Before the swap, the old blob must still exist in this resource's staging area with its
   * recorded size, and its content is read once to check its SHA-256 (nothing is kept in memory).
   * Once swapped, the blob is among the newest versions again, so the {@linkplain #sweep() sweep}
   * keeps it. A version older than the newest {@code keepVersions} may be deleted by a sweep that
   * runs at the same time as the rollback, between the check and the swap: readers then get a clear
   * "missing" error, never other bytes. Do not run the sweep while rolling back further than the
   * kept versions. Reports {@link FencingStep#AFTER_STAGE} once the old blob was checked.
   *
   * @param token the caller's token for the resource; the swap is refused if its epoch is stale
   * @param operation the operation ID of this rollback, the same on every retry
   * @param version the version to publish again, from 1 to the current one
   * @return {@link dev.fenceline.spi.Applied} with a receipt naming the old blob, {@link
   *     AlreadyApplied}, or {@link RejectedStale} (nothing changed)
   * @throws IllegalArgumentException if {@code version} is below 1
   * @throws StoreException if there is no such version, its blob is missing (swept or deleted), has
   *     another size or SHA-256, or is not a staged blob of this resource; nothing changed. Also if
   *     a store failed: see {@link StoreException#outcomeUnknown()}
   * @throws OperationConflictException if the operation ID was used for another payload
   */
  public WriteOutcome rollback(FencingToken token, OperationId operation, long version) {
    requireNonNull(token, "token is null");
    requireNonNull(operation, "operation is null");
    ResourceId resource = token.resource();
    String action = "roll back " + resource + " to version " + version;
    // An early look saves reading the blob for a token that cannot swap. It decides nothing: the
    // pointer store checks the epoch again in the atomic step.
    Epoch registered = pointers.currentEpoch(resource);
    if (token.epoch().isOlderThan(registered)) {
      return new RejectedStale(resource, token.epoch(), registered);
    }
    PointerState old = versionState(resource, version, action);
    PublishedBlob blob =
        requireStored(
            published(old),
            action,
            "its blob",
            "it was swept, being older than the newest kept versions, or deleted; pick a newer"
                + " version or publish again");
    String sha256 = requireContent(blob, action);
    // The old blob plays the staged payload's part: checked, and the pointer not swapped yet.
    steps.reached(FencingStep.AFTER_STAGE, token, operation);
    return pointers.write(token, operation, old.pointer(), RequestFingerprint.ofSha256Hex(sha256));
  }

  private PublishedBlob current(ResourceId resource, String action) {
    return resolve(resource)
        .orElseThrow(
            () ->
                new VersionUnavailableException(
                    "Cannot " + action + ": nothing is published yet (publish it first)",
                    resource));
  }

  private InputStream streaming(PublishedBlob blob) {
    return new VerifyingInputStream(blobs.open(blob.key()), blob);
  }

  private InputStream verifiedThenStreaming(PublishedBlob blob) throws IOException {
    try (InputStream check = streaming(blob)) {
      check.transferTo(OutputStream.nullOutputStream());
    }
    return streaming(blob);
  }

  /**
   * Reads the whole blob once and checks its size and SHA-256 against the published ones.
   *
   * @return the SHA-256 read, lowercase hex
   */
  private String requireContent(PublishedBlob blob, String action) {
    long size;
    String sha256;
    try (CountingDigestInputStream in = new CountingDigestInputStream(blobs.open(blob.key()))) {
      in.transferTo(OutputStream.nullOutputStream());
      size = in.count();
      sha256 = in.sha256();
    } catch (IOException e) {
      throw new StoreException(
          "Cannot " + action + ": reading blob " + blob.key() + " failed: " + e + " (retry)", e);
    }
    if (size != blob.size() || !sha256.equals(blob.sha256())) {
      throw new StoreException(
          "Cannot "
              + action
              + ": blob "
              + blob.key()
              + " has "
              + size
              + " bytes with SHA-256 "
              + sha256
              + ", but "
              + blob.size()
              + " bytes with SHA-256 "
              + blob.sha256()
              + " were published (it was changed or damaged after publishing; pick another"
              + " version or publish again)",
          null);
    }
    return sha256;
  }

  /** Checks that the blob exists with the published size; its content is not read. */
  private PublishedBlob requireStored(
      PublishedBlob blob, String action, String what, String missingHint) {
    Optional<BlobInfo> info = blobs.stat(blob.key());
    if (info.isEmpty()) {
      throw new VersionUnavailableException(
          "Cannot "
              + action
              + ": "
              + what
              + " "
              + blob.key()
              + " is missing from the blob store ("
              + missingHint
              + ")",
          blob.resource());
    }
    if (info.get().size() != blob.size()) {
      throw new VersionUnavailableException(
          "Cannot "
              + action
              + ": "
              + what
              + " "
              + blob.key()
              + " has "
              + info.get().size()
              + " bytes, "
              + blob.size()
              + " were published (it was changed after publishing; republish)",
          blob.resource());
    }
    return blob;
  }

  /**
   * The pointer state of {@code version}, read from the history. Swaps that land between reading
   * the newest version and the history push the version further back; the read is then repeated.
   */
  private PointerState versionState(ResourceId resource, long version, String action) {
    if (version < 1) {
      throw new IllegalArgumentException(
          "Cannot " + action + ": versions start at 1 (pick one from the pointer history)");
    }
    for (int attempt = 0; attempt < 5; attempt++) {
      PointerState newest =
          pointers
              .current(resource)
              .orElseThrow(
                  () ->
                      new VersionUnavailableException(
                          "Cannot " + action + ": nothing is published yet (publish it first)",
                          resource));
      if (version > newest.version()) {
        throw new VersionUnavailableException(
            "Cannot "
                + action
                + ": there is no such version, the newest is "
                + newest.version()
                + " (pick one from the pointer history)",
            resource);
      }
      if (version == newest.version()) {
        return newest;
      }
      long depth = newest.version() - version + 1;
      List<PointerState> history =
          pointers.history(resource, (int) Math.min(depth, Integer.MAX_VALUE));
      for (PointerState state : history) {
        if (state.version() == version) {
          return state;
        }
      }
      if (history.size() < depth) {
        throw new VersionUnavailableException(
            "Cannot "
                + action
                + ": the pointer store returned "
                + history.size()
                + " versions of the history where "
                + depth
                + " were needed (pick a newer version)",
            resource);
      }
    }
    throw new StoreException(
        "Cannot "
            + action
            + ": new versions were published faster than the history could be read (retry)",
        null);
  }

  /**
   * Deletes staged blobs that can never be published and are not among the kept versions: a blob is
   * deleted only if (1) its epoch is older than the resource's registered epoch, so no pointer swap
   * can name it any more, (2) it is not among the newest {@code keepVersions} pointers of its
   * resource (the current one included), and (3) it was last modified more than the grace period
   * ago by the blob store's clock (a writer still streaming it keeps it fresh). Blobs of the
   * current epoch are never deleted: their owner may still publish them.
   *
   * @return what was deleted and how many staged blobs were kept
   * @throws StoreException if a store failed; blobs deleted so far stay deleted
   */
  public SweepReport sweep() {
    return sweep(stagingRoot, null);
  }

  /**
   * Sweeps as {@link #sweep()} does, but only the staged blobs of {@code resource}: lists only that
   * resource's staging area, so it costs as much as the resource has blobs, not the whole
   * destination. For a sweep right after a publish of {@code resource}.
   *
   * @return what was deleted and how many of the resource's staged blobs were kept
   * @throws StoreException if a store failed; blobs deleted so far stay deleted
   */
  public SweepReport sweep(ResourceId resource) {
    requireNonNull(resource, "resource is null");
    return sweep(stagingRoot.resolve(resource.value()), resource);
  }

  /** How many published versions per resource the sweep keeps, the current one included. */
  public int keepVersions() {
    return keepVersions;
  }

  /** How long an unpublishable staged blob is left alone after its last modification. */
  public Duration sweepGrace() {
    return sweepGrace;
  }

  /** Sweeps the blobs listed under {@code area}; with {@code only}, just that resource's. */
  private SweepReport sweep(BlobKey area, ResourceId only) {
    Instant cutoff = clock.instant().minus(sweepGrace);
    Map<ResourceId, List<StagedBlob>> byResource = new LinkedHashMap<>();
    try (Stream<BlobInfo> listing = blobs.list(area)) {
      // A resource's area also lists the areas of resources below it (a/b under a): skipped.
      listing.forEach(
          info ->
              StagedBlob.parse(stagingRoot, info)
                  .filter(staged -> only == null || staged.resource().equals(only))
                  .ifPresent(
                      staged ->
                          byResource
                              .computeIfAbsent(staged.resource(), r -> new ArrayList<>())
                              .add(staged)));
    }
    List<BlobKey> deleted = new ArrayList<>();
    int kept = 0;
    for (Map.Entry<ResourceId, List<StagedBlob>> entry : byResource.entrySet()) {
      ResourceId resource = entry.getKey();
      // Read the epoch before the history: a swap after this read carries this epoch or a newer
      // one, so every older blob a pointer can name is already in the history read below.
      Epoch current = pointers.currentEpoch(resource);
      Set<String> keep = new HashSet<>();
      for (PointerState state : pointers.history(resource, keepVersions)) {
        keep.add(state.pointer().target());
      }
      for (StagedBlob staged : entry.getValue()) {
        boolean deletable =
            staged.epoch().isOlderThan(current)
                && !keep.contains(staged.info().key().value())
                && staged.info().lastModified().isBefore(cutoff);
        if (deletable && blobs.delete(staged.info().key())) {
          deleted.add(staged.info().key());
        } else {
          kept++;
        }
      }
    }
    return new SweepReport(deleted, kept);
  }

  private PublishedBlob published(PointerState state) {
    Map<String, String> attributes = state.pointer().attributes();
    String size = attributes.get(SIZE_ATTRIBUTE);
    String sha256 = attributes.get(SHA256_ATTRIBUTE);
    if (size == null || sha256 == null) {
      throw new VersionUnavailableException(
          "Cannot resolve "
              + state.resource()
              + ": its publish pointer (version "
              + state.version()
              + ") has no size and sha256 (it was not written by a StagedDestination)",
          state.resource());
    }
    long bytes;
    try {
      bytes = Long.parseLong(size);
    } catch (NumberFormatException e) {
      bytes = -1;
    }
    if (bytes < 0) {
      throw new VersionUnavailableException(
          "Cannot resolve "
              + state.resource()
              + ": its publish pointer (version "
              + state.version()
              + ") has size "
              + quoted(size)
              + ", which is not a byte count (it was not written by a StagedDestination; check"
              + " who else writes to the pointer store)",
          state.resource());
    }
    return new PublishedBlob(
        state.resource(),
        publishedKey(state),
        bytes,
        sha256,
        state.epoch(),
        state.operation(),
        state.version());
  }

  /**
   * The pointer's target as a key in this resource's staging area, {@code
   * <prefix>/.fenceline/staging/<store-id>.<name>/<resource>/<name>}. A target elsewhere (not a
   * blob key, another resource's area, outside the staging area) was not written by this
   * destination for this resource: serving it would hand out a blob this resource never published.
   */
  private BlobKey publishedKey(PointerState state) {
    String target = state.pointer().target();
    String area = stagingRoot.resolve(state.resource().value()).value() + "/";
    BlobKey key;
    try {
      key = BlobKey.of(target);
    } catch (IllegalArgumentException e) {
      throw foreignTarget(state, "is not a valid blob key", e);
    }
    String name = target.startsWith(area) ? target.substring(area.length()) : "";
    if (name.isEmpty() || name.contains("/")) {
      throw foreignTarget(state, "lies outside this resource's staging area " + area, null);
    }
    return key;
  }

  private static StoreException foreignTarget(PointerState state, String reason, Throwable cause) {
    return new VersionUnavailableException(
        "Cannot resolve "
            + state.resource()
            + ": its publish pointer (version "
            + state.version()
            + ") names target "
            + quoted(state.pointer().target())
            + ", which "
            + reason
            + " (it was not written by a StagedDestination with this prefix for this resource;"
            + " check the destination's prefix, and who else writes to the pointer store)",
        state.resource(),
        cause);
  }

  /** A forged target for a message: quoted, control characters escaped, cut if long. */
  private static String quoted(String value) {
    StringBuilder shown = new StringBuilder("\"");
    int limit = Math.min(value.length(), 200);
    for (int i = 0; i < limit; i++) {
      char c = value.charAt(i);
      if (c == '"' || c == '\\') {
        shown.append('\\').append(c);
      } else if (Character.isISOControl(c) || c == '\u2028' || c == '\u2029') {
        shown.append(String.format("\\u%04x", (int) c));
      } else {
        shown.append(c);
      }
    }
    return shown.append(value.length() > limit ? "...\"" : "\"").toString();
  }

  private BlobKey stagingKey(FencingToken token, OperationId operation) {
    byte[] random = new byte[12];
    RANDOM.nextBytes(random);
    return stagingRoot
        .resolve(token.resource().value())
        .resolve(
            token.epoch() + "-" + slug(operation.value()) + "-" + HexFormat.of().formatHex(random));
  }

  /** The operation ID reduced to key-safe characters, for people looking at the staging area. */
  private static String slug(String operation) {
    StringBuilder slug = new StringBuilder();
    for (int i = 0; i < operation.length() && slug.length() < 64; i++) {
      char c = operation.charAt(i);
      boolean safe =
          (c >= 'a' && c <= 'z')
              || (c >= 'A' && c <= 'Z')
              || (c >= '0' && c <= '9')
              || c == '.'
              || c == '-'
              || c == '_';
      slug.append(safe ? c : '_');
    }
    return slug.toString();
  }

  private void deleteQuietly(BlobKey key) {
    try {
      blobs.delete(key);
    } catch (RuntimeException e) {
      // Left for the sweep: an unpublished staged blob is never served.
      System.getLogger(StagedDestination.class.getName())
          .log(
              System.Logger.Level.WARNING,
              "Cannot delete unpublished staged blob " + key + " (the sweep will): " + e);
    }
  }

  /** Validating builder for {@link StagedDestination}. */
  public static final class Builder {
    private final BlobStore blobs;
    private final PointerStore pointers;
    private StepListener steps = StepListener.NONE;
    private BlobKey prefix;
    private Duration sweepGrace = Duration.ofHours(1);
    private int keepVersions = 3;
    private Clock clock = Clock.systemUTC();

    private Builder(BlobStore blobs, PointerStore pointers) {
      this.blobs = requireNonNull(blobs, "blobs is null");
      this.pointers = requireNonNull(pointers, "pointers is null");
    }

    /** A key prefix for the staging area, e.g. {@code reports}; default none. */
    public Builder prefix(BlobKey prefix) {
      this.prefix = requireNonNull(prefix, "prefix is null");
      return this;
    }

    /**
     * Reports {@link FencingStep#AFTER_STAGE} (tests, tracing); pass the same to the pointer store.
     */
    public Builder steps(StepListener steps) {
      this.steps = requireNonNull(steps, "steps is null");
      return this;
    }

    /**
     * How long an unpublishable staged blob is left alone after its last modification (default 1
     * h). Choose it longer than the longest stall of a writer that is still streaming, plus the
     * clock difference between this machine and the blob store (modification times come from the
     * store's clock).
     */
    public Builder sweepGrace(Duration sweepGrace) {
      requireNonNull(sweepGrace, "sweepGrace is null");
      if (sweepGrace.isNegative()) {
        throw new IllegalArgumentException(
            "Cannot use sweep grace " + sweepGrace + ": it is negative (e.g. PT1H)");
      }
      this.sweepGrace = sweepGrace;
      return this;
    }

    /**
     * How many published versions per resource the sweep keeps, the current one included (default
     * 3).
     */
    public Builder keepVersions(int keepVersions) {
      if (keepVersions < 1) {
        throw new IllegalArgumentException(
            "Cannot keep "
                + keepVersions
                + " versions: the current version is always kept (use 1 or more)");
      }
      this.keepVersions = keepVersions;
      return this;
    }

    /** The clock the sweep compares blob modification times with (default the system clock). */
    public Builder clock(Clock clock) {
      this.clock = requireNonNull(clock, "clock is null");
      return this;
    }

    /** Builds the destination. */
    public StagedDestination build() {
      return new StagedDestination(this);
    }
  }
}
