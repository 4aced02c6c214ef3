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
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fenceline.spi.Applied;
import dev.fenceline.spi.BlobInfo;
import dev.fenceline.spi.BlobKey;
import dev.fenceline.spi.BlobStore;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Pointer;
import dev.fenceline.spi.PointerStore;
import dev.fenceline.spi.Receipt;
import dev.fenceline.spi.RequestFingerprint;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StepListener;
import dev.fenceline.spi.StoreException;
import dev.fenceline.spi.UnsupportedCapabilityException;
import dev.fenceline.spi.WriteOutcome;
import dev.fenceline.tck.memory.InMemoryBlobStore;
import dev.fenceline.tck.memory.InMemoryPointerStore;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * {@link StagedDestination}'s own decisions when a store misbehaves, and its configuration: the
 * blob store losing bytes, failures while cleaning up, the staging key's shape, the builder's
 * limits. Over the in-memory reference stores; the contract covers every store pair.
 */
class StagedDestinationFailuresTest {

  private static final ResourceId RESOURCE = ResourceId.of("reports/nightly");

  private final InMemoryBlobStore memoryBlobs = new InMemoryBlobStore(Clock.systemUTC());
  private final InMemoryPointerStore.Storage storage = new InMemoryPointerStore.Storage();
  private final PointerStore pointers =
      new InMemoryPointerStore(storage, "tck", StepListener.NONE, Clock.systemUTC(), null);

  private static FencingToken token(long epoch) {
    return new FencingToken("issuer-1", RESOURCE, Epoch.of(epoch), "worker-" + epoch);
  }

  private static InputStream payload(String text) {
    return new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8));
  }

  private StagedDestination over(BlobStore blobs, PointerStore pointerStore) {
    return StagedDestination.builder(blobs, pointerStore).prefix(BlobKey.of("published")).build();
  }

  private List<BlobKey> staged() {
    try (Stream<BlobInfo> all = memoryBlobs.list(BlobKey.of("published"))) {
      return all.map(BlobInfo::key).toList();
    }
  }

  @Test
  void aBlobStoreThatKeepsFewerBytesThanWereStreamedFailsTheWriteAndPublishesNothing() {
    BlobStore losingBytes =
        new ForwardingBlobStore(memoryBlobs) {
          @Override
          public BlobInfo put(BlobKey key, InputStream content) {
            BlobInfo stored = delegate.put(key, content);
            return new BlobInfo(stored.key(), stored.size() - 1, stored.lastModified());
          }
        };

    assertThatThrownBy(
            () ->
                over(losingBytes, pointers).write(token(1), OperationId.of("op"), payload("four")))
        .isInstanceOfSatisfying(StoreException.class, e -> assertThat(e.outcomeUnknown()).isFalse())
        .hasMessageStartingWith("Cannot stage " + RESOURCE + ": the blob store reports 3 bytes at ")
        .hasMessageEndingWith(" but 4 bytes were streamed (the blob store lost data; retry)");
    assertThat(pointers.current(RESOURCE)).isEmpty();
    assertThat(pointers.lookup(RESOURCE, OperationId.of("op"))).isEmpty();
    assertThat(staged()).as("the short blob is deleted").isEmpty();
  }

  @Test
  void aBlobPutWithAnUnknownOutcomeIsAFailureWithAKnownOutcomeSinceNoPointerNamesTheBlob() {
    BlobStore losingAnswers =
        new ForwardingBlobStore(memoryBlobs) {
          @Override
          public BlobInfo put(BlobKey key, InputStream content) {
            delegate.put(key, content);
            throw new StoreException("Cannot put " + key + ": the answer was lost", null, true);
          }
        };

    assertThatThrownBy(
            () -> over(losingAnswers, pointers).write(token(1), OperationId.of("op"), payload("x")))
        .isInstanceOfSatisfying(StoreException.class, e -> assertThat(e.outcomeUnknown()).isFalse())
        .hasMessageStartingWith("Cannot stage " + RESOURCE + " for operation op: Cannot put ")
        .hasMessageEndingWith("; nothing was published (retry with the same operation ID)");
    assertThat(pointers.lookup(RESOURCE, OperationId.of("op"))).isEmpty();
    assertThat(staged()).as("the blob that may have landed is deleted").isEmpty();
  }

  @Test
  void aPointerStoreFailureWithAKnownOutcomeDeletesTheStagedBlob() {
    PointerStore failing =
        new ForwardingPointerStore(pointers) {
          @Override
          public WriteOutcome write(
              FencingToken token, OperationId operation, Pointer change, RequestFingerprint fp) {
            throw new StoreException("Cannot write: the connection was refused (retry)", null);
          }
        };

    assertThatThrownBy(
            () -> over(memoryBlobs, failing).write(token(1), OperationId.of("op"), payload("x")))
        .isInstanceOfSatisfying(
            StoreException.class, e -> assertThat(e.outcomeUnknown()).isFalse());
    assertThat(staged()).as("nothing can name the staged blob").isEmpty();
  }

  @Test
  void aRefusedWriteWhoseStagedBlobCannotBeDeletedIsStillRefusedAndTheSweepRemovesTheBlob() {
    BlobStore notDeleting =
        new ForwardingBlobStore(memoryBlobs) {
          @Override
          public boolean delete(BlobKey key) {
            throw new StoreException("Cannot delete blob " + key + ": permission denied", null);
          }
        };
    Receipt first =
        ((Applied)
                over(notDeleting, pointers).write(token(1), OperationId.of("op"), payload("first")))
            .receipt();
    // A newer owner registers while the second write is between staging and swapping, so the
    // atomic step refuses it after its blob was staged. (A retry reusing the operation ID for
    // another payload is refused before staging, so it no longer stages a blob to leave behind.)
    StagedDestination overtaken =
        StagedDestination.builder(notDeleting, pointers)
            .prefix(BlobKey.of("published"))
            .steps(
                (step, token, operation) -> {
                  if (step == dev.fenceline.spi.FencingStep.AFTER_STAGE) {
                    pointers.register(token(2));
                  }
                })
            .build();

    assertThat(overtaken.write(token(1), OperationId.of("op-2"), payload("something else")))
        .isInstanceOf(dev.fenceline.spi.RejectedStale.class);
    assertThat(staged()).hasSize(2);
    pointers.register(token(2));
    SweepReport report =
        StagedDestination.builder(memoryBlobs, pointers)
            .prefix(BlobKey.of("published"))
            .keepVersions(1)
            .clock(Clock.fixed(Instant.now().plus(Duration.ofDays(1)), ZoneOffset.UTC))
            .build()
            .sweep();

    assertThat(report.deleted())
        .hasSize(1)
        .doesNotContain(BlobKey.of(first.attribute("target").orElseThrow()));
    assertThat(report.kept()).isEqualTo(1);
    assertThat(staged())
        .extracting(BlobKey::value)
        .containsExactly(first.attribute("target").orElseThrow());
  }

  @Test
  void aBlobThatAnotherSweepDeletedFirstIsCountedAsKeptNotDeleted() {
    StagedDestination destination = over(memoryBlobs, pointers);
    destination.write(token(1), OperationId.of("op-1"), payload("one"));
    destination.write(token(2), OperationId.of("op-2"), payload("two"));
    BlobStore raced =
        new ForwardingBlobStore(memoryBlobs) {
          @Override
          public boolean delete(BlobKey key) {
            delegate.delete(key); // another sweep got there first
            return false;
          }
        };

    SweepReport report =
        StagedDestination.builder(raced, pointers)
            .prefix(BlobKey.of("published"))
            .keepVersions(1)
            .clock(Clock.fixed(Instant.now().plus(Duration.ofDays(1)), ZoneOffset.UTC))
            .build()
            .sweep();

    assertThat(report.deleted()).isEmpty();
    assertThat(report.kept()).isEqualTo(2);
  }

  @Test
  void theSweepKeepsOnlyTheCurrentVersionWithKeepVersionsOneAndHonoursAZeroGrace() {
    StagedDestination destination = over(memoryBlobs, pointers);
    Receipt one =
        ((Applied) destination.write(token(1), OperationId.of("op-1"), payload("one"))).receipt();
    Receipt two =
        ((Applied) destination.write(token(2), OperationId.of("op-2"), payload("two"))).receipt();

    SweepReport report =
        StagedDestination.builder(memoryBlobs, pointers)
            .prefix(BlobKey.of("published"))
            .keepVersions(1)
            .sweepGrace(Duration.ZERO)
            .clock(Clock.fixed(Instant.now().plus(Duration.ofSeconds(1)), ZoneOffset.UTC))
            .build()
            .sweep();

    assertThat(report.deleted())
        .extracting(BlobKey::value)
        .containsExactly(one.attribute("target").orElseThrow());
    assertThat(report.kept()).isEqualTo(1);
    assertThat(staged())
        .extracting(BlobKey::value)
        .containsExactly(two.attribute("target").orElseThrow());
  }

  @Test
  void theBuilderRefusesANegativeGraceAndFewerThanOneKeptVersion() {
    StagedDestination.Builder builder = StagedDestination.builder(memoryBlobs, pointers);

    assertThatThrownBy(() -> builder.sweepGrace(Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot use sweep grace PT-1S: it is negative (e.g. PT1H)");
    assertThatThrownBy(() -> builder.keepVersions(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot keep 0 versions: the current version is always kept (use 1 or more)");
    assertThatCode(() -> builder.keepVersions(1).sweepGrace(Duration.ZERO))
        .doesNotThrowAnyException();
  }

  @Test
  void withoutAPrefixTheStagingAreaIsAtTheRootAndTheKeyShowsEpochAndOperation() throws IOException {
    StagedDestination destination = StagedDestination.builder(memoryBlobs, pointers).build();
    assertThat(destination.name())
        .as("operations are recorded in the pointer store's scope")
        .isEqualTo("tck");
    String operation = "`azAZ09{@[/:._-é" + "x".repeat(80);

    Receipt receipt =
        ((Applied) destination.write(token(7), OperationId.of(operation), payload("report")))
            .receipt();

    String area = ".fenceline/staging/" + pointers.storeId() + ".tck/" + RESOURCE + "/";
    String target = receipt.attribute("target").orElseThrow();
    assertThat(target).startsWith(area);
    // Only [A-Za-z0-9._-] are kept, the rest becomes _, cut at 64 characters; then 12 random bytes.
    String slug = "_azAZ09_____._-_" + "x".repeat(64 - 16);
    assertThat(target.substring(area.length()))
        .matches("7-" + Pattern.quote(slug) + "-[0-9a-f]{24}");
    assertThat(destination.resolve(RESOURCE).orElseThrow().key().value()).isEqualTo(target);
    try (InputStream in = destination.open(RESOURCE)) {
      assertThat(in.readAllBytes()).isEqualTo("report".getBytes(StandardCharsets.UTF_8));
    }
  }

  @Test
  void anEmptyPayloadIsPublishedAndReadBack() throws IOException {
    StagedDestination destination = over(memoryBlobs, pointers);

    assertThat(destination.write(token(1), OperationId.of("empty"), payload("")))
        .isInstanceOf(Applied.class);

    assertThat(destination.resolve(RESOURCE).orElseThrow().size()).isZero();
    try (InputStream in = destination.open(RESOURCE)) {
      assertThat(in.readAllBytes()).isEmpty();
    }
  }

  @Test
  void aPointerWithoutSizeOrWithoutChecksumIsAStoreException() {
    StagedDestination destination = over(memoryBlobs, pointers);
    String target =
        "published/.fenceline/staging/" + pointers.storeId() + ".tck/" + RESOURCE + "/1-op-x";
    List<Map<String, String>> incomplete =
        List.of(
            Map.of(StagedDestination.SIZE_ATTRIBUTE, "6"),
            Map.of(StagedDestination.SHA256_ATTRIBUTE, "00"));

    long epoch = 1;
    for (Map<String, String> attributes : incomplete) {
      pointers.write(
          token(epoch), OperationId.of("forged-" + epoch), new Pointer(target, attributes));

      assertThatThrownBy(() -> destination.resolve(RESOURCE))
          .as("%s", attributes)
          .isInstanceOf(StoreException.class)
          .hasMessage(
              "Cannot resolve "
                  + RESOURCE
                  + ": its publish pointer (version "
                  + epoch
                  + ") has no size and sha256 (it was not written by a StagedDestination)");
      epoch++;
    }
  }

  @Test
  void aForgedTargetIsQuotedWithControlCharactersEscapedAndCut() {
    StagedDestination destination = over(memoryBlobs, pointers);
    String forged = "a\"b\\c\nd\u2028\u2029e" + "f".repeat(300);
    pointers.write(
        token(1),
        OperationId.of("forged"),
        new Pointer(
            forged,
            Map.of(
                StagedDestination.SIZE_ATTRIBUTE, "1", StagedDestination.SHA256_ATTRIBUTE, "0")));

    assertThatThrownBy(() -> destination.resolve(RESOURCE))
        .isInstanceOf(StoreException.class)
        .hasMessageContaining(
            "names target \"a\\\"b\\\\c\\u000ad\\u2028\\u2029e"
                + "f".repeat(190)
                + "...\", which ");
  }

  @Test
  void anEpochResetNeedsAPointerStoreThatSupportsIt() {
    StagedDestination overPlainStore = over(memoryBlobs, new ForwardingPointerStore(pointers));

    assertThatThrownBy(
            () -> overPlainStore.resetRegisteredEpoch(RESOURCE, Epoch.of(1), "locked out"))
        .isInstanceOf(UnsupportedCapabilityException.class)
        .hasMessage(
            "Cannot reset the registered epoch of "
                + RESOURCE
                + ": the pointer store ForwardingPointerStore does not support it (reset it at"
                + " the store itself)");
    assertThat(over(memoryBlobs, pointers).resetRegisteredEpoch(RESOURCE, Epoch.of(3), "test"))
        .isEqualTo(Epoch.NONE);
    assertThat(pointers.currentEpoch(RESOURCE)).isEqualTo(Epoch.of(3));
  }
}
