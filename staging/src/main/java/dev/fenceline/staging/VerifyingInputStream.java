package dev.fenceline.staging;

import java.io.InputStream;

/** Streams a published blob and fails if its size or SHA-256 differs from the published ones. */
final class VerifyingInputStream extends CountingDigestInputStream {

  private final PublishedBlob blob;
  private boolean verified;

  VerifyingInputStream(InputStream in, PublishedBlob blob) {
    super(in);
    this.blob = blob;
  }

  @Override
  void afterBytes() throws BlobVerificationException {
    if (count() > blob.size()) {
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

  @Override
  void atEnd() throws BlobVerificationException {
    if (verified) {
      return;
    }
    verified = true;
    String actual = sha256();
    if (count() != blob.size() || !actual.equals(blob.sha256())) {
      throw new BlobVerificationException(
          "Cannot read "
              + blob.resource()
              + ": blob "
              + blob.key()
              + " has "
              + count()
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
