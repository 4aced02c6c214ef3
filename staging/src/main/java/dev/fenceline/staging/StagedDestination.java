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
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

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
 * <p>Thread-safe if the blob and pointer stores are. The staging area's layout is {@link
 * StagingArea}; reading a pointer as a staged blob, and refusing what this destination did not
 * write, is {@link StagedPointers}; the read side is {@link PublishedVersions}, the sweep {@link
 * StagingSweep}, and the answer to a retry before staging {@link RetryBeforeStaging}.
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

  private final BlobStore blobs;
  private final PointerStore pointers;
  private final StepListener steps;
  private final StagingArea area;
  private final Duration sweepGrace;
  private final int keepVersions;
  private final StagedPointers staged;
  private final RetryBeforeStaging retries;
  private final PublishedVersions versions;
  private final StagingSweep sweeper;

  private StagedDestination(Builder builder) {
    this.blobs = builder.blobs;
    this.pointers = builder.pointers;
    this.steps = builder.steps;
    this.area = new StagingArea(builder.prefix, pointers);
    this.sweepGrace = builder.sweepGrace;
    this.keepVersions = builder.keepVersions;
    this.staged = new StagedPointers(area);
    this.retries = new RetryBeforeStaging(pointers, staged);
    this.versions = new PublishedVersions(blobs, pointers, staged);
    this.sweeper =
        new StagingSweep(blobs, pointers, area, builder.sweepGrace, keepVersions, builder.clock);
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
    Optional<WriteOutcome> replay = retries.answer(token, operation, payload);
    if (replay.isPresent()) {
      return replay.get();
    }
    BlobKey key = area.newKey(token, operation);
    Pointer pointer = stage(key, payload, resource, operation);
    return swap(token, operation, key, pointer);
  }

  /**
   * Streams {@code payload} to {@code key}, counting its size and SHA-256 on the way, and returns
   * the pointer that publishes it. What a failed upload left at the key is deleted.
   *
   * @throws StoreException if the blob store failed or lost data; nothing was published
   */
  private Pointer stage(
      BlobKey key, InputStream payload, ResourceId resource, OperationId operation) {
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
    return new Pointer(
        key.value(),
        Map.of(SIZE_ATTRIBUTE, Long.toString(counted.count()), SHA256_ATTRIBUTE, counted.sha256()));
  }

  /**
   * Swaps the publish pointer to the blob staged at {@code key} in the pointer store's atomic step,
   * and deletes the staged blob again unless it was published or may have been.
   */
  private WriteOutcome swap(
      FencingToken token, OperationId operation, BlobKey key, Pointer pointer) {
    String sha256 = pointer.attributes().get(SHA256_ATTRIBUTE);
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
    return versions.resolve(resource);
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
    return versions.resolveVersion(resource, version);
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
    return versions.streaming(versions.current(resource, "open " + resource));
  }

  /**
   * Opens version {@code version} of the resource's blob for streaming, verified as it goes like
   * {@link #open(ResourceId)} (the same caveat for readers that stop early applies).
   *
   * @throws IllegalArgumentException if {@code version} is below 1
   * @throws StoreException as {@link #resolveVersion}
   */
  public InputStream open(ResourceId resource, long version) {
    return versions.streaming(resolveVersion(resource, version));
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
    return versions.verifiedThenStreaming(versions.current(resource, "open " + resource));
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
    return versions.verifiedThenStreaming(resolveVersion(resource, version));
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
    PointerState old = versions.state(resource, version, action);
    PublishedBlob blob =
        versions.requireStored(
            staged.published(old),
            action,
            "its blob",
            "it was swept, being older than the newest kept versions, or deleted; pick a newer"
                + " version or publish again");
    String sha256 = versions.requireContent(blob, action);
    // The old blob plays the staged payload's part: checked, and the pointer not swapped yet.
    steps.reached(FencingStep.AFTER_STAGE, token, operation);
    return pointers.write(token, operation, old.pointer(), RequestFingerprint.ofSha256Hex(sha256));
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
    return sweeper.sweep(area.root(), null);
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
    return sweeper.sweep(area.of(resource), resource);
  }

  /** How many published versions per resource the sweep keeps, the current one included. */
  public int keepVersions() {
    return keepVersions;
  }

  /** How long an unpublishable staged blob is left alone after its last modification. */
  public Duration sweepGrace() {
    return sweepGrace;
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
