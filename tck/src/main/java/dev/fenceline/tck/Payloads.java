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
package dev.fenceline.tck;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** Large test payloads generated on the fly, so tests never hold them in memory. */
public final class Payloads {

  private Payloads() {}

  /** A deterministic stream of {@code size} pseudo-random bytes derived from {@code seed}. */
  public static InputStream generated(long size, long seed) {
    return new InputStream() {
      private long position;
      private long state = seed * 0x9E3779B97F4A7C15L + 1;

      @Override
      public int read() {
        if (position >= size) {
          return -1;
        }
        position++;
        state = state * 6364136223846793005L + 1442695040888963407L;
        return (int) (state >>> 56) & 0xff;
      }

      @Override
      public int read(byte[] buffer, int offset, int length) {
        if (position >= size) {
          return -1;
        }
        int n = (int) Math.min(length, size - position);
        for (int i = 0; i < n; i++) {
          state = state * 6364136223846793005L + 1442695040888963407L;
          buffer[offset + i] = (byte) (state >>> 56);
        }
        position += n;
        return n;
      }
    };
  }

  /** The SHA-256 of everything {@code in} yields, lowercase hex; reads in 64 KiB chunks. */
  public static String sha256(InputStream in) {
    try {
      MessageDigest digest = MessageDigest.getInstance("SHA-256");
      byte[] buffer = new byte[64 * 1024];
      for (int n; (n = in.read(buffer)) >= 0; ) {
        digest.update(buffer, 0, n);
      }
      return HexFormat.of().formatHex(digest.digest());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
