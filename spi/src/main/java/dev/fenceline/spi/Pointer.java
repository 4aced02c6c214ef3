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

import java.util.Map;

/**
 * The target a publish pointer names: a staged blob key, or the published value itself for
 * destinations that publish a small named value directly.
 *
 * @param target what readers resolve: 1 to {@value #MAX_TARGET_LENGTH} characters of storable text
 *     (well-formed UTF-16 without NUL, see {@link StorableText#require}); other control characters
 *     and whitespace are kept as written
 * @param attributes facts about the target (size, checksum, ...), copied into the receipt; same
 *     rules as {@link Receipt#attributes()} (values are storable text), and {@code target} is
 *     reserved
 */
public record Pointer(String target, Map<String, String> attributes) {

  /** Longest accepted target, in characters. */
  public static final int MAX_TARGET_LENGTH = 65_536;

  /**
   * Validates the pointer and copies the attributes.
   *
   * @param target the key the pointer points to
   * @param attributes the attributes
   * @throws IllegalArgumentException if the target is empty, too long or not storable text, an
   *     attribute value is not storable text, or an attribute is named {@code target}
   */
  public Pointer {
    requireNonNull(target, "target is null");
    requireNonNull(attributes, "attributes is null");
    if (target.isEmpty()) {
      throw new IllegalArgumentException(
          "Cannot use pointer target \"\": it is empty (name a staged blob key or publish a value"
              + " of 1 to "
              + MAX_TARGET_LENGTH
              + " characters)");
    }
    if (target.length() > MAX_TARGET_LENGTH) {
      throw new IllegalArgumentException(
          "Cannot use pointer target "
              + Text.quoteForMessage(target)
              + ": it has "
              + target.length()
              + " characters, more than "
              + MAX_TARGET_LENGTH
              + " (publish large payloads through a staged blob store)");
    }
    StorableText.require("pointer target", target);
    attributes.forEach(
        (name, value) ->
            StorableText.require(
                "value of pointer attribute " + Text.quoteForMessage(String.valueOf(name)), value));
    if (attributes.containsKey(PointerStore.TARGET_ATTRIBUTE)) {
      throw new IllegalArgumentException(
          "Cannot publish pointer to "
              + Text.quoteForMessage(target)
              + ": attribute name \"target\" is reserved for the pointer target (rename it)");
    }
    attributes = Map.copyOf(attributes);
  }

  /**
   * {@return the attributes of the receipt of a swap to this pointer: its attributes plus {@link
   * PointerStore#TARGET_ATTRIBUTE}, the target}
   */
  public Map<String, String> receiptAttributes() {
    Map<String, String> withTarget = new java.util.HashMap<>(attributes);
    withTarget.put(PointerStore.TARGET_ATTRIBUTE, target);
    return withTarget;
  }

  /**
   * {@return a pointer with no attributes}
   *
   * @param target the key the pointer points to
   */
  public static Pointer to(String target) {
    return new Pointer(target, Map.of());
  }
}
