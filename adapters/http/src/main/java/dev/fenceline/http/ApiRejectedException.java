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
 * The API answered the request with a definite refusal that retrying cannot fix: a 4xx other than
 * 409 (still processing) and 429 (too many requests). {@code 422} means the idempotency key was
 * used before with another payload: the request passed the destination's own fingerprint check, so
 * the API holds some other payload under the operation's key. The intent stays recorded and not
 * completed. {@link #outcomeUnknown()} is true if an earlier attempt, of this call or of an earlier
 * one, may have landed before the refusal.
 */
public class ApiRejectedException extends StoreException {

  private static final long serialVersionUID = 1L;

  private final int status;

  /** Creates the exception for HTTP {@code status}. */
  public ApiRejectedException(String message, int status, boolean outcomeUnknown) {
    super(message, null, outcomeUnknown);
    this.status = status;
  }

  /** The HTTP status the API answered. */
  public int status() {
    return status;
  }

  /** True for 422: the API says the idempotency key was used with another payload. */
  public boolean keyReusedWithAnotherPayload() {
    return status == 422;
  }
}
