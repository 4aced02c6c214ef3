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
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.PointerStore;
import dev.fenceline.spi.ResourceId;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * The layout of a {@link StagedDestination}'s staging area, {@code
 * <prefix>/.fenceline/staging/<store-id>.<name>/<resource>/<epoch>-<operation>-<random>}: the
 * writer stages under it, the readers accept only targets inside a resource's part of it, and the
 * sweep lists it. Bound to the pointer store's identity ({@link PointerStore#storeId()} and {@link
 * PointerStore#name()}), so two pointer stores that share a blob prefix never see each other's
 * blobs.
 */
final class StagingArea {

  private static final SecureRandom RANDOM = new SecureRandom();

  private final BlobKey root;

  /** The area of {@code pointers} below {@code prefix} (null: at the top of the blob store). */
  StagingArea(BlobKey prefix, PointerStore pointers) {
    String area = ".fenceline/staging/" + pointers.storeId() + "." + pointers.name();
    this.root = prefix == null ? BlobKey.of(area) : prefix.resolve(area);
  }

  /** The whole staging area, {@code <prefix>/.fenceline/staging/<store-id>.<name>}. */
  BlobKey root() {
    return root;
  }

  /** The part of the area that holds {@code resource}'s blobs. */
  BlobKey of(ResourceId resource) {
    return root.resolve(resource.value());
  }

  /**
   * A new key for one attempt to stage the token's payload, that no other write can collide with:
   * {@code <epoch>-<operation>-<random>} in the resource's part of the area.
   */
  BlobKey newKey(FencingToken token, OperationId operation) {
    byte[] random = new byte[12];
    RANDOM.nextBytes(random);
    return of(token.resource())
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
}
