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
package dev.fenceline.vfs;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/** Remembers whether reading the caller's payload failed, to blame the right side in errors. */
final class SourceTrackingInputStream extends FilterInputStream {

  private boolean failed;

  SourceTrackingInputStream(InputStream in) {
    super(in);
  }

  @Override
  public int read() throws IOException {
    try {
      return super.read();
    } catch (IOException | RuntimeException e) {
      failed = true;
      throw e;
    }
  }

  @Override
  public int read(byte[] buffer, int offset, int length) throws IOException {
    try {
      return super.read(buffer, offset, length);
    } catch (IOException | RuntimeException e) {
      failed = true;
      throw e;
    }
  }

  boolean failed() {
    return failed;
  }
}
