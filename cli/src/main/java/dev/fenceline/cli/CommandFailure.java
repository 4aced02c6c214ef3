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
package dev.fenceline.cli;

import static java.util.Objects.requireNonNull;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A command stopped with a known exit status and a one-line message, {@code Cannot <action>
 * <subject>: <reason> (<hint>)}, already free of secrets. {@code details} go into the {@code
 * --json} document.
 */
class CommandFailure extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final ExitCode exitCode;
  private final transient Map<String, Object> details;

  CommandFailure(ExitCode exitCode, String message) {
    this(exitCode, message, Map.of(), null);
  }

  CommandFailure(ExitCode exitCode, String message, Map<String, Object> details, Throwable cause) {
    super(requireNonNull(message, "message is null"), cause);
    this.exitCode = requireNonNull(exitCode, "exitCode is null");
    this.details = new LinkedHashMap<>(details);
  }

  /** True if the message was printed to standard error when it happened. */
  boolean alreadyOnStandardError() {
    return false;
  }

  ExitCode exitCode() {
    return exitCode;
  }

  Map<String, Object> details() {
    return details;
  }
}
