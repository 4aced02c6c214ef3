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

import java.io.InputStream;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * A plain store that cannot check epochs: files (Commons VFS) or object stores without conditional
 * writes. Fenceline never publishes through a blob store alone; it stages payloads under keys no
 * other write can collide with and lets a {@link PointerStore} make them visible (R6).
 *
 * <p>Payloads are streamed: implementations never hold a whole blob in memory. Implementations are
 * thread-safe.
 */
public interface BlobStore {

  /**
   * Streams {@code content} to a new blob at {@code key}. The blob becomes visible under its key
   * only once it is complete; if this method throws, no complete blob is left at {@code key}.
   *
   * @param key the blob's key
   * @param content the content to store
   * @return facts about the stored blob
   * @throws StoreException if a blob already exists at {@code key}, or the store failed (the
   *     message names the key and the cause: permissions, space, a missing directory)
   */
  BlobInfo put(BlobKey key, InputStream content);

  /**
   * Opens the blob at {@code key} for streaming. The caller closes the stream.
   *
   * @param key the blob's key
   * @return the blob's content, to be closed by the caller
   * @throws StoreException if there is no blob at {@code key} or the store failed
   */
  InputStream open(BlobKey key);

  /**
   * Reads facts about the blob at {@code key}.
   *
   * @param key the blob's key
   * @return the facts, or empty if there is no blob at {@code key}
   * @throws StoreException if the store failed
   */
  Optional<BlobInfo> stat(BlobKey key);

  /**
   * Deletes the blob at {@code key}.
   *
   * @param key the blob's key
   * @return true if a blob was deleted, false if there was none
   * @throws StoreException if the store failed
   */
  boolean delete(BlobKey key);

  /**
   * Lists the blobs whose key starts with {@code prefix/}. The caller closes the stream.
   *
   * @param prefix the key prefix
   * @return the blobs under {@code prefix}, to be closed by the caller
   * @throws StoreException if the store failed
   */
  Stream<BlobInfo> list(BlobKey prefix);
}
