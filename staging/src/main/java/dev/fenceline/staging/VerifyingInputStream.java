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
import java.io.InputStream;

/**
 * Streams a published blob and fails if its size or SHA-256 differs from the published ones. The
 * check runs as soon as the published size is reached, before the last chunk is handed out, so a
 * reader that stops after exactly that many bytes (and never reads the end) is covered too. A
 * failure is sticky: every later call throws it again.
 */
final class VerifyingInputStream extends CountingDigestInputStream {

  private final PublishedBlob blob;
  private boolean verified;
  private BlobVerificationException failure;

  VerifyingInputStream(InputStream in, PublishedBlob blob) {
    super(in);
    this.blob = blob;
  }

  @Override
  public int read() throws IOException {
    rethrowFailure();
    return super.read();
  }

  @Override
  public int read(byte[] buffer, int offset, int length) throws IOException {
    rethrowFailure();
    return super.read(buffer, offset, length);
  }

  @Override
  void afterBytes() throws BlobVerificationException {
    if (count() > blob.size()) {
      fail(
          "is longer than the "
              + blob.size()
              + " bytes published (it was changed after publishing; republish)");
    }
    if (count() == blob.size()) {
      verifyDigest();
    }
  }

  @Override
  void atEnd() throws BlobVerificationException {
    if (count() < blob.size()) {
      fail(
          "ends after "
              + count()
              + " of the "
              + blob.size()
              + " bytes published (it was truncated; republish)");
    }
    verifyDigest(); // a zero-byte blob reaches its size only here
  }

  private void verifyDigest() throws BlobVerificationException {
    if (verified) {
      return;
    }
    verified = true;
    String actual = sha256();
    if (!actual.equals(blob.sha256())) {
      fail(
          "has SHA-256 "
              + actual
              + ", but "
              + blob.sha256()
              + " was published (it was changed or damaged after publishing; republish)");
    }
  }

  private void fail(String problem) throws BlobVerificationException {
    failure =
        new BlobVerificationException(
            "Cannot read " + blob.resource() + ": blob " + blob.key() + " " + problem);
    throw failure;
  }

  private void rethrowFailure() throws BlobVerificationException {
    if (failure != null) {
      throw new BlobVerificationException(failure.getMessage());
    }
  }
}
