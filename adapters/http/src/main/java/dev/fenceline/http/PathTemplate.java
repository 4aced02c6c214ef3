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

import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A path and query relative to a base URI with {@code {placeholder}}s, each replaced by a
 * percent-encoded value, e.g. {@code
 * /fencing/operations?resource={resource}&key={idempotency-key}}.
 */
record PathTemplate(String template) {

  private static final Pattern PLACEHOLDER = Pattern.compile("\\{([a-z-]+)}");

  /**
   * Checks the template: relative (starts with one {@code /}), no spaces or fragment, only the
   * {@code allowed} placeholders, each of {@code required} present.
   *
   * @return the template
   * @throws IllegalArgumentException naming the request and the problem
   */
  static PathTemplate of(
      String request, String template, Set<String> allowed, Set<String> required) {
    java.util.Objects.requireNonNull(template, request + " path is null");
    boolean relative =
        template.startsWith("/")
            && !template.startsWith("//")
            && template.chars().noneMatch(c -> c <= 0x20 || c == 0x7f || c == '#');
    if (!relative) {
      throw new IllegalArgumentException(
          "Cannot use "
              + request
              + " path "
              + ApiRequest.quote(template)
              + ": give a path relative to the base URI, starting with / and without spaces or"
              + " fragments (e.g. /fencing/epoch?resource={resource})");
    }
    Matcher matcher = PLACEHOLDER.matcher(template);
    java.util.HashSet<String> seen = new java.util.HashSet<>();
    while (matcher.find()) {
      if (!allowed.contains(matcher.group(1))) {
        throw new IllegalArgumentException(
            "Cannot use "
                + request
                + " path "
                + ApiRequest.quote(template)
                + ": unknown placeholder {"
                + matcher.group(1)
                + "} (allowed: "
                + String.join(", ", new java.util.TreeSet<>(allowed))
                + ")");
      }
      seen.add(matcher.group(1));
    }
    for (String name : required) {
      if (!seen.contains(name)) {
        throw new IllegalArgumentException(
            "Cannot use "
                + request
                + " path "
                + ApiRequest.quote(template)
                + ": it lacks the placeholder {"
                + name
                + "}, without which the API cannot tell which one is meant");
      }
    }
    return new PathTemplate(template);
  }

  /** The path with every placeholder replaced by its percent-encoded value. */
  String expand(Map<String, String> values) {
    Matcher matcher = PLACEHOLDER.matcher(template);
    StringBuilder out = new StringBuilder();
    while (matcher.find()) {
      String value = values.get(matcher.group(1));
      if (value == null) {
        throw new IllegalStateException("no value for placeholder {" + matcher.group(1) + "}");
      }
      matcher.appendReplacement(
          out, Matcher.quoteReplacement(TokenHeaderFormat.percentEncode(value)));
    }
    matcher.appendTail(out);
    return out.toString();
  }
}
