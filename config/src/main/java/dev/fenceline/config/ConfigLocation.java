package dev.fenceline.config;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;

/**
 * A place in a configuration file, as people read it: {@code file:line:column}, both counted from
 * 1.
 *
 * @param file the configuration file
 * @param line the line, from 1
 * @param column the column, from 1
 */
public record ConfigLocation(Path file, int line, int column) {

  /** Validates the location. */
  public ConfigLocation {
    requireNonNull(file, "file is null");
    if (line < 1 || column < 1) {
      throw new IllegalArgumentException(
          "Cannot use location "
              + file
              + ":"
              + line
              + ":"
              + column
              + ": lines and columns start at 1");
    }
  }

  /** {@code file:line:column}. */
  @Override
  public String toString() {
    return file + ":" + line + ":" + column;
  }
}
