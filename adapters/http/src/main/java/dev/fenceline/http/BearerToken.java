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

/**
 * A bearer token read from the environment. Its value leaves this class only in the {@code
 * Authorization} header of a request and in {@link #redact}: {@link #toString()} names the
 * variable, never the value.
 */
final class BearerToken {

  private static final java.util.regex.Pattern VARIABLE =
      java.util.regex.Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,127}");

  private final String variable;
  private final String value;

  private BearerToken(String variable, String value) {
    this.variable = variable;
    this.value = value;
  }

  /**
   * Reads the token from {@code variable}.
   *
   * @throws dev.fenceline.spi.ConfigurationException if the variable is unset, blank or holds a
   *     value that cannot be sent in a header (the message names the variable, never the value)
   */
  static BearerToken fromEnvironment(
      String variable, java.util.function.Function<String, String> environment) {
    requireNonNull(variable, "variable is null");
    String value = environment.apply(variable);
    if (value == null || value.isBlank()) {
      throw dev.fenceline.spi.ConfigurationException.about(
          HttpConfigKeys.BEARER_TOKEN_ENV,
          "Cannot read the bearer token from environment variable "
              + variable
              + ": it is not set or blank (export "
              + variable
              + " with the API's token before starting)");
    }
    // Not stripped: a token with stray whitespace is refused rather than silently changed.
    if (value.chars().anyMatch(c -> c < 0x21 || c > 0x7e)) {
      throw dev.fenceline.spi.ConfigurationException.about(
          HttpConfigKeys.BEARER_TOKEN_ENV,
          "Cannot use the bearer token in environment variable "
              + variable
              + ": it contains whitespace, control or non-ASCII characters (check how the"
              + " variable is set; the value is not shown)");
    }
    return new BearerToken(variable, value);
  }

  /**
   * Checks that {@code variable} is an environment variable name, as both destination builders
   * require before reading it.
   *
   * @throws dev.fenceline.spi.ConfigurationException naming the variable if it is not one
   */
  static String checkVariable(String variable) {
    requireNonNull(variable, "variable is null");
    if (!VARIABLE.matcher(variable).matches()) {
      throw dev.fenceline.spi.ConfigurationException.about(
          HttpConfigKeys.BEARER_TOKEN_ENV,
          "Cannot read the bearer token from environment variable "
              + ApiRequest.quote(variable)
              + ": it is not a variable name (expected [A-Za-z_][A-Za-z0-9_]*, e.g."
              + " PARTNER_TOKEN)");
    }
    return variable;
  }

  /** The environment variable the token came from. */
  String variable() {
    return variable;
  }

  /** The value of the {@code Authorization} header. */
  String headerValue() {
    return "Bearer " + value;
  }

  /**
   * {@code text} with every occurrence of the token that stands as a whole word (not inside a
   * longer run of letters, digits and {@code _}) replaced by {@code ***}: an API that echoes the
   * token is masked, and a short token ({@code x}) does not garble the rest ({@code exists}).
   */
  String redact(String text) {
    if (text == null) {
      return null;
    }
    StringBuilder out = new StringBuilder(text.length());
    int copied = 0;
    int at = text.indexOf(value);
    while (at >= 0) {
      int end = at + value.length();
      boolean bounded =
          (at == 0 || !wordCharacter(value.charAt(0)) || !wordCharacter(text.charAt(at - 1)))
              && (end == text.length()
                  || !wordCharacter(value.charAt(value.length() - 1))
                  || !wordCharacter(text.charAt(end)));
      if (bounded) {
        out.append(text, copied, at).append("***");
        copied = end;
        at = text.indexOf(value, end);
      } else {
        at = text.indexOf(value, at + 1);
      }
    }
    return copied == 0 ? text : out.append(text, copied, text.length()).toString();
  }

  private static boolean wordCharacter(char c) {
    return Character.isLetterOrDigit(c) || c == '_';
  }

  @Override
  public String toString() {
    return "bearer token from $" + variable;
  }
}
