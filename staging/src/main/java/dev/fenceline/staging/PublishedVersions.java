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

import dev.fenceline.spi.BlobInfo;
import dev.fenceline.spi.BlobStore;
import dev.fenceline.spi.PointerState;
import dev.fenceline.spi.PointerStore;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StoreException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;
import java.util.Optional;

/**
 * The read side of a {@link StagedDestination}: finds the blob the current or an older version of a
 * resource's publish pointer names, checks that it is still there as published, and opens it
 * verified. The public methods of {@link StagedDestination} document what each check refuses.
 */
final class PublishedVersions {

  private final BlobStore blobs;
  private final PointerStore pointers;
  private final StagedPointers staged;

  PublishedVersions(BlobStore blobs, PointerStore pointers, StagedPointers staged) {
    this.blobs = blobs;
    this.pointers = pointers;
    this.staged = staged;
  }

  /** {@link StagedDestination#resolve}. */
  Optional<PublishedBlob> resolve(ResourceId resource) {
    requireNonNull(resource, "resource is null");
    Optional<PointerState> state = pointers.current(resource);
    if (state.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        requireStored(
            staged.published(state.get()),
            "resolve " + resource,
            "the published blob",
            "it was deleted outside Fenceline; republish"));
  }

  /** {@link StagedDestination#resolveVersion}. */
  PublishedBlob resolveVersion(ResourceId resource, long version) {
    requireNonNull(resource, "resource is null");
    String action = "resolve version " + version + " of " + resource;
    return requireStored(
        staged.published(state(resource, version, action)),
        action,
        "its blob",
        "it was swept, being older than the newest kept versions, or deleted; pick a newer"
            + " version");
  }

  /** The currently published blob, checked as {@link #resolve} does; {@code action} as a verb. */
  PublishedBlob current(ResourceId resource, String action) {
    return resolve(resource)
        .orElseThrow(
            () ->
                new VersionUnavailableException(
                    "Cannot " + action + ": nothing is published yet (publish it first)",
                    resource));
  }

  /** Opens {@code blob} for streaming, verified as it is read. */
  InputStream streaming(PublishedBlob blob) {
    return new VerifyingInputStream(blobs.open(blob.key()), blob);
  }

  /** Reads all of {@code blob} once to verify it, then opens it for streaming. */
  InputStream verifiedThenStreaming(PublishedBlob blob) throws IOException {
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
  String requireContent(PublishedBlob blob, String action) {
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
  PublishedBlob requireStored(PublishedBlob blob, String action, String what, String missingHint) {
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
  PointerState state(ResourceId resource, long version, String action) {
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
}
