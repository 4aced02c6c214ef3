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
package dev.fenceline.http;

import static java.util.Objects.requireNonNull;

import dev.fenceline.spi.Destination;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.ResourceId;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The idempotency key of a business operation. It is a pure function of the destination name, the
 * resource and the operation ID, never stored or generated: every attempt, in every process, after
 * every restart and under every epoch, sends one operation under the same key, so no code path can
 * send it under a second one.
 */
public final class IdempotencyKeys {

  private IdempotencyKeys() {}

  /**
   * The key: {@code fl1-} and the first 32 bytes of SHA-256 over the length-prefixed destination,
   * resource and operation, as 64 hex digits (68 characters, safe in any header).
   */
  public static String of(String destination, ResourceId resource, OperationId operation) {
    Destination.validateName(destination);
    requireNonNull(resource, "resource is null");
    requireNonNull(operation, "operation is null");
    MessageDigest digest;
    try {
      digest = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-256", e);
    }
    for (String field :
        new String[] {
          "fenceline-idempotency-key-v1", destination, resource.value(), operation.value()
        }) {
      byte[] bytes = field.getBytes(StandardCharsets.UTF_8);
      digest.update((bytes.length + ":").getBytes(StandardCharsets.US_ASCII));
      digest.update(bytes);
    }
    return "fl1-" + HexFormat.of().formatHex(digest.digest());
  }
}
