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

import dev.fenceline.cas.RecordNames;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.ResourceId;

/**
 * Where an {@link S3PointerStore} keeps its objects, relative to the store's prefix ({@code <r>} is
 * the resource ID with every {@code /} replaced by {@code !}):
 *
 * <ul>
 *   <li>{@code .fenceline/pointers/store.json}: the store's identity, created once;
 *   <li>{@code .fenceline/pointers/control/<r>.json}: per resource, the registered epoch, its
 *       issuer and every destination name's current pointer (the only object ever overwritten,
 *       always conditionally);
 *   <li>{@code .fenceline/pointers/operations/<name>/<r>/<sha256 of the operation>.json}: the
 *       receipt of an operation that is no longer the current one (create-only, immutable);
 *   <li>{@code .fenceline/pointers/versions/<name>/<r>/<20-digit version>.json}: a pointer version
 *       that is no longer the current one (create-only, immutable).
 * </ul>
 *
 * <p>Why the resource is escaped into one segment: a resource ID is {@code /}-separated segments of
 * {@code [A-Za-z0-9._-]}, so resource {@code a} is a key prefix of resource {@code a/b}. Keeping
 * the resource's {@code /} would let one resource's object share its key with another resource's
 * "directory" ({@code versions/tck/k/00000000000000000001.json} is an object of {@code k} and a
 * directory of {@code k/00000000000000000001.json}), which S3 allows but filesystem-backed
 * endpoints refuse (S3Proxy's file stores answer 500, MinIO refuses parent paths that are objects).
 * {@code !} never occurs in a resource ID, so the escape is one-to-one and {@code !} is one of S3's
 * safe key characters. With the resource as one segment every area has a fixed depth: no object key
 * is a prefix directory of another, and (area, name, resource, entry) maps to exactly one key.
 * Operation IDs may hold any printable text, so they enter keys as their SHA-256 only.
 */
final class PointerKeys {

  /** Everything of the pointer stores lives under this area of the prefix. */
  static final String AREA = ".fenceline/pointers";

  private PointerKeys() {}

  /** The store's identity object. */
  static String store() {
    return AREA + "/store.json";
  }

  /** The control object of {@code resource}, shared by every destination name. */
  static String control(ResourceId resource) {
    return AREA + "/control/" + RecordNames.segment(resource) + ".json";
  }

  /** The immutable receipt object of {@code operation} at destination {@code name}. */
  static String operation(String name, ResourceId resource, OperationId operation) {
    return AREA
        + "/operations/"
        + name
        + "/"
        + RecordNames.segment(resource)
        + "/"
        + RecordNames.operationDigest(operation)
        + ".json";
  }

  /** The immutable object of pointer version {@code version} at destination {@code name}. */
  static String version(String name, ResourceId resource, long version) {
    return AREA
        + "/versions/"
        + name
        + "/"
        + RecordNames.segment(resource)
        + "/"
        + "%020d".formatted(version)
        + ".json";
  }
}
