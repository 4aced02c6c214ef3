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

import dev.fenceline.spi.ConfigurationException;
import java.util.LinkedHashMap;
import java.util.Map;
import tools.jackson.core.JsonPointer;
import tools.jackson.databind.JsonNode;

/**
 * Turns an API's answer into receipt attributes: the configured fields, each selected by a JSON
 * pointer, written as text (strings as they are, numbers and booleans as their JSON text, objects
 * and arrays as compact JSON). A field that is missing or null is left out; a value that cannot be
 * stored (NUL, broken surrogates) is left out and named in {@code response-error}.
 */
final class ReceiptFields {

  /** Attribute names the destination sets itself. */
  static final java.util.Set<String> RESERVED =
      java.util.Set.of("http-status", "idempotency-key", "response-error", "found-by");

  private final Map<String, JsonPointer> fields;

  ReceiptFields(Map<String, JsonPointer> fields) {
    this.fields = Map.copyOf(fields);
  }

  /**
   * Checks a receipt field: its attribute name and its JSON pointer.
   *
   * @throws ConfigurationException about {@code receipt-fields}
   */
  static JsonPointer check(String attribute, String pointer) {
    requireNonNull(attribute, "attribute is null");
    requireNonNull(pointer, "pointer is null");
    if (!attribute.matches("[a-z0-9][a-z0-9.-]{0,63}") || RESERVED.contains(attribute)) {
      throw ConfigurationException.about(
          HttpConfigKeys.RECEIPT_FIELDS,
          "Cannot use receipt field "
              + ApiRequest.quote(attribute)
              + ": names are 1 to 64 characters from [a-z0-9.-] and not one of "
              + new java.util.TreeSet<>(RESERVED)
              + " (e.g. payment-id)");
    }
    return pointer(HttpConfigKeys.RECEIPT_FIELDS, "receipt field " + attribute, pointer);
  }

  /**
   * Compiles a JSON pointer into an answer that a setting gives.
   *
   * @param key the YAML key of the setting
   * @param what the setting, for the message
   * @throws ConfigurationException about {@code key} if it is not a JSON pointer
   */
  static JsonPointer pointer(String key, String what, String pointer) {
    try {
      return JsonPointer.compile(pointer);
    } catch (IllegalArgumentException e) {
      throw new ConfigurationException(
          key,
          "Cannot use JSON pointer "
              + ApiRequest.quote(pointer)
              + " for "
              + what
              + ": "
              + e.getMessage()
              + " (a pointer starts with /, e.g. /id or /data/0/id)",
          e);
    }
  }

  /** True if no field is configured. */
  boolean isEmpty() {
    return fields.isEmpty();
  }

  /** Adds the configured fields of {@code document} (may be null) to {@code attributes}. */
  void addTo(JsonNode document, Map<String, String> attributes) {
    Map<String, String> unstorable = new LinkedHashMap<>();
    if (document == null) {
      return;
    }
    new java.util.TreeMap<>(fields)
        .forEach(
            (name, pointer) -> {
              JsonNode value = document.at(pointer);
              if (value == null || value.isMissingNode() || value.isNull()) {
                return;
              }
              String text = value.isValueNode() ? value.asString() : value.toString();
              try {
                dev.fenceline.spi.StorableText.require("receipt field " + name, text);
                attributes.put(name, text);
              } catch (IllegalArgumentException e) {
                unstorable.put(name, pointer.toString());
              }
            });
    if (!unstorable.isEmpty()) {
      attributes.merge(
          "response-error",
          "fields " + unstorable.keySet() + " hold text that cannot be stored",
          (a, b) -> a + "; " + b);
    }
  }
}
