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

import java.util.regex.Pattern;

/**
 * The shared rules of {@link ResourceId} and {@link BlobKey}: {@code /}-separated segments of
 * {@code [A-Za-z0-9._-]}, no {@code .} or {@code ..} segment, no empty segment, no leading or
 * trailing {@code /}.
 */
final class PathRules {

  private static final Pattern SEGMENT = Pattern.compile("[A-Za-z0-9._-]+");

  private PathRules() {}

  static void validate(String kind, String value, int maxLength, String example) {
    requireNonNull(value, kind + " is null");
    String shown = Text.quoteForMessage(value);
    if (value.isEmpty()) {
      throw new IllegalArgumentException(
          "Cannot use " + kind + " \"\": it is empty (use a name such as " + example + ")");
    }
    if (value.length() > maxLength) {
      throw new IllegalArgumentException(
          "Cannot use "
              + kind
              + " "
              + shown
              + ": it has "
              + value.length()
              + " characters, more than "
              + maxLength
              + " (use a shorter name)");
    }
    if (value.startsWith("/") || value.endsWith("/")) {
      throw new IllegalArgumentException(
          "Cannot use "
              + kind
              + " "
              + shown
              + ": it starts or ends with '/' (write segments like "
              + example
              + ")");
    }
    for (String segment : value.split("/", -1)) {
      if (segment.isEmpty()) {
        throw new IllegalArgumentException(
            "Cannot use " + kind + " " + shown + ": it has an empty segment ('//')");
      }
      if (segment.equals(".") || segment.equals("..")) {
        throw new IllegalArgumentException(
            "Cannot use "
                + kind
                + " "
                + shown
                + ": segment '"
                + segment
                + "' is not allowed (no relative path segments)");
      }
      if (!SEGMENT.matcher(segment).matches()) {
        throw new IllegalArgumentException(
            "Cannot use "
                + kind
                + " "
                + shown
                + ": segment "
                + Text.quoteForMessage(segment)
                + " has a character outside [A-Za-z0-9._-]");
      }
    }
  }
}
