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

import java.util.Optional;

/**
 * Configuration is missing, unknown or invalid. The message names the key, the value and the fix;
 * {@link #key()} carries the key as data, so that a configuration file loader can point at the line
 * where it is written without reading the message.
 */
public class ConfigurationException extends FencelineException {

  private static final long serialVersionUID = 1L;

  /** The key the problem is about ({@link ConfigKey#name()}, dotted for nested keys), or null. */
  private final String key;

  /**
   * Creates the exception.
   *
   * @param message the message, in the project's error format
   */
  public ConfigurationException(String message) {
    super(message);
    this.key = null;
  }

  /**
   * Creates the exception, keeping the cause.
   *
   * @param message the message, in the project's error format
   * @param cause the underlying failure
   */
  public ConfigurationException(String message, Throwable cause) {
    super(message, cause);
    this.key = null;
  }

  /**
   * Creates the exception about configuration key {@code key}, keeping the cause.
   *
   * @param key the key, as declared ({@link ConfigKey#name()}), such as {@code lock-timeout} or
   *     {@code backoff.max}
   * @param message the whole message, naming the key, the value (unless secret) and the fix
   * @param cause the cause, or null
   */
  public ConfigurationException(String key, String message, Throwable cause) {
    super(message, cause);
    this.key = requireNonNull(key, "key is null");
  }

  /**
   * {@return an exception about configuration key {@code key}}
   *
   * @param key the key the problem is about
   * @param message the message, in the project's error format
   * @see #ConfigurationException(String, String, Throwable)
   */
  public static ConfigurationException about(String key, String message) {
    return new ConfigurationException(key, message, null);
  }

  /**
   * {@return the key the problem is about, as declared by the adapter ({@link ConfigKey#name()});
   * empty if the problem is not about one key}
   */
  public Optional<String> key() {
    return Optional.ofNullable(key);
  }
}
