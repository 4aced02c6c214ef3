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

    assertThat(report.deleted())
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
}
