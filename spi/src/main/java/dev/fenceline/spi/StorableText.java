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

/**
 * The rules for text that Fenceline stores, so that every store reads back exactly what was written
 * and two different values never become one. Every ID and stored value in the SPI is checked here
 * ({@link OperationId}, holder names, {@link Pointer} targets and attribute values, {@link Receipt}
 * attribute values); new IDs should be too.
 *
 * <p>Storable text is well-formed UTF-16 without NUL. An unpaired surrogate has no UTF-8 encoding:
 * the SQLite and PostgreSQL drivers store it as {@code ?}, so two operation IDs that differ only in
 * an unpaired surrogate would be the same operation. PostgreSQL refuses NUL in text, so a value
 * with NUL would work on SQLite and fail on PostgreSQL.
 *
 * <p>An identifier is storable text that is also not blank (empty, or only Unicode whitespace such
 * as U+00A0 or U+3000, or invisible format characters such as U+200B), not longer than its limit
 * and free of control characters. {@link ResourceId} and {@link BlobKey} are stricter still (ASCII
 * only).
 *
 * <p>Every refusal is an {@link IllegalArgumentException} whose message names the kind of value,
 * shows the value with invisible characters escaped, says which rule it breaks and how to fix it.
 */
public final class StorableText {

  private StorableText() {}

  /**
   * Checks that {@code value} is storable text: well-formed UTF-16 (no unpaired surrogate) and no
   * NUL. Other control characters are allowed: use this for values, not identifiers.
   *
   * @param kind what the value is, for the message, such as {@code "pointer target"}
   * @param value the value
   * @return {@code value}
   * @throws NullPointerException if {@code value} is null
   * @throws IllegalArgumentException if {@code value} is not storable
   */
  public static String require(String kind, String value) {
    requireNonNull(kind, "kind is null");
    requireNonNull(value, () -> kind + " is null");
    int unstorable = Text.firstUnstorable(value);
    if (unstorable < 0) {
      return value;
    }
    char c = value.charAt(unstorable);
    if (c == '\0') {
      throw refused(
          kind,
          value,
          "it has a NUL character (\\u0000) at index "
              + unstorable
              + ", which PostgreSQL cannot"
              + " store",
          "remove it; encode binary data, e.g. as Base64");
    }
    throw refused(
        kind,
        value,
        "it has an unpaired surrogate "
            + Text.escape(c)
            + " at index "
            + unstorable
            + " (malformed UTF-16), which databases store as '?' so different values would become"
            + " one",
        "pass well-formed Unicode text; a string cut inside a surrogate pair is the usual cause");
  }

  /**
   * Checks that {@code value} is a usable identifier: storable text (see {@link #require}), not
   * blank, at most {@code maxLength} characters and without control characters (ISO controls, line
   * and paragraph separators).
   *
   * @param kind what the identifier is, for the message, such as {@code "operation ID"}
   * @param value the identifier
   * @param maxLength the longest accepted identifier, in UTF-16 characters ({@link
   *     String#length()})
   * @param hint how to choose a good identifier, for the message, such as {@code "derive it from
   *     the business input, e.g. report-2026-10-27"}
   * @return {@code value}
   * @throws NullPointerException if {@code value} is null
   * @throws IllegalArgumentException if {@code value} breaks one of the rules; the message names
   *     the rule
   */
  public static String requireIdentifier(String kind, String value, int maxLength, String hint) {
    requireNonNull(kind, "kind is null");
    requireNonNull(hint, "hint is null");
    requireNonNull(value, () -> kind + " is null");
    if (Text.isBlank(value)) {
      throw refused(
          kind, value, "it is blank (empty, or only whitespace or invisible characters)", hint);
    }
    if (value.length() > maxLength) {
      throw refused(
          kind,
          value,
          "it has " + value.length() + " characters, more than " + maxLength,
          "shorten it; " + hint);
    }
    require(kind, value);
    int control = Text.firstControl(value);
    if (control >= 0) {
      throw refused(
          kind,
          value,
          "it has the control character "
              + Text.escape(value.charAt(control))
              + " at index "
              + control,
          "use printable characters only; " + hint);
    }
    return value;
  }

  private static IllegalArgumentException refused(
      String kind, String value, String reason, String hint) {
    return new IllegalArgumentException(
        "Cannot use "
            + kind
            + " "
            + Text.quoteForMessage(value)
            + ": "
            + reason
            + " ("
            + hint
            + ")");
  }
}
