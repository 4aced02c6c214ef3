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
