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

import dev.fenceline.spi.BlobKey;
import dev.fenceline.spi.PointerState;
import dev.fenceline.spi.PointerStore;
import dev.fenceline.spi.Receipt;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StoreException;
import java.util.Map;
import java.util.Optional;

/**
 * Reads a publish pointer or a receipt as a staged blob of its resource, and refuses what a {@link
 * StagedDestination} with this staging area did not write for that resource: a target outside the
 * resource's part of the area would hand out a blob the resource never published, and a pointer
 * without a valid size and SHA-256 cannot be verified.
 */
final class StagedPointers {

  private final StagingArea area;

  StagedPointers(StagingArea area) {
    this.area = area;
  }

  /**
   * The blob {@code state} names, with the size and SHA-256 it was published with. The blob itself
   * is not looked at.
   *
   * @throws VersionUnavailableException if the pointer has no size and SHA-256, a size that is not
   *     a byte count, or a target that is no key of this resource's staging area
   */
  PublishedBlob published(PointerState state) {
    Map<String, String> attributes = state.pointer().attributes();
    String size = attributes.get(StagedDestination.SIZE_ATTRIBUTE);
    String sha256 = attributes.get(StagedDestination.SHA256_ATTRIBUTE);
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
   * The SHA-256 a receipt records, if it is a staged blob of this resource (written by {@link
   * StagedDestination#write} or {@link StagedDestination#rollback}, whose request fingerprint is
   * that SHA-256); empty otherwise.
   */
  Optional<String> stagedSha256(ResourceId resource, Receipt receipt) {
    Map<String, String> attributes = receipt.attributes();
    String target = attributes.get(PointerStore.TARGET_ATTRIBUTE);
    String sha256 = attributes.get(StagedDestination.SHA256_ATTRIBUTE);
    String prefix = area.of(resource).value() + "/";
    if (target == null
        || sha256 == null
        || attributes.get(StagedDestination.SIZE_ATTRIBUTE) == null
        || !target.startsWith(prefix)
        || target.substring(prefix.length()).contains("/")
        || !sha256.matches("[0-9a-f]{64}")) {
      return Optional.empty();
    }
    return Optional.of(sha256);
  }

  /**
   * The pointer's target as a key in this resource's staging area, {@code
   * <prefix>/.fenceline/staging/<store-id>.<name>/<resource>/<name>}. A target elsewhere (not a
   * blob key, another resource's area, outside the staging area) was not written by this
   * destination for this resource: serving it would hand out a blob this resource never published.
   */
  private BlobKey publishedKey(PointerState state) {
    String target = state.pointer().target();
    String prefix = area.of(state.resource()).value() + "/";
    BlobKey key;
    try {
      key = BlobKey.of(target);
    } catch (IllegalArgumentException e) {
      throw foreignTarget(state, "is not a valid blob key", e);
    }
    String name = target.startsWith(prefix) ? target.substring(prefix.length()) : "";
    if (name.isEmpty() || name.contains("/")) {
      throw foreignTarget(state, "lies outside this resource's staging area " + prefix, null);
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
}
