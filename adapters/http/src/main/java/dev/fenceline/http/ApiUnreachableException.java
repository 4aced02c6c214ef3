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
package dev.fenceline.http;

import dev.fenceline.spi.StoreException;

/**
 * No request of the operation could have reached the API: every attempt failed to connect, or the
 * circuit breaker refused it, and no earlier attempt may have sent it. Nothing was applied and
 * nothing is recorded as applied ({@link #outcomeUnknown()} is false); the intent stays, so a retry
 * with the same operation ID looks the result up first (a later retry counts as a further attempt
 * and cannot know that this one sent nothing).
 */
public class ApiUnreachableException extends StoreException {

  private static final long serialVersionUID = 1L;

  /** Creates the exception. */
  public ApiUnreachableException(String message, Throwable cause) {
    super(message, cause, false);
  }
}
