package dev.fenceline.spi;

/** Formatting of user-supplied text inside error messages. */
final class Text {

  private static final int MAX_SHOWN = 80;

  private Text() {}

  /**
   * Quotes {@code value} for an error message: control characters are escaped so a message cannot
   * be split or forged, and long values are cut.
   */
  static String quoteForMessage(String value) {
    StringBuilder shown = new StringBuilder("\"");
    int limit = Math.min(value.length(), MAX_SHOWN);
    for (int i = 0; i < limit; i++) {
      char c = value.charAt(i);
      if (c == '"' || c == '\\') {
        shown.append('\\').append(c);
      } else if (c < 0x20 || c == 0x7f) {
        shown.append(String.format("\\u%04x", (int) c));
      } else {
        shown.append(c);
      }
    }
    if (value.length() > MAX_SHOWN) {
      shown.append("...");
    }
    return shown.append('"').toString();
  }

  /** True if {@code value} has no control character (ISO control or line/paragraph separator). */
  static boolean isPrintable(String value) {
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (Character.isISOControl(c) || c == '\u2028' || c == '\u2029') {
        return false;
      }
    }
    return true;
  }
}
