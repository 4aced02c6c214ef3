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

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fenceline.spi.BlobKey;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.ResourceId;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

class VerifyingInputStreamTest {

  private static PublishedBlob published(String content) throws Exception {
    byte[] bytes = content.getBytes(StandardCharsets.UTF_8);
    String sha256 = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    return new PublishedBlob(
        ResourceId.of("r"),
        BlobKey.of("k"),
        bytes.length,
        sha256,
        Epoch.of(1),
        OperationId.of("o"),
        1);
  }

  private static InputStream reading(String stored, PublishedBlob blob) {
    return new VerifyingInputStream(
        new ByteArrayInputStream(stored.getBytes(StandardCharsets.UTF_8)), blob);
  }

  @Test
  void theIntactBlobReadsThrough() throws Exception {
    try (InputStream in = reading("the real report", published("the real report"))) {
      assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8))
          .isEqualTo("the real report");
    }
    try (InputStream in = reading("", published(""))) {
      assertThat(in.readAllBytes()).isEmpty();
    }
  }

  @Test
  void aReaderThatStopsAtThePublishedSizeStillGetsTheCheck() throws Exception {
    PublishedBlob blob = published("the real report");
    try (InputStream in = reading("the fake report", blob)) {
      assertThatThrownBy(() -> in.readNBytes((int) blob.size()))
          .isInstanceOf(BlobVerificationException.class)
          .hasMessageContaining("SHA-256");
    }
  }

  @Test
  void aFailureIsStickyNotAQuietEndOfStream() throws Exception {
    try (InputStream in = reading("the fake report", published("the real report"))) {
      assertThatThrownBy(in::readAllBytes).isInstanceOf(BlobVerificationException.class);
      assertThatThrownBy(in::read).isInstanceOf(BlobVerificationException.class);
      assertThatThrownBy(() -> in.read(new byte[4])).isInstanceOf(BlobVerificationException.class);
    }
  }

  @Test
  void longerAndShorterBlobsFail() throws Exception {
    try (InputStream in = reading("the real report, and more", published("the real report"))) {
      assertThatThrownBy(in::readAllBytes).hasMessageContaining("is longer than the 15 bytes");
    }
    try (InputStream in = reading("the real", published("the real report"))) {
      assertThatThrownBy(in::readAllBytes).hasMessageContaining("ends after 8 of the 15 bytes");
    }
    try (InputStream in = reading("the real report", published("the real report"))) {
      assertThat(in.skip(15)).isEqualTo(15);
      assertThat(in.read()).isEqualTo(-1);
    }
  }

  @Test
  void skippingDoesNotBypassTheCheck() throws Exception {
    try (InputStream in = reading("the fake report", published("the real report"))) {
      assertThatThrownBy(() -> in.skip(100)).isInstanceOf(BlobVerificationException.class);
    }
  }
}
