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

import dev.fenceline.spi.BlobKey;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.ResourceId;

/**
 * The blob a resource's publish pointer names, with the size and checksum recorded when it was
 * published. Readers compare the blob against these.
 *
 * @param resource the resource
 * @param key the staged blob's key
 * @param size its size in bytes
 * @param sha256 its SHA-256, lowercase hex
 * @param epoch the epoch that published it
 * @param operation the operation that published it
 * @param version the pointer version (grows by one per publish)
 */
public record PublishedBlob(
    ResourceId resource,
    BlobKey key,
    long size,
    String sha256,
    Epoch epoch,
    OperationId operation,
    long version) {

  /** Validates the record. */
  public PublishedBlob {
    requireNonNull(resource, "resource is null");
    requireNonNull(key, "key is null");
    requireNonNull(sha256, "sha256 is null");
    requireNonNull(epoch, "epoch is null");
    requireNonNull(operation, "operation is null");
  }
}
