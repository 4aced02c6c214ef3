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
package dev.fenceline.config;

import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Knows which values of one configuration are secret and keeps them out of the texts shown to
 * people, without touching any other text.
 *
 * <p>Which keys are secret is declared by the adapters and destination kinds ({@link
 * dev.fenceline.spi.ConfigKey#secret()}; see {@link FileSecrets}). Secrets are masked where they
 * are printed, structurally: {@link Secret} and the values of secret keys render as {@code ****};
 * {@link #redactUrls} masks the password of a URL's user info, password-like query parameters
 * ({@code password=}, {@code token=}, ...) and {@code Authorization} header values. A value is
 * never masked as a substring of other text, so a short or common secret ({@code x}, {@code admin},
 * {@code postgres}) cannot garble messages.
 *
 * <p>As a last line of defence for text this module did not build (a driver's exception that echoes
 * a password), {@link #scrub} also replaces the registered secrets that are {@linkplain
 * #unambiguous unambiguous} (at least 8 characters from at least two classes of letters, digits and
 * symbols, or at least 16 characters) where they stand as a whole token, not inside a longer word
 * or number. Shorter secrets are never echoed by this module's messages, which is what the tests
 * prove.
 */
final class Secrets {

  /** What secrets are shown as. */
  static final String MASK = "****";

  /** The shortest secret the last-line-of-defence substring mask applies to. */
  static final int UNAMBIGUOUS_LENGTH = 8;

  /** The shortest secret of a single class of characters that mask applies to. */
  static final int UNAMBIGUOUS_SINGLE_CLASS_LENGTH = 16;

  private static final Pattern SECRET_VARIABLE =
      Pattern.compile(
          "(?i).*(PASSWORD|PASSWD|PASSPHRASE|SECRET|TOKEN|CREDENTIAL|API_KEY|ACCESS_KEY"
              + "|PRIVATE_KEY).*");

  private static final Pattern URL_USER_INFO = Pattern.compile("(//[^/@:?#\\s]*:)([^/@?#\\s]*)(@)");
  private static final Pattern URL_PASSWORD_PARAMETER =
      Pattern.compile(
          "(?i)([?&;](?:password|passwd|pwd|secret|token|access_token|api_key|apikey"
              + "|sslpassword)=)([^&;#\\s\"']*)");
  private static final Pattern AUTHORIZATION_HEADER =
      Pattern.compile(
          "(?i)((?:proxy-)?authorization\\s*[:=]\\s*(?:(?:bearer|basic|token)\\s+)?)"
              + "([^\\s,;\"']+)");

  private final Set<String> values = new LinkedHashSet<>();

  /** Whether an environment variable's name says it holds a secret. */
  static boolean isSecretVariable(String variable) {
    return SECRET_VARIABLE.matcher(variable).matches();
  }

  /**
   * Whether {@code secret} is long and varied enough that a whole-token occurrence of it in foreign
   * text is the secret and not an ordinary word.
   */
  static boolean unambiguous(String secret) {
    if (secret.length() >= UNAMBIGUOUS_SINGLE_CLASS_LENGTH) {
      return true;
    }
    if (secret.length() < UNAMBIGUOUS_LENGTH) {
      return false;
    }
    boolean lower = false;
    boolean upper = false;
    boolean digit = false;
    boolean other = false;
    for (int i = 0; i < secret.length(); i++) {
      char c = secret.charAt(i);
      if (Character.isLowerCase(c)) {
        lower = true;
      } else if (Character.isUpperCase(c)) {
        upper = true;
      } else if (Character.isDigit(c)) {
        digit = true;
      } else {
        other = true;
      }
    }
    int classes = (lower ? 1 : 0) + (upper ? 1 : 0) + (digit ? 1 : 0) + (other ? 1 : 0);
    return classes >= 2;
  }

  /** Remembers a secret value, for the last-line-of-defence mask of {@link #scrub}. */
  void add(String value) {
    if (value != null && !value.isEmpty()) {
      synchronized (values) {
        values.add(value);
      }
    }
  }

  /** Remembers the passwords a URL carries (user info, password query parameters). */
  void addFromUrl(String url) {
    Matcher userInfo = URL_USER_INFO.matcher(url);
    while (userInfo.find()) {
      add(userInfo.group(2));
    }
    Matcher parameter = URL_PASSWORD_PARAMETER.matcher(url);
    while (parameter.find()) {
      add(parameter.group(2));
    }
  }

  /**
   * {@code text} with credentials in URLs and headers masked ({@link #redactUrls}), and with every
   * {@linkplain #unambiguous unambiguous} registered secret that stands as a whole token replaced
   * by {@link #MASK}; nothing else changes.
   */
  String scrub(String text) {
    if (text == null) {
      return null;
    }
    String result = redactUrls(text);
    String[] known;
    synchronized (values) {
      known = values.toArray(String[]::new);
    }
    // Longest first, so that a secret containing a shorter one is masked whole.
    java.util.Arrays.sort(known, Comparator.comparingInt(String::length).reversed());
    for (String secret : known) {
      if (unambiguous(secret)) {
        result = replaceTokens(result, secret);
      }
    }
    return result;
  }

  /**
   * {@code text} with each occurrence of {@code secret} that is not inside a longer word masked.
   */
  private static String replaceTokens(String text, String secret) {
    StringBuilder out = new StringBuilder(text.length());
    int copied = 0;
    int at = text.indexOf(secret);
    while (at >= 0) {
      int end = at + secret.length();
      // A side where the secret itself ends in a symbol is a boundary already ("pw!Secr3t").
      boolean boundedBefore =
          at == 0 || !wordCharacter(secret.charAt(0)) || !wordCharacter(text.charAt(at - 1));
      boolean boundedAfter =
          end == text.length()
              || !wordCharacter(secret.charAt(secret.length() - 1))
              || !wordCharacter(text.charAt(end));
      if (boundedBefore && boundedAfter) {
        out.append(text, copied, at).append(MASK);
        copied = end;
        at = text.indexOf(secret, end);
      } else {
        at = text.indexOf(secret, at + 1);
      }
    }
    return copied == 0 ? text : out.append(text, copied, text.length()).toString();
  }

  private static boolean wordCharacter(char c) {
    return Character.isLetterOrDigit(c) || c == '_';
  }

  /**
   * {@code text} with the passwords of URLs' user info, password-like query parameters and {@code
   * Authorization} header values masked.
   */
  static String redactUrls(String text) {
    String result = URL_USER_INFO.matcher(text).replaceAll("$1" + MASK + "$3");
    result = URL_PASSWORD_PARAMETER.matcher(result).replaceAll("$1" + MASK);
    return AUTHORIZATION_HEADER.matcher(result).replaceAll("$1" + MASK);
  }
}
