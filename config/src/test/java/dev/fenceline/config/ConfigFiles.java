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

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.Function;

/** Writes configuration files for tests and loads them with a given environment. */
final class ConfigFiles {

  private ConfigFiles() {}

  static Path write(Path directory, String yaml) {
    try {
      Path file = directory.resolve("fenceline.yaml");
      Files.writeString(file, yaml);
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static FencelineConfig load(Path directory, String yaml) {
    return load(directory, yaml, Map.of());
  }

  static FencelineConfig load(Path directory, String yaml, Map<String, String> environment) {
    Function<String, String> env = environment::get;
    return FencelineConfig.load(write(directory, yaml), env);
  }

  /** A store section on SQLite and one on a local directory, both under {@code directory}. */
  static String sqliteAndDirectory(Path directory) {
    return """
        stores:
          main:
            type: jdbc
            url: jdbc:sqlite:%s
          reports-dir:
            type: vfs
            uri: %s
        issuer: main
        """
        .formatted(directory.resolve("fenceline.db"), directory.resolve("reports").toUri());
  }
}
