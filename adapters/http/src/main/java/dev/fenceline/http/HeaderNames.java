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

import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/** The rule for header names: what a header name is, and which ones a destination sets itself. */
final class HeaderNames {

  /** An HTTP header name (an RFC 9110 token), at most 64 characters. */
  static final Pattern HEADER_NAME = Pattern.compile("[A-Za-z0-9!#$%&'*+.^_`|~-]{1,64}");

  /**
   * Headers a destination sets itself (credentials, body framing) or that the JDK's client refuses
   * to send ({@code connection}, {@code content-length}, {@code expect}, {@code host}, {@code
   * upgrade}): no setting may name one of them, lower case.
   */
  static final Set<String> SET_BY_THE_DESTINATION =
      Set.of(
          "authorization",
          "content-type",
          "content-length",
          "host",
          "connection",
          "expect",
          "upgrade",
          "transfer-encoding");

  private HeaderNames() {}

  /**
   * Checks the header name a setting gives.
   *
   * @param key the YAML key of the setting, or null if YAML does not offer it
   * @param what the setting, e.g. {@code idempotency key header}
   * @param example a good value, shown in the message
   * @throws dev.fenceline.spi.ConfigurationException if it is not a header name or names a header
   *     the destination sets otherwise
   */
  static String check(String key, String what, String header, String example) {
    requireNonNull(header, "header is null");
    if (!HEADER_NAME.matcher(header).matches()
        || SET_BY_THE_DESTINATION.contains(header.toLowerCase(Locale.ROOT))) {
      throw HttpConfigKeys.refusal(
          key,
          "Cannot use "
              + what
              + " "
              + ApiRequest.quote(header)
              + ": expected an HTTP header name that the destination does not set otherwise (e.g. "
              + example
              + ")",
          null);
    }
    return header;
  }
}
