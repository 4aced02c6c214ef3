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
