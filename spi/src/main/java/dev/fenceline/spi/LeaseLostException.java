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

/**
 * A lease could not be renewed (it expired, was released, or a newer epoch was issued), or a write
 * under it was refused before anything was sent because the holder already knew it was closed or
 * lost (the core module's {@code Fenceline.publish} and {@code register}).
 */
public class LeaseLostException extends FencelineException {

  private static final long serialVersionUID = 1L;

  private final transient FencingToken token;

  /**
   * Creates the exception for {@code token} with the reason in the message.
   *
   * @param token the fencing token
   * @param message the message, in the project's error format
   */
  public LeaseLostException(FencingToken token, String message) {
    super(message);
    this.token = requireNonNull(token, "token is null");
  }

  /** {@return the token of the lost lease} */
  public FencingToken token() {
    return token;
  }
}
