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
package dev.fenceline.vfs;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Keeps user information (user name and password) out of every message, log line and exception this
 * adapter produces. Nothing of it is shown, not even the user name.
 *
 * <p>User information is everything between {@code scheme://} and the <em>last</em> {@code @} of
 * the URI. That is deliberately greedy: a password may contain unencoded {@code /}, {@code @} and
 * {@code :}, and Commons VFS, which stops at the first {@code @} and gives up at a {@code /}, would
 * otherwise print the rest of it as the host or the path (and connect to a host named after a piece
 * of the password). A path that itself contains {@code @} is therefore shown shortened; such URIs
 * are refused anyway (see {@link #ambiguity()}).
 */
final class Redaction {

  private static final String MASK = "***";
  private static final Pattern SCHEME = Pattern.compile("^[A-Za-z][A-Za-z0-9+.-]*:");

  /** User information inside a URI quoted in someone else's message (VFS, JSch). */
  private static final Pattern QUOTED_USER_INFO =
      Pattern.compile("([A-Za-z][A-Za-z0-9+.-]*://)[^\\s\"'<>/]*@");

  private final String uri;
  private final String shown;
  private final Optional<String> userInfo;
  private final List<String> secrets;
  private final List<String> userNames;

  /**
   * @param uri the configured URI, possibly with user information
   * @param user the user name given separately, or null
   * @param password the password given separately, or null
   */
  Redaction(String uri, String user, String password) {
    this.uri = uri;
    this.userInfo = userInfo(uri);
    this.shown = withoutUserInfo(uri);
    List<String> secretValues = new ArrayList<>();
    List<String> names = new ArrayList<>();
    userInfo.ifPresent(
        info -> {
          secretValues.add(info);
          secretValues.add(decode(info));
          int colon = info.indexOf(':');
          if (colon >= 0) {
            secretValues.add(info.substring(colon + 1));
            secretValues.add(decode(info.substring(colon + 1)));
            names.add(info.substring(0, colon));
            names.add(decode(info.substring(0, colon)));
          } else {
            names.add(info);
            names.add(decode(info));
          }
        });
    if (password != null) {
      secretValues.add(password);
    }
    if (user != null) {
      names.add(user);
    }
    this.secrets = longestFirst(secretValues);
    this.userNames = longestFirst(names);
  }

  private static List<String> longestFirst(List<String> values) {
    return values.stream()
        .filter(value -> !value.isEmpty())
        .distinct()
        .sorted(Comparator.comparingInt(String::length).reversed())
        .toList();
  }

  /** The configured URI without its user information. */
  String shownUri() {
    return shown;
  }

  /**
   * Why the URI's user information cannot be told apart from its host and path, or empty if it can:
   * it contains an unencoded {@code /}, {@code \}, {@code ?}, {@code #} or {@code @} (or the path
   * contains {@code @}). Commons VFS would read part of the password as the host and connect there,
   * so such URIs are refused before VFS sees them.
   */
  Optional<String> ambiguity() {
    return userInfo
        .filter(info -> info.chars().anyMatch(c -> "/\\?#@".indexOf(c) >= 0))
        .map(
            info ->
                "the URI has a '/', '\\', '?', '#' or '@' in its user name or password, or an '@'"
                    + " in its path, so its host cannot be told apart from the password");
  }

  /** {@code text} with URIs stripped of user information and every credential masked. */
  String scrub(String text) {
    if (text == null) {
      return null;
    }
    String result = text.replace(uri, shown);
    result = QUOTED_USER_INFO.matcher(result).replaceAll("$1");
    for (String secret : secrets) {
      result = result.replace(secret, MASK);
    }
    for (String name : userNames) {
      result = result.replace(name + "@", ""); // user@host outside a URI
    }
    return result;
  }

  /**
   * A copy of {@code failure} and its causes and suppressed exceptions whose messages are scrubbed,
   * keeping the original class names and stack traces, so a logged stack trace shows no credentials
   * either.
   */
  Throwable scrub(Throwable failure) {
    return scrub(failure, new IdentityHashMap<>());
  }

  private Throwable scrub(Throwable failure, Map<Throwable, Throwable> done) {
    if (failure == null) {
      return null;
    }
    Throwable copy = done.get(failure);
    if (copy != null) {
      return copy;
    }
    ScrubbedException scrubbed =
        new ScrubbedException(failure.getClass().getName(), scrub(failure.getMessage()));
    done.put(failure, scrubbed);
    scrubbed.setStackTrace(failure.getStackTrace());
    if (failure.getCause() != null) {
      scrubbed.initCause(scrub(failure.getCause(), done));
    }
    for (Throwable suppressed : failure.getSuppressed()) {
      scrubbed.addSuppressed(scrub(suppressed, done));
    }
    return scrubbed;
  }

  /** Where the user information of {@code uri} starts and ends (the {@code @} included). */
  private static int[] userInfoRange(String uri) {
    Matcher scheme = SCHEME.matcher(uri);
    if (!scheme.find()) {
      return null; // a plain path: no authority, an '@' in it is part of a file name
    }
    int start = scheme.end();
    if (uri.startsWith("//", start)) {
      start += 2;
      if (uri.startsWith("/", start)) {
        return null; // file:///path: empty authority
      }
    }
    int at = uri.lastIndexOf('@');
    return at < start ? null : new int[] {start, at + 1};
  }

  private static Optional<String> userInfo(String uri) {
    int[] range = userInfoRange(uri);
    return range == null
        ? Optional.empty()
        : Optional.of(uri.substring(range[0], range[1] - 1)).filter(info -> !info.isEmpty());
  }

  /** {@code uri} without its user information (see the class comment for where that ends). */
  static String withoutUserInfo(String uri) {
    int[] range = userInfoRange(uri);
    return range == null ? uri : uri.substring(0, range[0]) + uri.substring(range[1]);
  }

  /** Percent-decodes leniently (a malformed escape is kept as it is). */
  private static String decode(String text) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '%' && isHex(text, i + 1) && isHex(text, i + 2)) {
        bytes.write(Integer.parseInt(text.substring(i + 1, i + 3), 16));
        i += 2;
      } else {
        byte[] encoded = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
        bytes.write(encoded, 0, encoded.length);
      }
    }
    return bytes.toString(StandardCharsets.UTF_8);
  }

  private static boolean isHex(String text, int index) {
    return index < text.length() && Character.digit(text.charAt(index), 16) >= 0;
  }

  /** Stands in for a vendor exception whose message was scrubbed; prints the original class. */
  static final class ScrubbedException extends Exception {
    private static final long serialVersionUID = 1L;
    private final String originalClass;

    ScrubbedException(String originalClass, String message) {
      super(message);
      this.originalClass = originalClass;
    }

    /** The class of the exception this stands in for. */
    String originalClass() {
      return originalClass;
    }

    @Override
    public String toString() {
      String message = getLocalizedMessage();
      return message == null ? originalClass : originalClass + ": " + message;
    }
  }
}
