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
package dev.fenceline.chaos;

/** A chaos run could not be carried out (a worker did not start, a signal failed, ...). */
public final class ChaosRunException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message what failed and how to fix it
   */
  public ChaosRunException(String message) {
    super(message);
  }

  /**
   * Creates the exception.
   *
   * @param message what failed and how to fix it
   * @param cause the cause
   */
  public ChaosRunException(String message, Throwable cause) {
    super(message, cause);
  }
}
