package dev.fenceline.zookeeper;

import dev.fenceline.spi.StoreException;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/** The JSON the nodes hold: one format number, fields read strictly. */
final class Json {

  /** The only node format this version reads and writes. */
  static final int FORMAT = 1;

  static final JsonMapper MAPPER = JsonMapper.builder().build();

  private Json() {}

  static ObjectNode object() {
    return MAPPER.createObjectNode().put("format", FORMAT);
  }

  static byte[] bytes(ObjectNode node) {
    return MAPPER.writeValueAsBytes(node);
  }

  /**
   * The JSON object stored at {@code path} of {@code what}.
   *
   * @throws StoreException if it is not a JSON object of {@link #FORMAT}: a node this version
   *     cannot read is never taken as an empty state
   */
  static JsonNode root(byte[] data, String what, String path) {
    JsonNode root;
    try {
      root = MAPPER.readTree(data);
    } catch (JacksonException e) {
      throw unreadable(what, path, "it is not valid JSON (" + e.getOriginalMessage() + ")", e);
    }
    if (root == null || !root.isObject()) {
      throw unreadable(what, path, "it is not a JSON object", null);
    }
    JsonNode format = root.get("format");
    if (format == null
        || !format.isIntegralNumber()
        || !format.canConvertToLong()
        || format.asLong() != FORMAT) {
      throw unreadable(
          what,
          path,
          "its format "
              + (format == null ? "is missing" : format + " is not supported")
              + ", expected "
              + FORMAT,
          null);
    }
    return root;
  }

  static StoreException unreadable(String what, String path, String reason, Throwable cause) {
    return new StoreException(
        "Cannot read "
            + what
            + " "
            + path
            + ": "
            + reason
            + " (it was written by another Fenceline version or changed by hand; restore it from a"
            + " backup, never delete it: that would reset the fence)",
        cause,
        false);
  }

  static JsonNode field(JsonNode node, String name) {
    JsonNode value = node.get(name);
    if (value == null) {
      throw new IllegalArgumentException("field \"" + name + "\" is missing");
    }
    return value;
  }

  static long longField(JsonNode node, String name) {
    JsonNode value = field(node, name);
    if (!value.isIntegralNumber() || !value.canConvertToLong()) {
      throw new IllegalArgumentException("field \"" + name + "\" is not a whole number");
    }
    return value.longValue();
  }

  static String stringField(JsonNode node, String name) {
    JsonNode value = field(node, name);
    if (!value.isString()) {
      throw new IllegalArgumentException("field \"" + name + "\" is not text");
    }
    return value.stringValue();
  }

  /** A text field that may be null. */
  static String nullableString(JsonNode node, String name) {
    JsonNode value = field(node, name);
    return value.isNull() ? null : stringField(node, name);
  }
}
