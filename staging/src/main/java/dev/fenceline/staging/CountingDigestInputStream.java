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

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;

/**
 * Passes bytes through while counting them and computing their SHA-256. Staging uses it on the way
 * in; {@link VerifyingInputStream} extends it on the way out.
 */
class CountingDigestInputStream extends FilterInputStream {

  private final MessageDigest digest = Digests.sha256();
  private long count;

  CountingDigestInputStream(InputStream in) {
    super(in);
  }

  @Override
  public int read() throws IOException {
    int b = super.read();
    if (b < 0) {
      atEnd();
    } else {
      digest.update((byte) b);
      count++;
      afterBytes();
    }
    return b;
  }

  @Override
  public int read(byte[] buffer, int offset, int length) throws IOException {
    int n = super.read(buffer, offset, length);
    if (n < 0) {
      atEnd();
    } else if (n > 0) {
      digest.update(buffer, offset, n);
      count += n;
      afterBytes();
    }
    return n;
  }

  /** Skips by reading, so skipped bytes are counted and hashed too. */
  @Override
  public long skip(long n) throws IOException {
    byte[] buffer = new byte[8192];
    long skipped = 0;
    while (skipped < n) {
      int read = read(buffer, 0, (int) Math.min(buffer.length, n - skipped));
      if (read < 0) {
        break;
      }
      skipped += read;
    }
    return skipped;
  }

  /** Called after bytes were counted; {@link #count()} includes them. */
  void afterBytes() throws IOException {}

  /** Called when the end of the stream is read (possibly more than once). */
  void atEnd() throws IOException {}

  @Override
  public boolean markSupported() {
    return false;
  }

  @Override
  public synchronized void mark(int readlimit) {}

  @Override
  public synchronized void reset() throws IOException {
    throw new IOException("mark/reset not supported while staging a payload");
  }

  long count() {
    return count;
  }

  /** The SHA-256 of everything read so far; call once, at the end. */
  String sha256() {
    return Digests.hex(digest.digest());
  }
}
