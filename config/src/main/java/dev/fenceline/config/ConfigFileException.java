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

import dev.fenceline.spi.ConfigurationException;

/**
 * A configuration file is wrong: its message reads {@code Cannot configure <key path> at
 * <file:line:column>: <reason> (<fix>)}. Secrets never appear in the message: values of secret
 * keys, and values that came from secret environment variables, are shown as {@code ****}.
 */
public final class ConfigFileException extends ConfigurationException {

  private static final long serialVersionUID = 1L;

  private final transient ConfigLocation location;
  private final String keyPath;

  ConfigFileException(String message, ConfigLocation location, String keyPath, Throwable cause) {
    super(message, cause);
    this.location = requireNonNull(location, "location is null");
    this.keyPath = requireNonNull(keyPath, "keyPath is null");
  }

  /** Where in the file the problem is. */
  public ConfigLocation location() {
    return location;
  }

  /**
   * The dotted path of the offending key, such as {@code stores.main.url}; empty for a problem of
   * the whole file.
   */
  public String keyPath() {
    return keyPath;
  }
}
