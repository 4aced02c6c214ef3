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
package dev.fenceline.tck.memory;

import static java.util.Objects.requireNonNull;

import dev.fenceline.spi.BlobInfo;
import dev.fenceline.spi.BlobKey;
import dev.fenceline.spi.BlobStore;
import dev.fenceline.spi.StoreException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.stream.Stream;

/**
 * The reference {@link BlobStore}: a sorted map of byte arrays. It holds whole blobs in memory, so
 * it is for tests with small payloads only.
 */
public final class InMemoryBlobStore implements BlobStore {

  private record Blob(byte[] bytes, BlobInfo info) {}

  private final ConcurrentSkipListMap<BlobKey, Blob> blobs = new ConcurrentSkipListMap<>();
  private final Clock clock;

  /** A store that stamps blobs with {@code clock}. */
  public InMemoryBlobStore(Clock clock) {
    this.clock = requireNonNull(clock, "clock is null");
  }

  @Override
  public BlobInfo put(BlobKey key, InputStream content) {
    requireNonNull(key, "key is null");
    requireNonNull(content, "content is null");
    byte[] bytes;
    try {
      bytes = content.readAllBytes();
    } catch (IOException e) {
      throw new StoreException(
          "Cannot put blob " + key + ": reading the payload failed: " + e.getMessage(), e);
    }
    BlobInfo info = new BlobInfo(key, bytes.length, clock.instant());
    if (blobs.putIfAbsent(key, new Blob(bytes, info)) != null) {
      throw new StoreException(
          "Cannot put blob " + key + ": a blob already exists there (use a new key)", null);
    }
    return info;
  }

  @Override
  public InputStream open(BlobKey key) {
    Blob blob = blobs.get(requireNonNull(key, "key is null"));
    if (blob == null) {
      throw new StoreException("Cannot open blob " + key + ": there is no blob at that key", null);
    }
    return new ByteArrayInputStream(blob.bytes());
  }

  @Override
  public Optional<BlobInfo> stat(BlobKey key) {
    return Optional.ofNullable(blobs.get(requireNonNull(key, "key is null"))).map(Blob::info);
  }

  @Override
  public boolean delete(BlobKey key) {
    return blobs.remove(requireNonNull(key, "key is null")) != null;
  }

  @Override
  public Stream<BlobInfo> list(BlobKey prefix) {
    String start = requireNonNull(prefix, "prefix is null").value() + "/";
    List<BlobInfo> found =
        blobs.values().stream()
            .map(Blob::info)
            .filter(info -> info.key().value().startsWith(start))
            .toList();
    return found.stream();
  }

  /** Replaces the bytes of an existing blob, as a damaged disk or an outside writer would. */
  public void corrupt(BlobKey key, byte[] bytes) {
    Blob blob = blobs.get(key);
    if (blob == null) {
      throw new UncheckedIOException(new IOException("no blob at " + key));
    }
    blobs.put(key, new Blob(bytes, new BlobInfo(key, bytes.length, clock.instant())));
  }
}
