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

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;

/** Stores receipt attributes in one text column as {@code name=value&name=value}, URL-encoded. */
final class ReceiptAttributes {

  private ReceiptAttributes() {}

  static String encode(Map<String, String> attributes) {
    StringBuilder text = new StringBuilder();
    new TreeMap<>(attributes)
        .forEach(
            (name, value) -> {
              if (text.length() > 0) {
                text.append('&');
              }
              text.append(URLEncoder.encode(name, StandardCharsets.UTF_8))
                  .append('=')
                  .append(URLEncoder.encode(value, StandardCharsets.UTF_8));
            });
    return text.toString();
  }

  static Map<String, String> decode(String text) {
    Map<String, String> attributes = new TreeMap<>();
    if (text.isEmpty()) {
      return attributes;
    }
    for (String pair : text.split("&", -1)) {
      int equals = pair.indexOf('=');
      if (equals < 0) {
        throw new IllegalStateException("stored receipt attributes are corrupt near: " + pair);
      }
      attributes.put(
          URLDecoder.decode(pair.substring(0, equals), StandardCharsets.UTF_8),
          URLDecoder.decode(pair.substring(equals + 1), StandardCharsets.UTF_8));
    }
    return attributes;
  }
}
