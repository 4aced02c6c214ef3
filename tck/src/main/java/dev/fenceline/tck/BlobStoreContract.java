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

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fenceline.spi.BlobInfo;
import dev.fenceline.spi.BlobKey;
import dev.fenceline.spi.BlobStore;
import dev.fenceline.spi.StoreException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The conformance suite every {@link BlobStore} passes. */
public abstract class BlobStoreContract {

  private static final java.util.concurrent.atomic.AtomicLong COUNTER =
      new java.util.concurrent.atomic.AtomicLong();

  /** The blob store under test. */
  protected abstract BlobStore blobStore();

  /**
   * Whether {@link BlobStore#put} refuses a key that already holds a blob (default true). A store
   * on an endpoint that ignores create-only conditions (S3Proxy 2.x) returns false and documents
   * it; the suite then checks that documented behaviour instead: the second put replaces the blob.
   */
  protected boolean refusesExistingKeys() {
    return true;
  }

  /** A key prefix no other test uses. */
  protected BlobKey freshPrefix(String name) {
    return BlobKey.of("tck/" + name + "-" + System.nanoTime() + "-" + COUNTER.incrementAndGet());
  }

  private static InputStream text(String value) {
    return new ByteArrayInputStream(value.getBytes(StandardCharsets.UTF_8));
  }

  private String read(BlobKey key) {
    try (InputStream in = blobStore().open(key)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Test
  void putStoresTheContentUnderANestedKey() {
    BlobKey key = freshPrefix("put").resolve("reports/2026-10-27.csv");

    BlobInfo info = blobStore().put(key, text("day,orders\n2026-10-27,42\n"));

    assertThat(info.key()).isEqualTo(key);
    assertThat(info.size()).isEqualTo(25);
    assertThat(blobStore().stat(key)).hasValueSatisfying(s -> assertThat(s.size()).isEqualTo(25));
    assertThat(read(key)).isEqualTo("day,orders\n2026-10-27,42\n");
  }

  @Test
  void putNeverReplacesAnExistingBlob() {
    BlobKey key = freshPrefix("exists").resolve("blob");
    blobStore().put(key, text("first"));
    if (!refusesExistingKeys()) {
      blobStore().put(key, text("second"));
      assertThat(read(key)).isEqualTo("second");
      return;
    }

    assertThatThrownBy(() -> blobStore().put(key, text("second")))
        .isInstanceOf(StoreException.class)
        .hasMessageContaining(key.value());

    assertThat(read(key)).isEqualTo("first");
  }

  @Test
  void aPayloadThatFailsHalfwayLeavesNoCompleteBlob() {
    BlobKey key = freshPrefix("failing").resolve("blob");
    InputStream failing =
        new InputStream() {
          private int served;

          @Override
          public int read() throws IOException {
            if (served++ < 100_000) {
              return 'x';
            }
            throw new IOException("the producer crashed");
          }
        };

    assertThatThrownBy(() -> blobStore().put(key, failing))
        .isInstanceOf(StoreException.class)
        .hasMessageContaining(key.value())
        .hasMessageContaining("the producer crashed");

    assertThat(blobStore().stat(key)).isEmpty();
  }

  @Test
  void missingBlobsAreReportedClearly() {
    BlobKey key = freshPrefix("missing").resolve("nothing-here");

    assertThat(blobStore().stat(key)).isEmpty();
    assertThat(blobStore().delete(key)).isFalse();
    assertThatThrownBy(() -> blobStore().open(key))
        .isInstanceOf(StoreException.class)
        .hasMessageContaining(key.value());
  }

  @Test
  void deleteRemovesTheBlob() {
    BlobKey key = freshPrefix("delete").resolve("blob");
    blobStore().put(key, text("bye"));

    assertThat(blobStore().delete(key)).isTrue();

    assertThat(blobStore().stat(key)).isEmpty();
  }

  @Test
  void listReturnsEveryBlobBelowThePrefixAndNothingBeside() {
    BlobKey prefix = freshPrefix("list");
    blobStore().put(prefix.resolve("a/1"), text("1"));
    blobStore().put(prefix.resolve("a/deeper/2"), text("22"));
    blobStore().put(prefix.resolve("ab/3"), text("333"));

    List<String> listed;
    try (Stream<BlobInfo> blobs = blobStore().list(prefix.resolve("a"))) {
      listed = blobs.map(info -> info.key().value() + ":" + info.size()).sorted().toList();
    }

    assertThat(listed)
        .containsExactly(prefix.resolve("a/1") + ":1", prefix.resolve("a/deeper/2") + ":2");
    try (Stream<BlobInfo> none = blobStore().list(prefix.resolve("nothing"))) {
      assertThat(none).isEmpty();
    }
  }

  @Test
  void aLargePayloadRoundTrips() throws IOException {
    BlobKey key = freshPrefix("large").resolve("blob");
    long size = 8L * 1024 * 1024 + 13;

    BlobInfo info = blobStore().put(key, Payloads.generated(size, 7));

    assertThat(info.size()).isEqualTo(size);
    try (InputStream in = blobStore().open(key)) {
      assertThat(Payloads.sha256(in)).isEqualTo(Payloads.sha256(Payloads.generated(size, 7)));
    }
  }
}
