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
package dev.fenceline.cas;

import static java.util.Objects.requireNonNull;

import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.ResourceId;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * How a compare-and-swap pointer store turns a resource ID and an operation ID into parts of the
 * names of its records (S3 keys, ZooKeeper paths). Both are part of the stored layout: changing
 * either makes existing records unreachable. For adapter implementations.
 */
public final class RecordNames {

  private RecordNames() {}

  /**
   * The resource as one name segment: {@code reports/nightly} is {@code reports!nightly}. A
   * resource ID is {@code /}-separated segments of {@code [A-Za-z0-9._-]}, so {@code !} never
   * occurs in one and the escape is one-to-one; as one segment, resource {@code a} can never be a
   * parent of a record of resource {@code a/b}.
   */
  public static String segment(ResourceId resource) {
    requireNonNull(resource, "resource is null");
    return resource.value().replace('/', '!');
  }

  /**
   * The operation ID as 64 lowercase hex digits of the SHA-256 of its UTF-8 bytes. Operation IDs
   * may hold any printable text, so they enter record names only this way.
   */
  public static String operationDigest(OperationId operation) {
    requireNonNull(operation, "operation is null");
    try {
      return HexFormat.of()
          .formatHex(
              MessageDigest.getInstance("SHA-256")
                  .digest(operation.value().getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-256", e);
    }
  }
}
