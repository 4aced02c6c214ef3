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

import dev.fenceline.spi.StoreException;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Strict reading of the small JSON documents a pointer store keeps (control documents, entries,
 * lease nodes): one format number, every field required and typed, and a document that cannot be
 * read is an error naming it, never an empty state. For adapter implementations.
 */
public final class StrictJson {

  /** The only document format this version reads and writes. */
  public static final int FORMAT = 1;

  static final JsonMapper MAPPER = JsonMapper.builder().build();

  private StrictJson() {}

  /**
   * Where a document lives, for messages.
   *
   * @param what what it is, such as {@code pointer object} or {@code control node}
   * @param shown where it is, such as {@code s3://bucket/key} or a ZooKeeper path
   * @param restore how to restore it, such as {@code restore it from a backup}
   */
  public record Where(String what, String shown, String restore) {}

  /** A new object holding {@code "format": FORMAT}. */
  public static ObjectNode object() {
    return MAPPER.createObjectNode().put("format", FORMAT);
  }

  /** The document's bytes. */
  public static byte[] bytes(ObjectNode node) {
    return MAPPER.writeValueAsBytes(node);
  }

  /**
   * The JSON object of format {@link #FORMAT} in {@code data}.
   *
   * @throws StoreException if it is not a JSON object of that format
   */
  public static JsonNode root(byte[] data, Where where) {
    JsonNode root;
    try {
      root = MAPPER.readTree(data);
    } catch (JacksonException e) {
      throw unreadable(where, "it is not valid JSON (" + e.getOriginalMessage() + ")", e);
    }
    if (root == null || !root.isObject()) {
      throw unreadable(where, "it is not a JSON object", null);
    }
    JsonNode format = root.get("format");
    if (format == null
        || !format.isIntegralNumber()
        || !format.canConvertToLong()
        || format.asLong() != FORMAT) {
      throw unreadable(
          where,
          "its format "
              + (format == null ? "is missing" : format + " is not supported")
              + ", expected "
              + FORMAT,
          null);
    }
    return root;
  }

  /**
   * The error for a document that cannot be read: {@code Cannot read <what> <shown>: <reason> (it
   * was written by another Fenceline version or changed by hand; <restore>, never delete it: that
   * would reset the fence)}; its outcome is known (nothing was changed).
   */
  public static StoreException unreadable(Where where, String reason, Throwable cause) {
    return new StoreException(
        "Cannot read "
            + where.what()
            + " "
            + where.shown()
            + ": "
            + reason
            + " (it was written by another Fenceline version or changed by hand; "
            + where.restore()
            + ", never delete it: that would reset the fence)",
        cause,
        false);
  }

  /**
   * The field {@code name} of {@code node}.
   *
   * @throws IllegalArgumentException if it is missing
   */
  public static JsonNode field(JsonNode node, String name) {
    JsonNode value = node.get(name);
    if (value == null) {
      throw new IllegalArgumentException("field \"" + name + "\" is missing");
    }
    return value;
  }

  /**
   * The whole-number field {@code name} of {@code node}.
   *
   * @throws IllegalArgumentException if it is missing or not a whole number that fits a long
   */
  public static long longField(JsonNode node, String name) {
    JsonNode value = field(node, name);
    if (!value.isIntegralNumber() || !value.canConvertToLong()) {
      throw new IllegalArgumentException("field \"" + name + "\" is not a whole number");
    }
    return value.longValue();
  }

  /**
   * The text field {@code name} of {@code node}.
   *
   * @throws IllegalArgumentException if it is missing or not text
   */
  public static String stringField(JsonNode node, String name) {
    JsonNode value = field(node, name);
    if (!value.isString()) {
      throw new IllegalArgumentException("field \"" + name + "\" is not text");
    }
    return value.stringValue();
  }

  /**
   * The text field {@code name} of {@code node}, which must be present and may be null.
   *
   * @throws IllegalArgumentException if it is missing or neither null nor text
   */
  public static String nullableString(JsonNode node, String name) {
    JsonNode value = field(node, name);
    return value.isNull() ? null : stringField(node, name);
  }
}
