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

/**
 * The root of Fenceline's exceptions. Exceptions are for failures; outcomes a caller must handle
 * (applied, already applied, rejected as stale) are {@link WriteOutcome}s.
 */
public class FencelineException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message the message, in the project's error format
   */
  public FencelineException(String message) {
    super(message);
  }

  /**
   * Creates the exception, keeping the cause.
   *
   * @param message the message, in the project's error format
   * @param cause the underlying failure
   */
  public FencelineException(String message, Throwable cause) {
    super(message, cause);
  }
}
