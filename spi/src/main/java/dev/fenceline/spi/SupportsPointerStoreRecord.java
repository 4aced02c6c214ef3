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

/**
 * A {@link BlobStore} that records, durably and for every process that uses it, which pointer store
 * publishes each staged destination whose payloads it holds, and refuses another one.
 *
 * <p>Why: two processes that stage one destination's payloads in this blob store but swap its
 * pointer in different pointer stores (one in the object store's own, one in a database, because a
 * check such as S3's conditional-write probe came out differently) fence nothing against each
 * other. A newer owner registers its epoch in one store only, and a stale writer of the other is
 * accepted by a store that never saw it; receipts split too, so a retry through the other store
 * applies again. The first pointer store recorded for a destination name stays its pointer store
 * until an operator removes the record.
 */
public interface SupportsPointerStoreRecord {

  /**
   * Records that the destination named {@link PointerStore#name()} publishes through {@code
   * pointers} (identified by {@link PointerStore#storeId()}), or checks that it is the one
   * recorded. Call it before the first write through {@code pointers}, in every process; a process
   * that gets an exception must not publish through {@code pointers}.
   *
   * <p>The record is created at most once per name: if two processes record different pointer
   * stores at once, one wins and the other is refused (as far as the blob store's create-only
   * writes are atomic; the implementation says what it relies on).
   *
   * @param pointers the pointers
   * @throws ConfigurationException if another pointer store is recorded for that name (the message
   *     names both and where the record is)
   * @throws StoreException if the record cannot be read or written
   */
  void recordPointerStore(PointerStore pointers);
}
