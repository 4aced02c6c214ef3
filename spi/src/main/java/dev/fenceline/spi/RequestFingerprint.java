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

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * What a request asked for, recorded with its operation so that a retry with a different request is
 * refused ({@link OperationConflictException}) instead of answered with the other request's
 * receipt. A retry of the same operation must carry the same fingerprint.
 *
 * @param value {@code sha256:} followed by 64 lowercase hex digits
 */
public record RequestFingerprint(String value) {

  private static final Pattern FORMAT = Pattern.compile("sha256:[0-9a-f]{64}");

  /**
   * Validates the value.
   *
   * @param value the value
   * @throws IllegalArgumentException if it is not {@code sha256:} and 64 lowercase hex digits
   */
  public RequestFingerprint {
    requireNonNull(value, "fingerprint is null");
    if (!FORMAT.matcher(value).matches()) {
      throw new IllegalArgumentException(
          "Cannot use request fingerprint "
              + Text.quoteForMessage(value)
              + ": it must be sha256: and 64 lowercase hex digits (use RequestFingerprint.sha256)");
    }
  }

  /**
   * {@return the fingerprint of {@code bytes}: their SHA-256}
   *
   * @param bytes the bytes
   */
  public static RequestFingerprint sha256(byte[] bytes) {
    requireNonNull(bytes, "bytes is null");
    return new RequestFingerprint("sha256:" + HexFormat.of().formatHex(digest().digest(bytes)));
  }

  /**
   * {@return the fingerprint of {@code text}: the SHA-256 of its UTF-8 bytes}
   *
   * @param text the text
   */
  public static RequestFingerprint sha256(String text) {
    requireNonNull(text, "text is null");
    return sha256(text.getBytes(StandardCharsets.UTF_8));
  }

  /**
   * {@return the fingerprint of a payload whose SHA-256 is already known, as 64 hex digits}
   *
   * @param hex the SHA-256, as 64 hex digits
   */
  public static RequestFingerprint ofSha256Hex(String hex) {
    requireNonNull(hex, "hex is null");
    return new RequestFingerprint("sha256:" + hex.toLowerCase(java.util.Locale.ROOT));
  }

  /**
   * {@return the fingerprint of a pointer swap: the SHA-256 of its target and attributes, each
   * field length prefixed so that no two different pointers share an encoding}
   *
   * @param pointer the pointer
   */
  public static RequestFingerprint of(Pointer pointer) {
    requireNonNull(pointer, "pointer is null");
    MessageDigest digest = digest();
    update(digest, pointer.target());
    for (Map.Entry<String, String> attribute : new TreeMap<>(pointer.attributes()).entrySet()) {
      update(digest, attribute.getKey());
      update(digest, attribute.getValue());
    }
    return new RequestFingerprint("sha256:" + HexFormat.of().formatHex(digest.digest()));
  }

  private static void update(MessageDigest digest, String field) {
    byte[] bytes = field.getBytes(StandardCharsets.UTF_8);
    digest.update((bytes.length + ":").getBytes(StandardCharsets.US_ASCII));
    digest.update(bytes);
  }

  private static MessageDigest digest() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-256", e);
    }
  }

  @Override
  public String toString() {
    return value;
  }
}
