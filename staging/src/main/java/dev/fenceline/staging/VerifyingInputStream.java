package dev.fenceline.staging;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;

/** Streams a published blob and fails if its size or SHA-256 differs from the published ones. */
final class VerifyingInputStream extends FilterInputStream {

  private final PublishedBlob blob;
  private final MessageDigest digest = Digests.sha256();
  private long count;
  private boolean verified;

  VerifyingInputStream(InputStream in, PublishedBlob blob) {
    super(in);
    this.blob = blob;
  }

  @Override
  public int read() throws IOException {
    int b = super.read();
    if (b < 0) {
      verifyAtEnd();
    } else {
      digest.update((byte) b);
      counted(1);
    }
    return b;
  }

  @Override
  public int read(byte[] buffer, int offset, int length) throws IOException {
    int n = super.read(buffer, offset, length);
    if (n < 0) {
      verifyAtEnd();
    } else {
      digest.update(buffer, offset, n);
      counted(n);
    }
    return n;
  }

  @Override
  public long skip(long n) throws IOException {
    // Skipped bytes must be hashed too, so skip by reading.
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

  @Override
  public boolean markSupported() {
    return false;
  }

  @Override
  public synchronized void mark(int readlimit) {}

  @Override
  public synchronized void reset() throws IOException {
    throw new IOException("mark/reset not supported on a verifying stream");
  }

  private void counted(int n) throws BlobVerificationException {
    count += n;
    if (count > blob.size()) {
      throw new BlobVerificationException(
          "Cannot read "
              + blob.resource()
              + ": blob "
              + blob.key()
              + " is longer than the "
              + blob.size()
              + " bytes published (it was changed after publishing; republish)");
    }
  }

  private void verifyAtEnd() throws BlobVerificationException {
    if (verified) {
      return;
    }
    verified = true;
    String actual = Digests.hex(digest.digest());
    if (count != blob.size() || !actual.equals(blob.sha256())) {
      throw new BlobVerificationException(
          "Cannot read "
              + blob.resource()
              + ": blob "
              + blob.key()
              + " has "
              + count
              + " bytes with SHA-256 "
              + actual
              + ", but "
              + blob.size()
              + " bytes with SHA-256 "
              + blob.sha256()
              + " were published (it was changed or damaged after publishing; republish)");
    }
  }
}
