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
package dev.fenceline.spi;

import static java.util.Objects.requireNonNull;

import java.time.Instant;

/**
 * Facts about a stored blob.
 *
 * @param key the key
 * @param size the size in bytes
 * @param lastModified when the store last modified it, by the store's clock
 */
public record BlobInfo(BlobKey key, long size, Instant lastModified) {

  /**
   * Validates the facts.
   *
   * @param key the blob's key
   * @param size the size in bytes
   * @param lastModified when the blob was last modified
   */
  public BlobInfo {
    requireNonNull(key, "key is null");
    requireNonNull(lastModified, "lastModified is null");
    if (size < 0) {
      throw new IllegalArgumentException("blob size " + size + " of " + key + " is negative");
    }
  }
}
