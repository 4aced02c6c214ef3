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
