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
package dev.fenceline.s3;

import static java.util.Objects.requireNonNull;

import dev.fenceline.spi.BlobKey;
import dev.fenceline.spi.PointerState;
import dev.fenceline.spi.PointerStore;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StoreException;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;

/**
 * Keeps a copy of a resource's published object at a fixed key, for readers that cannot resolve a
 * publish pointer (a static web site, a query engine reading {@code reports/latest.csv}).
 *
 * <p>Each copy is a PUT of the published object's bytes (streamed, never buffered whole) with a
 * condition on the fixed key ({@code If-Match} with the ETag read just before, or {@code
 * If-None-Match: *} when the key is absent) and carries the pointer's version in the object's
 * metadata ({@value #VERSION_METADATA}). A copy replaces only an older version: a late copy by a
 * stale process that read an old pointer sees the newer version and stops, or its condition fails
 * and it reads again. Rollbacks publish a new pointer version, so they are copied too.
 *
 * <p>One case the condition cannot catch: S3 ETags are digests of the bytes (metadata is not part
 * of them), so when a newer version has exactly the bytes the stale copier saw at the fixed key (an
 * unchanged report, a rollback), the fixed key's ETag comes back and the stale copier's {@code
 * If-Match} holds: for a moment the fixed key holds the stale copier's older version. {@link
 * #copyCurrent} repairs that before it returns: after copying, it reads the pointer again and
 * copies any newer version. So the fixed key can move back only while a copier that moved it back
 * has not yet returned (or if that process dies right then, until the next {@link #copyCurrent});
 * {@link #copy(PointerState)}, which has no pointer store to read, does not repair it.
 *
 * <p>What readers of the fixed key get: the newest version some process copied, which may lag
 * behind the pointer (copy after every publish, or call {@link #copyCurrent} from a schedule); the
 * object's {@value #SHA256_METADATA} metadata, when the pointer recorded one, lets them check the
 * content. The copy is not fenced by the epoch: it follows the pointer store, which is.
 *
 * <p>Needs conditional writes: {@link S3Store#fixedKeyCopy} refuses endpoints that failed the
 * {@linkplain S3Store#conditionalWrites() probe}. A fixed key holding an object without Fenceline's
 * metadata, or a copy of another resource, is never overwritten. Objects up to 5 GiB (the limit of
 * one PUT). The bytes pass through this process (a server-side copy would not, but no test server
 * here honours conditions on {@code CopyObject}, so it could not be shown to be safe). Thread-safe.
 */
public final class FixedKeyCopy {

  /** Object metadata holding the pointer version of the copy. */
  public static final String VERSION_METADATA = "fenceline-version";

  /** Object metadata naming the resource whose pointer the copy follows. */
  public static final String RESOURCE_METADATA = "fenceline-resource";

  /** Object metadata holding the published object's SHA-256 (hex), when the pointer has one. */
  public static final String SHA256_METADATA = "fenceline-sha256";

  /** What a copy did. */
  public enum Result {
    /** The fixed key now holds the given version. */
    COPIED,
    /** The fixed key already held this version: nothing was written. */
    UP_TO_DATE,
    /** The fixed key already held a newer version: nothing was written. */
    NEWER_PRESENT
  }

  private static final int MAX_ATTEMPTS = 20;

  /** The largest object one PUT takes: 5 GiB. */
  private static final long MAX_COPY_SIZE = 5L << 30;

  private final S3Location location;
  private final BlobKey fixedKey;

  FixedKeyCopy(S3Location location, BlobKey fixedKey) {
    this.location = requireNonNull(location, "location is null");
    this.fixedKey = requireNonNull(fixedKey, "fixedKey is null");
  }

  /** The fixed key (under the store's prefix). */
  public BlobKey fixedKey() {
    return fixedKey;
  }

  /**
   * Copies the current pointer of {@code resource} in {@code pointers} to the fixed key, unless the
   * fixed key holds that version or a newer one already; then reads the pointer again and copies
   * any newer version, so that a copy of this call that put older bytes back (see the class
   * comment) is repaired before it returns.
   *
   * @return what the last copy did, or empty if nothing is published for the resource yet
   * @throws StoreException if a store failed, or the fixed key holds something Fenceline did not
   *     copy there
   */
  public Optional<Result> copyCurrent(PointerStore pointers, ResourceId resource) {
    requireNonNull(pointers, "pointers is null");
    requireNonNull(resource, "resource is null");
    Optional<PointerState> copied = pointers.current(resource);
    if (copied.isEmpty()) {
      return Optional.empty();
    }
    Result result = copy(copied.get());
    for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      Optional<PointerState> now = pointers.current(resource);
      if (now.isEmpty() || now.get().version() <= copied.get().version()) {
        return Optional.of(result);
      }
      copied = now;
      result = copy(now.get());
    }
    throw new StoreException(
        "Cannot copy the current version of "
            + resource
            + " to "
            + location.describe(location.objectKey(fixedKey))
            + ": the pointer moved on "
            + MAX_ATTEMPTS
            + " times in a row while copying (copy again when publishing slows down)",
        null,
        false);
  }

  /**
   * Copies the object {@code state} points to (its target, a key of this store's blob store) to the
   * fixed key, unless the fixed key holds {@code state}'s version or a newer one already.
   *
   * @throws StoreException if the store failed, the target is missing, or the fixed key holds
   *     something Fenceline did not copy there (an object without Fenceline's metadata, or a copy
   *     of another resource)
   */
  public Result copy(PointerState state) {
    requireNonNull(state, "state is null");
    BlobKey source = sourceOf(state);
    String sourceKey = location.objectKey(source);
    String targetKey = location.objectKey(fixedKey);
    String action =
        "copy version "
            + state.version()
            + " of "
            + state.resource()
            + " to "
            + location.describe(targetKey);
    for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      Optional<HeadObjectResponse> present = head(targetKey, action);
      if (present.isPresent()) {
        long held = heldVersion(present.get(), state.resource(), action);
        if (held > state.version()) {
          return Result.NEWER_PRESENT;
        }
        if (held == state.version()) {
          return Result.UP_TO_DATE;
        }
      }
      Map<String, String> metadata = new HashMap<>();
      metadata.put(VERSION_METADATA, Long.toString(state.version()));
      metadata.put(RESOURCE_METADATA, state.resource().value());
      String sha256 = state.pointer().attributes().get("sha256");
      if (sha256 != null) {
        metadata.put(SHA256_METADATA, sha256);
      }
      try {
        copyWithCondition(sourceKey, targetKey, metadata, present.map(HeadObjectResponse::eTag));
        return Result.COPIED;
      } catch (SdkException e) {
        if (S3Location.preconditionFailed(e)) {
          continue; // another copier changed the fixed key since the HEAD: read again
        }
        if (S3Location.notFound(e)) {
          throw new StoreException(
              "Cannot "
                  + action
                  + ": the published object "
                  + location.describe(sourceKey)
                  + " is missing (was it deleted outside Fenceline? publish again)",
              e);
        }
        throw location.failure(action, e, true);
      }
    }
    throw new StoreException(
        "Cannot "
            + action
            + ": the fixed key changed under "
            + MAX_ATTEMPTS
            + " attempts in a row (too many copiers at once; try again)",
        null,
        false);
  }

  /**
   * Streams the published object into a conditional PUT of the fixed key ({@code If-Match} with the
   * ETag read before, or {@code If-None-Match: *}): the two conditions the {@linkplain
   * ConditionalWriteProbe probe} verified. Not a server-side {@code CopyObject}: S3Mock and S3Proxy
   * ignore conditions on a copy, and S3Mock's abort of a multipart upload deletes the object at its
   * key, so neither a copy nor a conditional multipart completion could be shown to be safe here.
   * Memory stays bounded (the body is streamed; a retry of the SDK opens the source again).
   */
  private void copyWithCondition(
      String sourceKey, String targetKey, Map<String, String> metadata, Optional<String> etag) {
    S3Client client = location.client();
    HeadObjectResponse source = client.headObject(b -> b.bucket(location.bucket()).key(sourceKey));
    long size = source.contentLength();
    if (size > MAX_COPY_SIZE) {
      throw new StoreException(
          "Cannot copy "
              + location.describe(sourceKey)
              + " to "
              + location.describe(targetKey)
              + ": it has "
              + size
              + " bytes, more than the 5 GiB one conditional PUT takes (let readers resolve the"
              + " pointer instead)",
          null,
          false);
    }
    PutObjectRequest.Builder put =
        PutObjectRequest.builder()
            .bucket(location.bucket())
            .key(targetKey)
            .metadata(metadata)
            .contentLength(size);
    if (source.contentType() != null) {
      put.contentType(source.contentType());
    }
    if (etag.isPresent()) {
      put.ifMatch(etag.get());
    } else {
      put.ifNoneMatch("*");
    }
    String sourceTag = source.eTag();
    ContentStreamProvider body =
        () -> client.getObject(b -> b.bucket(location.bucket()).key(sourceKey).ifMatch(sourceTag));
    client.putObject(put.build(), RequestBody.fromContentProvider(body, size, contentType(source)));
  }

  private static String contentType(HeadObjectResponse source) {
    return source.contentType() == null ? "application/octet-stream" : source.contentType();
  }

  private BlobKey sourceOf(PointerState state) {
    try {
      return BlobKey.of(state.pointer().target());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "Cannot copy version "
              + state.version()
              + " of "
              + state.resource()
              + ": its target is not a blob key of this store ("
              + e.getMessage()
              + ")",
          e);
    }
  }

  private Optional<HeadObjectResponse> head(String key, String action) {
    try {
      return Optional.of(location.client().headObject(b -> b.bucket(location.bucket()).key(key)));
    } catch (SdkException e) {
      if (S3Location.notFound(e)) {
        return Optional.empty();
      }
      throw location.failure(action, e, false);
    }
  }

  private long heldVersion(HeadObjectResponse held, ResourceId resource, String action) {
    String version = held.metadata().get(VERSION_METADATA);
    String heldResource = held.metadata().get(RESOURCE_METADATA);
    if (version == null || heldResource == null) {
      throw new StoreException(
          "Cannot "
              + action
              + ": the fixed key holds an object Fenceline did not copy there (no "
              + VERSION_METADATA
              + " metadata); delete it or choose another fixed key",
          null,
          false);
    }
    if (!heldResource.equals(resource.value())) {
      throw new StoreException(
          "Cannot "
              + action
              + ": the fixed key holds a copy of resource "
              + heldResource
              + " (one fixed key per resource; choose another fixed key)",
          null,
          false);
    }
    try {
      return Long.parseLong(version);
    } catch (NumberFormatException e) {
      throw new StoreException(
          "Cannot "
              + action
              + ": the fixed key's "
              + VERSION_METADATA
              + " metadata \""
              + version
              + "\" is not a number (delete the fixed key to start again)",
          e,
          false);
    }
  }
}
