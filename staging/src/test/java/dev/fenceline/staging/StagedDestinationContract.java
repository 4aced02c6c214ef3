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
import dev.fenceline.spi.Destination;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingStep;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.Guarantee;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Pointer;
import dev.fenceline.spi.PointerState;
import dev.fenceline.spi.PointerStore;
import dev.fenceline.spi.Receipt;
import dev.fenceline.spi.RejectedStale;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StepListener;
import dev.fenceline.spi.StoreException;
import dev.fenceline.spi.TokenKeys;
import dev.fenceline.spi.WriteOutcome;
import dev.fenceline.tck.Concurrently;
import dev.fenceline.tck.DestinationContract;
import dev.fenceline.tck.PausePoints;
import dev.fenceline.tck.PausePoints.Pause;
import dev.fenceline.tck.Payloads;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The destination suite and the staging-specific tests for {@link StagedDestination} over a given
 * blob store and pointer store. Blob-store adapters subclass it in their tests (R6, R11). A staged
 * destination serializes its swaps in its pointer store: {@link #concurrencyControl()} is the
 * pointer store's.
 */
public abstract class StagedDestinationContract extends DestinationContract<InputStream> {

  /** The blob store payloads are staged in. */
  protected abstract BlobStore blobStore();

  /**
   * A pointer store named {@code name} over the store as it is now, reporting steps to {@code
   * steps}; if {@code keys} is present it refuses tokens not signed with them.
   */
  protected abstract PointerStore pointerStore(
      String name, StepListener steps, Optional<TokenKeys> keys);

  /** Replaces the bytes of a stored blob behind Fenceline's back (damage, an outside writer). */
  protected abstract void overwriteBlob(BlobKey key, byte[] bytes);

  /** A staged destination; the sweep's clock and grace are given by the test. */
  protected StagedDestination staged(StepListener steps, Clock sweepClock, Duration grace) {
    return staged("tck", steps, Optional.empty(), sweepClock, grace);
  }

  private StagedDestination staged(
      String name, StepListener steps, Optional<TokenKeys> keys, Clock sweepClock, Duration grace) {
    return stagedOver(pointerStore(name, steps, keys), steps, sweepClock, grace);
  }

  /** A staged destination over {@code pointers} (a wrapper the test interferes with). */
  private StagedDestination stagedOver(
      PointerStore pointers, StepListener steps, Clock sweepClock, Duration grace) {
    return StagedDestination.builder(blobStore(), pointers)
        .prefix(BlobKey.of("published"))
        .steps(steps)
        .keepVersions(2)
        .sweepGrace(grace)
        .clock(sweepClock)
        .build();
  }

  private StagedDestination staged() {
    return staged(StepListener.NONE, Clock.systemUTC(), Duration.ofHours(1));
  }

  /** A sweep that treats every blob as older than the grace period. */
  private StagedDestination stagedSweepingEverythingOld() {
    return staged(StepListener.NONE, aDayLater(), Duration.ofHours(1));
  }

  private static Clock aDayLater() {
    return Clock.fixed(Instant.now().plus(Duration.ofDays(1)), ZoneOffset.UTC);
  }

  @Override
  protected final Destination<InputStream> destination(
      String name, StepListener steps, Optional<TokenKeys> keys) {
    return staged(name, steps, keys, Clock.systemUTC(), Duration.ofHours(1));
  }

  @Override
  protected final InputStream change(ResourceId resource, String payload) {
    return new ByteArrayInputStream(payload.getBytes(StandardCharsets.UTF_8));
  }

  @Override
  protected final Optional<String> published(ResourceId resource) {
    if (staged().resolve(resource).isEmpty()) {
      return Optional.empty();
    }
    try (InputStream in = staged().open(resource)) {
      return Optional.of(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  protected final long applyCount(ResourceId resource) {
    return tckPointers().current(resource).map(PointerState::version).orElse(0L);
  }

  private PointerStore tckPointers() {
    return pointerStore("tck", StepListener.NONE, Optional.empty());
  }

  private FencingToken token(ResourceId resource, long epoch, String holder) {
    return new FencingToken(issuer().id(), resource, Epoch.of(epoch), holder);
  }

  /** The staging area of the pointer store named {@code name}: bound to the store's identity. */
  private String stagingArea(String name) {
    return "published/.fenceline/staging/" + tckPointers().storeId() + "." + name;
  }

  private WriteOutcome publish(StagedDestination to, FencingToken token, String op, String text) {
    return to.write(token, OperationId.of(op), change(token.resource(), text));
  }

  private List<BlobKey> stagedBlobs(ResourceId resource) {
    return stagedBlobs("tck", resource);
  }

  private List<BlobKey> stagedBlobs(String pointerStoreName, ResourceId resource) {
    try (Stream<BlobInfo> blobs =
        blobStore().list(BlobKey.of(stagingArea(pointerStoreName)).resolve(resource.value()))) {
      return blobs.map(BlobInfo::key).sorted().toList();
    }
  }

  @Test
  void twoPointerStoresSharingABlobPrefixNeverSweepEachOthersBlobs() {
    ResourceId resource = freshResource("staged-shared-prefix");
    Clock later = Clock.fixed(Instant.now().plus(Duration.ofDays(1)), ZoneOffset.UTC);
    StagedDestination reports =
        staged("reports", StepListener.NONE, Optional.empty(), Clock.systemUTC(), Duration.ZERO);
    for (int epoch = 1; epoch <= 3; epoch++) {
      publish(reports, token(resource, epoch, "worker"), "v" + epoch, "report " + epoch);
    }
    StagedDestination thumbnails =
        staged("thumbnails", StepListener.NONE, Optional.empty(), later, Duration.ZERO);
    publish(thumbnails, token(resource, 3, "worker"), "t3", "thumbnail 3");
    assertThat(stagedBlobs("reports", resource)).hasSize(3);

    SweepReport report = thumbnails.sweep();

    assertThat(report.deleted()).as("the thumbnails' sweep sees only its own area").isEmpty();
    assertThat(stagedBlobs("reports", resource)).hasSize(3);
    try (InputStream in = reports.open(resource)) {
      assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("report 3");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Test
  void aRetryWithTheSamePayloadIsAlreadyAppliedAndAnotherPayloadIsRefusedAndCleanedUp() {
    ResourceId resource = freshResource("staged-fingerprint");
    FencingToken token = token(resource, 7, "worker-a");
    Receipt first = ((Applied) publish(staged(), token, "report", "payload 1")).receipt();

    assertThat(publish(staged(), token, "report", "payload 1"))
        .isEqualTo(new dev.fenceline.spi.AlreadyApplied(first));
    assertThatThrownBy(() -> publish(staged(), token, "report", "payload 2"))
        .isInstanceOf(dev.fenceline.spi.OperationConflictException.class);

    assertThat(published(resource)).contains("payload 1");
    assertThat(stagedBlobs(resource))
        .as("the retry's and the refused attempt's staged blobs are deleted")
        .singleElement()
        .satisfies(key -> assertThat(key.value()).isEqualTo(first.attributes().get("target")));
  }

  @Test
  void reportsFencedByStaging() {
    assertThat(staged().guarantee()).isEqualTo(Guarantee.FENCED_BY_STAGING);
  }

  @Test
  void theReceiptNamesTheStagedKeyItsSizeAndItsChecksum() {
    ResourceId resource = freshResource("staged-receipt");

    Receipt receipt =
        ((Applied) publish(staged(), token(resource, 5, "worker-a"), "op", "hello")).receipt();

    assertThat(receipt.attribute(PointerStore.TARGET_ATTRIBUTE).orElseThrow())
        .startsWith(stagingArea("tck") + "/" + resource + "/5-op-");
    assertThat(receipt.attribute(StagedDestination.SIZE_ATTRIBUTE)).contains("5");
    assertThat(receipt.attribute(StagedDestination.SHA256_ATTRIBUTE))
        .contains("2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824");
    assertThat(staged().resolve(resource))
        .hasValueSatisfying(
            blob -> {
              assertThat(blob.key().value()).isEqualTo(receipt.attributes().get("target"));
              assertThat(blob.size()).isEqualTo(5);
              assertThat(blob.epoch()).isEqualTo(Epoch.of(5));
            });
  }

  @Test
  void aStaleWritersStagedBlobIsNeverServedAndIsDeleted() {
    ResourceId resource = freshResource("staged-stale");
    PausePoints pauses = new PausePoints();
    Pause staged = pauses.pauseAt(FencingStep.AFTER_STAGE, "worker-a");
    StagedDestination destinationOfA = staged(pauses, Clock.systemUTC(), Duration.ofHours(1));
    CompletableFuture<WriteOutcome> writerA =
        Concurrently.start(
            "worker-a",
            () ->
                publish(destinationOfA, token(resource, 33, "worker-a"), "report", "result of A"));
    staged.awaitReached();
    assertThat(stagedBlobs(resource)).hasSize(1);

    publish(staged(), token(resource, 34, "worker-b"), "report-b", "result of B");
    staged.resume();

    assertThat(Concurrently.await(writerA))
        .isEqualTo(new RejectedStale(resource, Epoch.of(33), Epoch.of(34)));
    assertThat(published(resource)).contains("result of B");
    assertThat(stagedBlobs(resource))
        .singleElement()
        .satisfies(key -> assertThat(key.value()).contains("/34-report-b-"));
  }

  @Test
  void theSweepDeletesAStaleOrphanButNeverTheCurrentEpochsBlobs() {
    ResourceId resource = freshResource("staged-sweep");
    PausePoints crashA = new PausePoints();
    crashA.failAt(FencingStep.AFTER_STAGE, "worker-a");
    assertThatThrownBy(
            () ->
                publish(
                    staged(crashA, Clock.systemUTC(), Duration.ofHours(1)),
                    token(resource, 33, "worker-a"),
                    "report",
                    "orphan of A"))
        .isInstanceOf(PausePoints.SimulatedCrash.class);
    PausePoints crashB = new PausePoints();
    crashB.failAt(FencingStep.AFTER_STAGE, "worker-b");
    assertThatThrownBy(
            () ->
                publish(
                    staged(crashB, Clock.systemUTC(), Duration.ofHours(1)),
                    token(resource, 34, "worker-b"),
                    "report",
                    "orphan of B"))
        .isInstanceOf(PausePoints.SimulatedCrash.class);
    assertThat(stagedBlobs(resource)).hasSize(2);
    staged().register(token(resource, 34, "worker-b"));

    assertThat(staged().sweep().deleted()).as("within the grace period").isEmpty();
    SweepReport report = stagedSweepingEverythingOld().sweep();

    // A store shared by the contract's tests may hold other resources' old orphans: this
    // resource's part of the sweep is the subject here.
    assertThat(report.deleted())
        .filteredOn(key -> key.value().contains("/" + resource.value() + "/"))
        .singleElement()
        .satisfies(key -> assertThat(key.value()).contains("/33-report-"));
    assertThat(stagedBlobs(resource))
        .singleElement()
        .satisfies(key -> assertThat(key.value()).contains("/34-report-"));
  }

  @Test
  void theSweepKeepsTheNewestVersionsAndDeletesOlderOnes() {
    ResourceId resource = freshResource("staged-versions");
    for (int epoch = 1; epoch <= 4; epoch++) {
      publish(staged(), token(resource, epoch, "worker-" + epoch), "v" + epoch, "version " + epoch);
    }
    assertThat(stagedBlobs(resource)).hasSize(4);

    stagedSweepingEverythingOld().sweep();

    assertThat(stagedBlobs(resource))
        .extracting(BlobKey::value)
        .satisfiesExactlyInAnyOrder(
            key -> assertThat(key).contains("/3-v3-"), key -> assertThat(key).contains("/4-v4-"));
    assertThat(published(resource)).contains("version 4");
  }

  @Test
  void aSweepOfOneResourceLeavesEveryOtherResourceAlone() {
    ResourceId swept = freshResource("staged-one");
    ResourceId below = ResourceId.of(swept.value() + "/below");
    ResourceId beside = ResourceId.of(swept.value() + "-beside");
    for (ResourceId resource : List.of(swept, below, beside)) {
      for (int epoch = 1; epoch <= 3; epoch++) {
        publish(staged(), token(resource, epoch, "worker-" + epoch), "v" + epoch, "v" + epoch);
      }
    }

    SweepReport report = stagedSweepingEverythingOld().sweep(swept);

    assertThat(report.deleted())
        .singleElement()
        .satisfies(key -> assertThat(key.value()).contains(swept.value() + "/1-v1-"));
    assertThat(report.kept()).isEqualTo(2);
    assertThat(stagedBlobs(swept)).hasSize(2 + 3); // the listing includes below's 3
    assertThat(stagedBlobs(below)).hasSize(3);
    assertThat(stagedBlobs(beside)).hasSize(3);
  }

  /**
   * Stops the sweeping thread right after its first read of {@code resource}'s epoch or history
   * (whichever the sweep reads first), so the test can act between the sweep's two reads.
   */
  private static final class PausingBetweenSweepReads extends ForwardingPointerStore {
    private final ResourceId resource;
    private final String sweeper;
    private final AtomicBoolean fired = new AtomicBoolean();
    private final CountDownLatch paused = new CountDownLatch(1);
    private final CountDownLatch resumed = new CountDownLatch(1);

    PausingBetweenSweepReads(PointerStore delegate, ResourceId resource, String sweeper) {
      super(delegate);
      this.resource = resource;
      this.sweeper = sweeper;
    }

    @Override
    public Epoch currentEpoch(ResourceId of) {
      Epoch epoch = super.currentEpoch(of);
      pauseAfterFirstRead(of);
      return epoch;
    }

    @Override
    public List<PointerState> history(ResourceId of, int limit) {
      List<PointerState> history = super.history(of, limit);
      pauseAfterFirstRead(of);
      return history;
    }

    private void pauseAfterFirstRead(ResourceId of) {
      if (of.equals(resource)
          && Thread.currentThread().getName().equals(sweeper)
          && fired.compareAndSet(false, true)) {
        paused.countDown();
        await(resumed, "the sweep was never resumed");
      }
    }

    void awaitPaused() {
      await(paused, "the sweep never read " + resource);
    }

    void resume() {
      resumed.countDown();
    }

    private static void await(CountDownLatch latch, String failure) {
      try {
        if (!latch.await(PausePoints.TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
          throw new AssertionError(failure + " within " + PausePoints.TIMEOUT);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
    }
  }

  @Test
  void r6_theSweepKeepsABlobPublishedBetweenItsReadsOfTheEpochAndTheHistory() {
    ResourceId resource = freshResource("staged-sweep-race");
    publish(staged(), token(resource, 1, "worker-1"), "v1", "version 1");
    publish(staged(), token(resource, 2, "worker-2"), "v2", "version 2");
    // Worker 3 stages version 3 and stalls before its swap, so the sweep lists the staged blob.
    PausePoints pauses = new PausePoints();
    Pause stagedByWorker3 = pauses.pauseAt(FencingStep.AFTER_STAGE, "worker-3");
    StagedDestination destinationOf3 = staged(pauses, Clock.systemUTC(), Duration.ofHours(1));
    CompletableFuture<WriteOutcome> writer3 =
        Concurrently.start(
            "worker-3",
            () -> publish(destinationOf3, token(resource, 3, "worker-3"), "v3", "version 3"));
    stagedByWorker3.awaitReached();
    PausingBetweenSweepReads pointers =
        new PausingBetweenSweepReads(tckPointers(), resource, "sweeper");
    StagedDestination sweeping =
        stagedOver(pointers, StepListener.NONE, aDayLater(), Duration.ofHours(1));
    CompletableFuture<SweepReport> sweep = Concurrently.start("sweeper", sweeping::sweep);
    pointers.awaitPaused();

    // Between the sweep's two reads: version 3 is published, then a newer owner registers.
    stagedByWorker3.resume();
    assertThat(Concurrently.await(writer3)).isInstanceOf(Applied.class);
    staged().register(token(resource, 4, "worker-4"));
    pointers.resume();
    SweepReport report = Concurrently.await(sweep);

    PublishedBlob current = staged().resolve(resource).orElseThrow();
    assertThat(current.epoch()).isEqualTo(Epoch.of(3));
    assertThat(report.deleted()).doesNotContain(current.key());
    assertThat(published(resource)).contains("version 3");
  }

  /** Swaps the pointer for real, then reports that the outcome is unknown (a lost answer). */
  private static final class LosingTheSwapsAnswer extends ForwardingPointerStore {
    LosingTheSwapsAnswer(PointerStore delegate) {
      super(delegate);
    }

    @Override
    public WriteOutcome write(
        FencingToken token,
        OperationId operation,
        Pointer change,
        dev.fenceline.spi.RequestFingerprint fingerprint) {
      WriteOutcome outcome = super.write(token, operation, change, fingerprint);
      throw new StoreException(
          "Cannot write operation "
              + operation
              + " to "
              + token.resource()
              + ": the connection dropped during the commit (the outcome "
              + outcome.getClass().getSimpleName()
              + " was lost; look the operation up)",
          null,
          true);
    }
  }

  @Test
  void r4_aStagedBlobIsKeptAndServedWhenTheSwapsOutcomeIsUnknown() throws IOException {
    ResourceId resource = freshResource("staged-unknown");
    StagedDestination losingAnswers =
        stagedOver(
            new LosingTheSwapsAnswer(tckPointers()),
            StepListener.NONE,
            Clock.systemUTC(),
            Duration.ofHours(1));

    assertThatThrownBy(
            () -> publish(losingAnswers, token(resource, 1, "worker-a"), "op", "the report"))
        .isInstanceOfSatisfying(
            StoreException.class, failure -> assertThat(failure.outcomeUnknown()).isTrue());

    // The swap committed: the pointer names the staged blob, which must still be there.
    Receipt receipt = staged().lookup(resource, OperationId.of("op")).orElseThrow();
    assertThat(stagedBlobs(resource))
        .extracting(BlobKey::value)
        .containsExactly(receipt.attribute(PointerStore.TARGET_ATTRIBUTE).orElseThrow());
    assertThat(staged().resolve(resource))
        .hasValueSatisfying(
            blob ->
                assertThat(blob.key().value())
                    .isEqualTo(receipt.attribute(PointerStore.TARGET_ATTRIBUTE).orElseThrow()));
    try (InputStream in = staged().open(resource)) {
      assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("the report");
    }
    assertThat(publish(staged(), token(resource, 1, "worker-a"), "op", "the report"))
        .as("the retry with the same operation ID")
        .isEqualTo(new AlreadyApplied(receipt));
    assertThat(published(resource)).contains("the report");
  }

  @Test
  void aDamagedBlobIsAClearErrorNeverServedSilently() {
    ResourceId resource = freshResource("staged-corrupt");
    publish(staged(), token(resource, 1, "worker-a"), "op", "the real report");
    BlobKey key = staged().resolve(resource).orElseThrow().key();

    overwriteBlob(key, "the fake report".getBytes(StandardCharsets.UTF_8));

    assertThatThrownBy(
            () -> {
              try (InputStream in = staged().open(resource)) {
                in.readAllBytes();
              }
            })
        .isInstanceOf(BlobVerificationException.class)
        .hasMessageContaining(key.value())
        .hasMessageContaining("SHA-256");
    overwriteBlob(key, "short".getBytes(StandardCharsets.UTF_8));
    assertThatThrownBy(() -> staged().resolve(resource))
        .isInstanceOf(StoreException.class)
        .hasMessageContaining("has 5 bytes, 15 were published");
  }

  @Test
  void aMissingBlobIsAClearError() {
    ResourceId resource = freshResource("staged-missing");
    publish(staged(), token(resource, 1, "worker-a"), "op", "report");
    BlobKey key = staged().resolve(resource).orElseThrow().key();
    blobStore().delete(key);

    assertThatThrownBy(() -> staged().open(resource))
        .isInstanceOf(StoreException.class)
        .hasMessageContaining(key.value())
        .hasMessageContaining("missing");
    assertThatThrownBy(() -> staged().open(freshResource("never-published")))
        .hasMessageContaining("nothing is published yet");
  }

  @Test
  void aLargePayloadIsStreamedAndVerified() throws IOException {
    ResourceId resource = freshResource("staged-large");
    long size = 16L * 1024 * 1024 + 7;

    Receipt receipt =
        ((Applied)
                staged()
                    .write(
                        token(resource, 1, "worker-a"),
                        OperationId.of("big"),
                        Payloads.generated(size, 42)))
            .receipt();

    String expected = Payloads.sha256(Payloads.generated(size, 42));
    assertThat(receipt.attribute(StagedDestination.SHA256_ATTRIBUTE)).contains(expected);
    try (InputStream in = staged().open(resource)) {
      assertThat(Payloads.sha256(in)).isEqualTo(expected);
    }
  }

  private static String text(InputStream in) throws IOException {
    try (in) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  private static String firstBytes(InputStream in, int count) throws IOException {
    try (in) {
      return new String(in.readNBytes(count), StandardCharsets.UTF_8);
    }
  }

  private Receipt published(StagedDestination to, ResourceId resource, long epoch, String text) {
    return ((Applied) publish(to, token(resource, epoch, "worker-" + epoch), "v" + epoch, text))
        .receipt();
  }

  private static BlobKey target(Receipt receipt) {
    return BlobKey.of(receipt.attribute(PointerStore.TARGET_ATTRIBUTE).orElseThrow());
  }

  @Test
  void theVerifiedReaderRefusesADamagedBlobBeforeTheFirstByteWhereAnEarlyStoppingStreamGotBytes()
      throws IOException {
    ResourceId resource = freshResource("staged-verified-reader");
    publish(staged(), token(resource, 1, "worker-a"), "op", "the real report");
    assertThat(firstBytes(staged().openVerified(resource), 8)).isEqualTo("the real");
    BlobKey key = staged().resolve(resource).orElseThrow().key();

    overwriteBlob(key, "the fake report".getBytes(StandardCharsets.UTF_8));

    assertThat(firstBytes(staged().open(resource), 8))
        .as("documented: a streaming reader that stops early gets unverified bytes")
        .isEqualTo("the fake");
    assertThatThrownBy(() -> staged().openVerified(resource))
        .isInstanceOf(BlobVerificationException.class)
        .hasMessageContaining(key.value())
        .hasMessageContaining("SHA-256");
  }

  /** Forwards to a blob store and overwrites one blob right before it is opened a second time. */
  private final class ChangingBeforeTheSecondOpen implements BlobStore {
    private final BlobKey key;
    private final byte[] replacement;
    private int opens;

    ChangingBeforeTheSecondOpen(BlobKey key, byte[] replacement) {
      this.key = key;
      this.replacement = replacement;
    }

    @Override
    public BlobInfo put(BlobKey at, InputStream content) {
      return blobStore().put(at, content);
    }

    @Override
    public InputStream open(BlobKey at) {
      if (at.equals(key) && ++opens == 2) {
        overwriteBlob(key, replacement);
      }
      return blobStore().open(at);
    }

    @Override
    public Optional<BlobInfo> stat(BlobKey at) {
      return blobStore().stat(at);
    }

    @Override
    public boolean delete(BlobKey at) {
      return blobStore().delete(at);
    }

    @Override
    public Stream<BlobInfo> list(BlobKey prefix) {
      return blobStore().list(prefix);
    }
  }

  @Test
  void aBlobChangedBetweenTheVerifiedReadersCheckAndItsReadFailsWhileStreaming()
      throws IOException {
    ResourceId resource = freshResource("staged-verified-then-changed");
    publish(staged(), token(resource, 1, "worker-a"), "op", "the real report");
    BlobKey key = staged().resolve(resource).orElseThrow().key();
    StagedDestination changing =
        StagedDestination.builder(
                new ChangingBeforeTheSecondOpen(
                    key, "the fake report".getBytes(StandardCharsets.UTF_8)),
                tckPointers())
            .prefix(BlobKey.of("published"))
            .build();

    InputStream in = changing.openVerified(resource);

    assertThatThrownBy(() -> text(in))
        .as("the check passed; the returned stream still verifies as it goes")
        .isInstanceOf(BlobVerificationException.class)
        .hasMessageContaining("SHA-256");
  }

  @Test
  void anOlderVersionIsReadVerifiedFromTheHistory() throws IOException {
    ResourceId resource = freshResource("staged-read-version");
    Receipt first = published(staged(), resource, 1, "version 1");
    published(staged(), resource, 2, "version 2");
    published(staged(), resource, 3, "version 3");

    PublishedBlob blob = staged().resolveVersion(resource, 1);

    assertThat(blob.key()).isEqualTo(target(first));
    assertThat(blob.version()).isEqualTo(1);
    assertThat(blob.epoch()).isEqualTo(Epoch.of(1));
    assertThat(blob.operation()).isEqualTo(OperationId.of("v1"));
    assertThat(text(staged().openVerified(resource, 1))).isEqualTo("version 1");
    assertThat(text(staged().open(resource, 2))).isEqualTo("version 2");
    assertThat(text(staged().openVerified(resource, 3))).isEqualTo("version 3");
    assertThat(published(resource)).contains("version 3");
  }

  @Test
  void aDamagedOlderVersionIsRefusedBeforeTheFirstByte() throws IOException {
    ResourceId resource = freshResource("staged-damaged-version");
    Receipt first = published(staged(), resource, 1, "version 1");
    published(staged(), resource, 2, "version 2");

    overwriteBlob(target(first), "version X".getBytes(StandardCharsets.UTF_8));

    assertThatThrownBy(() -> staged().openVerified(resource, 1))
        .isInstanceOf(BlobVerificationException.class)
        .hasMessageContaining(target(first).value())
        .hasMessageContaining("SHA-256");
    assertThat(text(staged().openVerified(resource, 2))).isEqualTo("version 2");
    overwriteBlob(target(first), "v1".getBytes(StandardCharsets.UTF_8));
    assertThatThrownBy(() -> staged().resolveVersion(resource, 1))
        .isInstanceOf(StoreException.class)
        .hasMessage(
            "Cannot resolve version 1 of "
                + resource
                + ": its blob "
                + target(first)
                + " has 2 bytes, 9 were published (it was changed after publishing; republish)");
  }

  @Test
  void anUnknownVersionIsAClearError() {
    ResourceId resource = freshResource("staged-unknown-version");
    published(staged(), resource, 1, "version 1");
    published(staged(), resource, 2, "version 2");

    assertThatThrownBy(() -> staged().resolveVersion(resource, 3))
        .isInstanceOf(StoreException.class)
        .hasMessage(
            "Cannot resolve version 3 of "
                + resource
                + ": there is no such version, the newest is 2 (pick one from the pointer"
                + " history)");
    assertThatThrownBy(() -> staged().open(resource, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Cannot resolve version 0 of "
                + resource
                + ": versions start at 1 (pick one from the pointer history)");
    ResourceId never = freshResource("staged-never-published");
    assertThatThrownBy(() -> staged().openVerified(never, 1))
        .isInstanceOf(StoreException.class)
        .hasMessage(
            "Cannot resolve version 1 of "
                + never
                + ": nothing is published yet (publish it first)");
    assertThatThrownBy(
            () -> staged().rollback(token(resource, 2, "worker-2"), OperationId.of("back"), 5))
        .isInstanceOf(StoreException.class)
        .hasMessage(
            "Cannot roll back "
                + resource
                + " to version 5: there is no such version, the newest is 2 (pick one from the"
                + " pointer history)");
    assertThat(applyCount(resource)).isEqualTo(2);
  }

  @Test
  void aRollbackToVersion1AfterVersions2And3PublishesItAgainAsANewFencedVersion()
      throws IOException {
    ResourceId resource = freshResource("staged-rollback");
    Receipt first = published(staged(), resource, 1, "version 1");
    published(staged(), resource, 2, "version 2");
    published(staged(), resource, 3, "version 3");
    List<PointerState> before = tckPointers().history(resource, 10);
    FencingToken token = token(resource, 3, "worker-3");

    WriteOutcome outcome = staged().rollback(token, OperationId.of("rollback-to-1"), 1);

    Receipt receipt = ((Applied) outcome).receipt();
    assertThat(receipt.epoch()).isEqualTo(Epoch.of(3));
    assertThat(receipt.operation()).isEqualTo(OperationId.of("rollback-to-1"));
    assertThat(receipt.attributes()).isEqualTo(first.attributes());
    assertThat(published(resource)).contains("version 1");
    assertThat(text(staged().openVerified(resource))).isEqualTo("version 1");
    List<PointerState> after = tckPointers().history(resource, 10);
    assertThat(after).as("a new version; the history is not rewritten").hasSize(4);
    assertThat(after.subList(1, 4)).isEqualTo(before);
    assertThat(after.get(0).version()).isEqualTo(4);
    assertThat(after.get(0).pointer()).isEqualTo(before.get(2).pointer());
    assertThat(staged().rollback(token, OperationId.of("rollback-to-1"), 1))
        .as("the retry")
        .isEqualTo(new AlreadyApplied(receipt));
    assertThat(applyCount(resource)).isEqualTo(4);
  }

  @Test
  void aStaleTokensRollbackIsRejectedStaleAndChangesNothing() {
    ResourceId resource = freshResource("staged-rollback-stale");
    published(staged(), resource, 1, "version 1");
    published(staged(), resource, 2, "version 2");
    staged().register(token(resource, 3, "worker-3"));
    List<PointerState> before = tckPointers().history(resource, 10);

    WriteOutcome outcome =
        staged().rollback(token(resource, 2, "worker-2"), OperationId.of("rollback-to-1"), 1);

    assertThat(outcome).isEqualTo(new RejectedStale(resource, Epoch.of(2), Epoch.of(3)));
    assertThat(tckPointers().history(resource, 10)).isEqualTo(before);
    assertThat(published(resource)).contains("version 2");
    assertThat(staged().lookup(resource, OperationId.of("rollback-to-1"))).isEmpty();
  }

  @Test
  void aRollbackWhoseTokenTurnsStaleAfterTheBlobCheckIsRejectedStaleInTheSwap() {
    ResourceId resource = freshResource("staged-rollback-race");
    published(staged(), resource, 1, "version 1");
    published(staged(), resource, 2, "version 2");
    PausePoints pauses = new PausePoints();
    Pause checked = pauses.pauseAt(FencingStep.AFTER_STAGE, "worker-2");
    StagedDestination destinationOf2 = staged(pauses, Clock.systemUTC(), Duration.ofHours(1));
    CompletableFuture<WriteOutcome> rollback =
        Concurrently.start(
            "worker-2",
            () ->
                destinationOf2.rollback(
                    token(resource, 2, "worker-2"), OperationId.of("rollback-to-1"), 1));
    checked.awaitReached();

    staged().register(token(resource, 3, "worker-3"));
    checked.resume();

    assertThat(Concurrently.await(rollback))
        .isEqualTo(new RejectedStale(resource, Epoch.of(2), Epoch.of(3)));
    assertThat(published(resource)).contains("version 2");
    assertThat(applyCount(resource)).isEqualTo(2);
  }

  @Test
  void aRollbackToASweptVersionIsAClearErrorAndChangesNothing() {
    ResourceId resource = freshResource("staged-rollback-swept");
    Receipt first = published(staged(), resource, 1, "version 1");
    published(staged(), resource, 2, "version 2");
    published(staged(), resource, 3, "version 3");
    assertThat(stagedSweepingEverythingOld().sweep().deleted()).contains(target(first));
    List<PointerState> before = tckPointers().history(resource, 10);

    assertThatThrownBy(
            () -> staged().rollback(token(resource, 3, "worker-3"), OperationId.of("back"), 1))
        .isInstanceOfSatisfying(
            StoreException.class, failure -> assertThat(failure.outcomeUnknown()).isFalse())
        .hasMessage(
            "Cannot roll back "
                + resource
                + " to version 1: its blob "
                + target(first)
                + " is missing from the blob store (it was swept, being older than the newest"
                + " kept versions, or deleted; pick a newer version or publish again)");

    assertThat(tckPointers().history(resource, 10)).isEqualTo(before);
    assertThat(published(resource)).contains("version 3");
    assertThat(staged().lookup(resource, OperationId.of("back"))).isEmpty();
  }

  @Test
  void aRollbackToADamagedVersionIsAClearErrorAndChangesNothing() {
    ResourceId resource = freshResource("staged-rollback-damaged");
    Receipt first = published(staged(), resource, 1, "version 1");
    published(staged(), resource, 2, "version 2");
    List<PointerState> before = tckPointers().history(resource, 10);
    FencingToken token = token(resource, 2, "worker-2");

    overwriteBlob(target(first), "version X".getBytes(StandardCharsets.UTF_8));

    assertThatThrownBy(() -> staged().rollback(token, OperationId.of("back"), 1))
        .isInstanceOf(StoreException.class)
        .hasMessageStartingWith(
            "Cannot roll back "
                + resource
                + " to version 1: blob "
                + target(first)
                + " has 9 bytes with SHA-256 ")
        .hasMessageContaining(
            "but 9 bytes with SHA-256 "
                + first.attribute(StagedDestination.SHA256_ATTRIBUTE).orElseThrow()
                + " were published (it was changed or damaged after publishing;");
    overwriteBlob(target(first), "v1".getBytes(StandardCharsets.UTF_8));
    assertThatThrownBy(() -> staged().rollback(token, OperationId.of("back"), 1))
        .isInstanceOf(StoreException.class)
        .hasMessageContaining("has 2 bytes, 9 were published");

    assertThat(tckPointers().history(resource, 10)).isEqualTo(before);
    assertThat(published(resource)).contains("version 2");
    assertThat(staged().lookup(resource, OperationId.of("back"))).isEmpty();
  }

  @Test
  void aRollbackToAVersionWhosePointerLiesOutsideTheStagingAreaIsRefused() {
    ResourceId resource = freshResource("staged-rollback-forged");
    ResourceId other = freshResource("staged-rollback-other");
    Receipt ofOther = published(staged(), other, 1, "other's report");
    forgePointer(resource, 1, target(ofOther).value(), ofOther);
    published(staged(), resource, 2, "version 2");

    assertThatThrownBy(() -> staged().resolveVersion(resource, 1))
        .isInstanceOf(StoreException.class)
        .hasMessageContaining("lies outside this resource's staging area");
    assertThatThrownBy(
            () -> staged().rollback(token(resource, 2, "worker-2"), OperationId.of("back"), 1))
        .isInstanceOf(StoreException.class)
        .hasMessageContaining("lies outside this resource's staging area");
    assertThat(published(resource)).contains("version 2");
  }

  @Test
  void theSweepKeepsABlobThatARollbackMadeCurrentAgain() throws IOException {
    ResourceId resource = freshResource("staged-rollback-sweep");
    Receipt first = published(staged(), resource, 1, "version 1");
    Receipt second = published(staged(), resource, 2, "version 2");
    Receipt third = published(staged(), resource, 3, "version 3");
    assertThat(staged().rollback(token(resource, 4, "worker-4"), OperationId.of("back"), 1))
        .isInstanceOf(Applied.class);

    SweepReport report = stagedSweepingEverythingOld().sweep();

    assertThat(report.deleted()).contains(target(second)).doesNotContain(target(first));
    assertThat(stagedBlobs(resource)).containsExactlyInAnyOrder(target(first), target(third));
    assertThat(text(staged().openVerified(resource))).isEqualTo("version 1");
  }

  /**
   * Swaps {@code resource}'s pointer to {@code target} straight through the pointer store, as an
   * outside writer of the pointer store (or a forged record) could, with a consistent size and
   * checksum taken from {@code like}.
   */
  private void forgePointer(ResourceId resource, long epoch, String target, Receipt like) {
    forgePointer(
        resource,
        epoch,
        target,
        like.attribute(StagedDestination.SIZE_ATTRIBUTE).orElseThrow(),
        like.attribute(StagedDestination.SHA256_ATTRIBUTE).orElseThrow());
  }

  private void forgePointer(
      ResourceId resource, long epoch, String target, String size, String sha256) {
    tckPointers()
        .write(
            token(resource, epoch, "forger"),
            OperationId.of("forged-" + epoch),
            new Pointer(
                target,
                Map.of(
                    StagedDestination.SIZE_ATTRIBUTE,
                    size,
                    StagedDestination.SHA256_ATTRIBUTE,
                    sha256)));
  }

  @Test
  void aForgedPointerTargetThatIsNoBlobKeyIsAStoreExceptionNamingIt() {
    // No real blob is published here: it would be left for other tests' sweeps to delete.
    ResourceId resource = freshResource("staged-forged-key");
    String area = stagingArea("tck") + "/" + resource + "/";
    List<String> forged =
        List.of(area + "../../../../../etc/passwd", area + "1-op-with space", "/etc/passwd");

    long epoch = 1;
    for (String target : forged) {
      forgePointer(resource, epoch, target, "6", "00");

      assertThatThrownBy(() -> staged().resolve(resource))
          .isInstanceOf(StoreException.class)
          .hasMessageStartingWith(
              "Cannot resolve "
                  + resource
                  + ": its publish pointer (version "
                  + epoch
                  + ") names target \""
                  + target
                  + "\", which is not a valid blob key (")
          .hasMessageContaining("check the destination's prefix");
      assertThatThrownBy(() -> staged().open(resource)).isInstanceOf(StoreException.class);
      epoch++;
    }
  }

  @Test
  void aPointerTargetOutsideThisResourcesStagingAreaIsRefused() {
    ResourceId resource = freshResource("staged-forged-area");
    ResourceId other = freshResource("staged-forged-other");
    ResourceId nested = ResourceId.of(resource.value() + "/inner");
    Receipt ofOther =
        ((Applied) publish(staged(), token(other, 1, "worker-b"), "op", "other's report"))
            .receipt();
    Receipt ofNested =
        ((Applied) publish(staged(), token(nested, 1, "worker-c"), "op", "nested report"))
            .receipt();
    String otherKey = ofOther.attribute(PointerStore.TARGET_ATTRIBUTE).orElseThrow();
    String nestedKey = ofNested.attribute(PointerStore.TARGET_ATTRIBUTE).orElseThrow();
    String withoutPrefix = otherKey.substring("published/".length());
    String outsideStaging = "published/outside/" + resource + ".csv";
    blobStore()
        .put(
            BlobKey.of(outsideStaging),
            new ByteArrayInputStream("other's report".getBytes(StandardCharsets.UTF_8)));

    long epoch = 1;
    for (String target : List.of(otherKey, nestedKey, withoutPrefix, outsideStaging)) {
      forgePointer(resource, epoch, target, target.equals(nestedKey) ? ofNested : ofOther);

      assertThatThrownBy(() -> staged().resolve(resource))
          .as("a pointer to %s", target)
          .isInstanceOf(StoreException.class)
          .hasMessage(
              "Cannot resolve "
                  + resource
                  + ": its publish pointer (version "
                  + epoch
                  + ") names target \""
                  + target
                  + "\", which lies outside this resource's staging area"
                  + " "
                  + stagingArea("tck")
                  + "/"
                  + resource
                  + "/ (it was not written by a StagedDestination with this prefix for this"
                  + " resource; check the destination's prefix, and who else writes to the pointer"
                  + " store)");
      assertThatThrownBy(() -> staged().open(resource)).isInstanceOf(StoreException.class);
      epoch++;
    }
    assertThat(published(other)).contains("other's report");
  }

  @Test
  void aForgedSizeIsAStoreException() {
    ResourceId resource = freshResource("staged-forged-size");
    tckPointers()
        .write(
            token(resource, 1, "forger"),
            OperationId.of("forged"),
            new Pointer(
                stagingArea("tck") + "/" + resource + "/1-op-x",
                Map.of(
                    StagedDestination.SIZE_ATTRIBUTE, "many",
                    StagedDestination.SHA256_ATTRIBUTE, "00")));

    assertThatThrownBy(() -> staged().resolve(resource))
        .isInstanceOf(StoreException.class)
        .hasMessageContaining("has size \"many\", which is not a byte count");
  }

  @Test
  void aRetryOfAnAppliedOperationIsAnsweredBeforeAnythingIsStaged() {
    ResourceId resource = freshResource("staged-retry-first");
    FencingToken token = token(resource, 7, "worker-a");
    List<FencingStep> reached = new java.util.concurrent.CopyOnWriteArrayList<>();
    StagedDestination staged =
        staged((step, t, op) -> reached.add(step), Clock.systemUTC(), Duration.ofHours(1));
    Receipt first = ((Applied) publish(staged, token, "report", "payload 1")).receipt();
    reached.clear();

    assertThat(publish(staged, token, "report", "payload 1")).isEqualTo(new AlreadyApplied(first));
    assertThatThrownBy(() -> publish(staged, token, "report", "payload 2"))
        .isInstanceOf(dev.fenceline.spi.OperationConflictException.class)
        .hasMessageContaining("it was already applied under epoch 7 with a different request");

    assertThat(reached)
        .as("steps of the retries: nothing was staged, no pointer swap was tried")
        .doesNotContain(FencingStep.AFTER_STAGE, FencingStep.BEFORE_LOCK);
    assertThat(stagedBlobs(resource)).containsExactly(BlobKey.of(first.attributes().get("target")));
    assertThat(published(resource)).contains("payload 1");
  }
}
