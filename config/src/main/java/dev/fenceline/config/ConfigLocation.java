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

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;

/**
 * A place in a configuration, as people read it: {@code source:line:column}, both counted from 1,
 * such as {@code /etc/fenceline.yaml:12:5} or {@code class path resource [application.yaml]:12:5};
 * or only the source where it has no lines, such as {@code System Environment Property
 * "FENCELINE_ISSUER"} (line and column 0).
 *
 * @param source the file, or what else holds the value
 * @param line the line, from 1; 0 if the source has no lines
 * @param column the column, from 1; 0 if the source has no lines
 */
public record ConfigLocation(String source, int line, int column) {

  /** Validates the location. */
  public ConfigLocation {
    requireNonNull(source, "source is null");
    boolean unplaced = line == 0 && column == 0;
    if (!unplaced && (line < 1 || column < 1)) {
      throw new IllegalArgumentException(
          "Cannot use location "
              + source
              + ":"
              + line
              + ":"
              + column
              + ": lines and columns start at 1 (or are both 0 for a source without lines)");
    }
  }

  /** A place in {@code file}. */
  public ConfigLocation(Path file, int line, int column) {
    this(requireNonNull(file, "file is null").toString(), line, column);
  }

  /** A source without lines, such as an environment variable. */
  public static ConfigLocation of(String source) {
    return new ConfigLocation(source, 0, 0);
  }

  /** {@code source:line:column}, or only the source if it has no lines. */
  @Override
  public String toString() {
    return line == 0 ? source : source + ":" + line + ":" + column;
  }
}
