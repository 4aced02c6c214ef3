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

/**
 * How Fenceline classifies and shows user-supplied text: which characters no store keeps as written
 * (see {@link StorableText}), what counts as blank, and how a value is quoted in an error message.
 */
final class Text {

  private static final int MAX_SHOWN = 80;

  private Text() {}

  /**
   * Quotes {@code value} for an error message. Quotes and backslashes are escaped, and every
   * character a reader could not see or could mistake for another is shown as a {@code \}{@code
   * uXXXX} escape: control and format characters (including bidirectional overrides), line and
   * paragraph separators, every space but U+0020, unpaired surrogates, private-use and unassigned
   * code points. So a message cannot be split, reordered or forged by the value it shows, and two
   * values that look alike are told apart. Values longer than 80 characters are cut, never inside a
   * surrogate pair.
   */
  static String quoteForMessage(String value) {
    StringBuilder shown = new StringBuilder("\"");
    int end = Math.min(value.length(), MAX_SHOWN);
    if (end < value.length()
        && Character.isHighSurrogate(value.charAt(end - 1))
        && Character.isLowSurrogate(value.charAt(end))) {
      end--;
    }
    int i = 0;
    while (i < end) {
      int codePoint = value.codePointAt(i); // an unpaired surrogate comes back as itself
      int width = Character.charCount(codePoint);
      if (codePoint == '"' || codePoint == '\\') {
        shown.append('\\').append((char) codePoint);
      } else if (isVisible(codePoint)) {
        shown.appendCodePoint(codePoint);
      } else {
        for (int unit = i; unit < i + width; unit++) {
          shown.append(escape(value.charAt(unit)));
        }
      }
      i += width;
    }
    if (end < value.length()) {
      shown.append("...");
    }
    return shown.append('"').toString();
  }

  /** {@code c} as {@code \}{@code uXXXX}, lower-case hex. */
  static String escape(char c) {
    return String.format("\\u%04x", (int) c);
  }

  private static boolean isVisible(int codePoint) {
    switch (Character.getType(codePoint)) {
      case Character.CONTROL:
      case Character.FORMAT:
      case Character.SURROGATE:
      case Character.PRIVATE_USE:
      case Character.UNASSIGNED:
      case Character.LINE_SEPARATOR:
      case Character.PARAGRAPH_SEPARATOR:
        return false;
      case Character.SPACE_SEPARATOR:
        return codePoint == ' ';
      default:
        return true;
    }
  }

  /**
   * The index of the first character no store keeps as written, or -1: an unpaired (high or low)
   * surrogate, which JDBC drivers encode as {@code ?}, or NUL, which PostgreSQL refuses.
   */
  static int firstUnstorable(String value) {
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c == '\0' || Character.isLowSurrogate(c)) {
        return i;
      }
      if (Character.isHighSurrogate(c)) {
        if (i + 1 == value.length() || !Character.isLowSurrogate(value.charAt(i + 1))) {
          return i;
        }
        i++; // a well-formed pair
      }
    }
    return -1;
  }

  /** The index of the first control character (ISO control, line or paragraph separator), or -1. */
  static int firstControl(String value) {
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (Character.isISOControl(c) || c == '\u2028' || c == '\u2029') {
        return i;
      }
    }
    return -1;
  }

  /**
   * True if {@code value} is empty or has only whitespace and invisible characters: what {@link
   * Character#isWhitespace} or {@link Character#isSpaceChar} accepts (so also U+00A0, U+2007,
   * U+3000, which {@link String#isBlank} lets through) and format characters such as U+200B or
   * U+FEFF.
   */
  static boolean isBlank(String value) {
    return value
        .codePoints()
        .allMatch(
            c ->
                Character.isWhitespace(c)
                    || Character.isSpaceChar(c)
                    || Character.getType(c) == Character.FORMAT);
  }
}
