package dev.fenceline.staging;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;

/** Passes a payload through to the blob store while counting it and computing its SHA-256. */
final class CountingDigestInputStream extends FilterInputStream {

  private final MessageDigest digest = Digests.sha256();
  private long count;

  CountingDigestInputStream(InputStream in) {
    super(in);
  }

  @Override
  public int read() throws IOException {
    int b = super.read();
    if (b >= 0) {
      digest.update((byte) b);
      count++;
    }
    return b;
  }

  @Override
  public int read(byte[] buffer, int offset, int length) throws IOException {
    int n = super.read(buffer, offset, length);
    if (n > 0) {
      digest.update(buffer, offset, n);
      count += n;
    }
    return n;
  }

  @Override
  public long skip(long n) {
    return 0; // every byte must pass through the digest; callers fall back to read()
  }

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

  String sha256() {
    return Digests.hex(digest.digest());
  }
}
