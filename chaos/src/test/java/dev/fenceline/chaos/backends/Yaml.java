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
package dev.fenceline.chaos.backends;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Writing the backends' YAML files. */
final class Yaml {

  private Yaml() {}

  /** {@code value} as a double-quoted YAML scalar. */
  static String quote(String value) {
    return "\"" + value.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }

  /** Writes {@code yaml} to {@code dir/fenceline.yaml} (creating {@code dir}) and returns it. */
  static Path write(Path dir, String yaml) {
    Path file = dir.toAbsolutePath().resolve("fenceline.yaml");
    try {
      Files.createDirectories(file.getParent());
      Files.writeString(file, yaml);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot write " + file, e);
    }
    return file;
  }
}
