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

import dev.fenceline.spi.AlreadyApplied;
import dev.fenceline.spi.Applied;
import dev.fenceline.spi.BlobInfo;
import dev.fenceline.spi.BlobKey;
import dev.fenceline.spi.BlobStore;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.OperationConflictException;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Pointer;
import dev.fenceline.spi.PointerStore;
import dev.fenceline.spi.Receipt;
import dev.fenceline.spi.RejectedStale;
import dev.fenceline.spi.RequestFingerprint;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StepListener;
import dev.fenceline.spi.StoreException;
import dev.fenceline.spi.WriteOutcome;
import dev.fenceline.tck.memory.InMemoryBlobStore;
import dev.fenceline.tck.memory.InMemoryPointerStore;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * A retry of an applied operation is answered before anything is uploaded (the payload is only
 * hashed), with the same answers the atomic step gives; and an upload that fails halfway leaves
 * nothing in the staging area. Over the in-memory reference stores, with a blob store that counts
 * its puts.
 */
class StagedRetryBeforeUploadTest {

  private static final ResourceId RESOURCE = ResourceId.of("reports/nightly");

  private final InMemoryBlobStore memoryBlobs = new InMemoryBlobStore(Clock.systemUTC());
  private final CountingBlobStore blobs = new CountingBlobStore(memoryBlobs);
  private final InMemoryPointerStore.Storage storage = new InMemoryPointerStore.Storage();
  private final PointerStore pointers =
      new InMemoryPointerStore(storage, "tck", StepListener.NONE, Clock.systemUTC(), null);
  private final StagedDestination staged =
      StagedDestination.builder(blobs, pointers).prefix(BlobKey.of("published")).build();

  private static FencingToken token(long epoch) {
    return new FencingToken("issuer-1", RESOURCE, Epoch.of(epoch), "worker-" + epoch);
  }

  private static InputStream payload(String text) {
    return new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8));
  }

  private List<BlobKey> stagedKeys() {
    try (Stream<BlobInfo> all = memoryBlobs.list(BlobKey.of("published"))) {
      return all.map(BlobInfo::key).toList();
    }
  }

  @Test
  void aRetryOfAnAppliedOperationPutsNothingAndReadsThePayloadOnce() {
    Receipt first =
        ((Applied) staged.write(token(1), OperationId.of("op"), payload("report"))).receipt();
    InputStream retryPayload = payload("report");

    WriteOutcome retry = staged.write(token(1), OperationId.of("op"), retryPayload);

    assertThat(retry).isEqualTo(new AlreadyApplied(first));
    assertThat(blobs.puts.get()).as("blob puts: the first publish only").isEqualTo(1);
    assertThat(retryPayload).as("the retry's payload was read to its end, to hash it").isEmpty();
    assertThat(stagedKeys()).containsExactly(BlobKey.of(first.attributes().get("target")));
  }

  @Test
  void aRetryWithAnotherPayloadIsRefusedWithTheAtomicStepsExactConflictAndPutsNothing() {
    Receipt first =
        ((Applied) staged.write(token(1), OperationId.of("op"), payload("report"))).receipt();
    // What the pointer store itself says for this payload's fingerprint (today's answer, after
    // staging): the answer before staging must be the same.
    String atomicStepsMessage =
        catchConflict(
            () ->
                pointers.write(
                    token(1),
                    OperationId.of("op"),
                    new Pointer("published/elsewhere", Map.of()),
                    RequestFingerprint.sha256("another report")));

    assertThatThrownBy(
            () -> staged.write(token(1), OperationId.of("op"), payload("another report")))
        .isInstanceOf(OperationConflictException.class)
        .hasMessage(atomicStepsMessage)
        .satisfies(e -> assertThat(((OperationConflictException) e).recorded()).isEqualTo(first));
    assertThat(blobs.puts.get()).isEqualTo(1);
  }

  @Test
  void aStaleRetryIsRejectedAndANewerOwnersRetryRegistersItsEpoch() {
    Receipt first =
        ((Applied) staged.write(token(1), OperationId.of("op"), payload("report"))).receipt();

    assertThat(staged.write(token(2), OperationId.of("op"), payload("report")))
        .isEqualTo(new AlreadyApplied(first));
    assertThat(staged.currentEpoch(RESOURCE)).isEqualTo(Epoch.of(2));
    assertThat(staged.write(token(1), OperationId.of("op"), payload("report")))
        .isEqualTo(new RejectedStale(RESOURCE, Epoch.of(1), Epoch.of(2)));
    assertThat(blobs.puts.get()).isEqualTo(1);
  }

  @Test
  void anOperationRecordedByAnotherWriterThanAStagedDestinationIsLeftToTheAtomicStep() {
    // A pointer written directly, not a staged blob: its receipt has no comparable SHA-256, so
    // the payload is staged and the pointer store decides (and refuses), as before.
    pointers.write(
        token(1), OperationId.of("op"), new Pointer("somewhere/else", Map.of("size", "1")));

    assertThatThrownBy(() -> staged.write(token(1), OperationId.of("op"), payload("report")))
        .isInstanceOf(OperationConflictException.class);
    assertThat(blobs.puts.get()).isEqualTo(1);
    assertThat(stagedKeys()).as("the refused attempt's staged blob was deleted").isEmpty();
  }

  @Test
  void aPayloadThatFailsHalfwayLeavesNothingInTheStagingAreaEvenIfTheBlobStoreKeptAPart() {
    BlobStore keepsParts =
        new CountingBlobStore(memoryBlobs) {
          @Override
          public BlobInfo put(BlobKey key, InputStream content) {
            byte[] part = new byte[4];
            try {
              content.readNBytes(part, 0, part.length);
            } catch (IOException e) {
              throw new IllegalStateException(e);
            }
            memoryBlobs.put(key, new ByteArrayInputStream(part)); // a careless store's leftover
            throw new StoreException("Cannot put blob " + key + ": the payload failed", null);
          }
        };
    StagedDestination careless =
        StagedDestination.builder(keepsParts, pointers).prefix(BlobKey.of("published")).build();

    assertThatThrownBy(() -> careless.write(token(1), OperationId.of("op"), payload("report")))
        .isInstanceOf(StoreException.class)
        .hasMessageContaining("the payload failed");

    assertThat(stagedKeys()).as("the partial blob was deleted").isEmpty();
    assertThat(staged.lookup(RESOURCE, OperationId.of("op"))).isEmpty();
  }

  private static String catchConflict(Runnable write) {
    try {
      write.run();
    } catch (OperationConflictException e) {
      return e.getMessage();
    }
    throw new AssertionError("the pointer store accepted a conflicting fingerprint");
  }

  /** Forwards every call and counts the puts. */
  private static class CountingBlobStore extends ForwardingBlobStore {
    final AtomicInteger puts = new AtomicInteger();

    CountingBlobStore(BlobStore delegate) {
      super(delegate);
    }

    @Override
    public BlobInfo put(BlobKey key, InputStream content) {
      puts.incrementAndGet();
      return delegate.put(key, content);
    }
  }
}
