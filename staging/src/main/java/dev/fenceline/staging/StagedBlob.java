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

import dev.fenceline.spi.BlobInfo;
import dev.fenceline.spi.BlobKey;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.ResourceId;
import java.util.Optional;

/** A blob in the staging area, with the resource and epoch its key encodes. */
record StagedBlob(ResourceId resource, Epoch epoch, BlobInfo info) {

  /**
   * Parses {@code <root>/<resource>/<epoch>-<operation>-<random>}; anything else in the staging
   * area is not Fenceline's and is left alone.
   */
  static Optional<StagedBlob> parse(BlobKey root, BlobInfo info) {
    String key = info.key().value();
    String prefix = root.value() + "/";
    if (!key.startsWith(prefix)) {
      return Optional.empty();
    }
    String rest = key.substring(prefix.length());
    int slash = rest.lastIndexOf('/');
    if (slash <= 0) {
      return Optional.empty();
    }
    String name = rest.substring(slash + 1);
    int dash = name.indexOf('-');
    if (dash <= 0) {
      return Optional.empty();
    }
    try {
      return Optional.of(
          new StagedBlob(
              ResourceId.of(rest.substring(0, slash)),
              Epoch.of(Long.parseLong(name.substring(0, dash))),
              info));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }
}
