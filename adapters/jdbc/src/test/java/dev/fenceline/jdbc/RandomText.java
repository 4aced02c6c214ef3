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
package dev.fenceline.jdbc;

import java.util.SplittableRandom;
import java.util.stream.IntStream;

/**
 * Generates strings that probe how text is stored: plain ASCII, letters from other scripts,
 * combining marks, supplementary characters (surrogate pairs), Unicode whitespace (also the spaces
 * {@link String#isBlank} misses), invisible format characters, control characters, NUL, unpaired
 * high and low surrogates, strings of only whitespace, and strings near and past the length limits.
 * The same seed gives the same strings, so a failure can be replayed.
 */
final class RandomText {

  private static final String WHITESPACE =
      " \t\n\u000b\f\r\u001c\u001d\u001e\u001f\u0085\u00a0\u1680\u2000\u2001\u2002\u2003\u2004"
          + "\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000";
  private static final String INVISIBLE = "\u200b\u200c\u200d\u2060\ufeff\u202e\u2066\u00ad";
  private static final String OTHER_SCRIPTS =
      "\u00e9\u00df\u00fc\u00c5\u0301\u0308\u03a9\u0416\u05d0\u0627\u0939\u4e2d\u6587\uac00"
          + "\u30ab\ufffd\ufffe\uffff\ue000";
  private static final int[] SUPPLEMENTARY = {
    0x10000, 0x1f600, 0x1f9d1, 0x1d11e, 0x20000, 0xe0001, 0xf0000, 0x10ffff
  };

  private final SplittableRandom random;

  RandomText(long seed) {
    this.random = new SplittableRandom(seed);
  }

  /** The next string: a mix of pieces, sometimes only whitespace, sometimes long. */
  String next() {
    int shape = random.nextInt(20);
    if (shape == 0) {
      return "";
    }
    if (shape <= 2) {
      return repeat(1 + random.nextInt(6), this::whitespace);
    }
    if (shape <= 4) {
      // Around the 200-character limit of IDs, mostly printable so that some are accepted.
      return "a".repeat(185 + random.nextInt(20)) + mix(random.nextInt(4));
    }
    if (shape == 5) {
      return mix(500 + random.nextInt(3000)); // a long pointer target
    }
    if (shape <= 12) {
      // No NUL, surrogate or control character except in whitespace: mostly accepted.
      return repeat(1 + random.nextInt(24), () -> piece(75));
    }
    return mix(1 + random.nextInt(24));
  }

  /**
   * {@code text} with one character replaced by another of the same kind (a surrogate by another
   * high or low surrogate, a space by another space, a letter by another letter), preferring
   * non-ASCII characters: a different string that a store losing one kind of character would merge
   * with {@code text}.
   */
  String closeTo(String text) {
    if (text.isEmpty()) {
      return piece(100);
    }
    int[] unusual = IntStream.range(0, text.length()).filter(i -> text.charAt(i) > 0x7e).toArray();
    int at =
        unusual.length > 0
            ? unusual[random.nextInt(unusual.length)]
            : random.nextInt(text.length());
    return text.substring(0, at) + sameKind(text.charAt(at)) + text.substring(at + 1);
  }

  private String sameKind(char c) {
    if (Character.isHighSurrogate(c)) {
      return String.valueOf((char) (0xd800 + random.nextInt(0x400)));
    }
    if (Character.isLowSurrogate(c)) {
      return String.valueOf((char) (0xdc00 + random.nextInt(0x400)));
    }
    for (int attempt = 0; attempt < 100; attempt++) {
      String piece = piece(100);
      if (piece.length() == 1 && Character.getType(piece.charAt(0)) == Character.getType(c)) {
        return piece;
      }
    }
    return piece(100);
  }

  private String mix(int pieces) {
    return repeat(pieces, () -> piece(100));
  }

  /** One piece; {@code range} 75 leaves out controls, NUL and lone surrogates. */
  private String piece(int range) {
    int kind = random.nextInt(range);
    if (kind < 40) {
      return String.valueOf((char) (0x20 + random.nextInt(0x7f - 0x20))); // printable ASCII
    } else if (kind < 52) {
      return pick(OTHER_SCRIPTS);
    } else if (kind < 62) {
      int codePoint =
          random.nextBoolean()
              ? SUPPLEMENTARY[random.nextInt(SUPPLEMENTARY.length)]
              : 0x10000 + random.nextInt(0x110000 - 0x10000);
      return new String(Character.toChars(codePoint));
    } else if (kind < 70) {
      return whitespace();
    } else if (kind < 75) {
      return pick(INVISIBLE);
    } else if (kind < 81) {
      int control = random.nextInt(3);
      return String.valueOf(
          (char)
              (control == 0
                  ? 1 + random.nextInt(0x1f)
                  : control == 1 ? 0x7f : 0x80 + random.nextInt(0x20)));
    } else if (kind < 85) {
      return "\u0000";
    } else if (kind < 93) {
      return String.valueOf((char) (0xd800 + random.nextInt(0x400))); // a high surrogate alone
    } else {
      return String.valueOf((char) (0xdc00 + random.nextInt(0x400))); // a low surrogate alone
    }
  }

  private String whitespace() {
    return pick(WHITESPACE);
  }

  private String pick(String characters) {
    return String.valueOf(characters.charAt(random.nextInt(characters.length())));
  }

  private static String repeat(int times, java.util.function.Supplier<String> piece) {
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < times; i++) {
      text.append(piece.get());
    }
    return text.toString();
  }

  /**
   * {@code text} quoted with everything but printable ASCII as {@code \}{@code uXXXX}, for
   * messages; a long text shows its start and its end.
   */
  static String escape(String text) {
    if (text.length() > 120) {
      return escapeAll(text.substring(0, 50))
          + "...("
          + text.length()
          + " chars)..."
          + escapeAll(text.substring(text.length() - 50));
    }
    return escapeAll(text);
  }

  private static String escapeAll(String text) {
    StringBuilder shown = new StringBuilder("\"");
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c >= 0x20 && c < 0x7f && c != '\\' && c != '"') {
        shown.append(c);
      } else {
        shown.append(String.format("\\u%04x", (int) c));
      }
    }
    return shown.append('"').toString();
  }
}
