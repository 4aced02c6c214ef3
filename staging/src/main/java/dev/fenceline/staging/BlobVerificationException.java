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
package dev.fenceline.staging;

import java.io.IOException;

/**
 * A published blob does not match the size or SHA-256 recorded when it was published: it was
 * changed or damaged after publishing. Thrown by the reader's stream at the point it finds out (at
 * the latest at the end of the stream); treat everything read from that stream as invalid.
 */
public class BlobVerificationException extends IOException {

  private static final long serialVersionUID = 1L;

  /** Creates the exception. */
  public BlobVerificationException(String message) {
    super(message);
  }
}
