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
package dev.fenceline.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fenceline.s3.S3TestServer.Kind;
import dev.fenceline.spi.AlreadyApplied;
import dev.fenceline.spi.Applied;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingStep;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.Lease;
import dev.fenceline.spi.LeaseIssuer;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Pointer;
import dev.fenceline.spi.PointerState;
import dev.fenceline.spi.PointerStore;
import dev.fenceline.spi.Receipt;
import dev.fenceline.spi.Registered;
import dev.fenceline.spi.RejectedStale;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StepListener;
import dev.fenceline.spi.StoreException;
import dev.fenceline.spi.SupportsEpochReset;
import dev.fenceline.spi.TokenKeys;
import dev.fenceline.spi.WriteOutcome;
import dev.fenceline.tck.ConcurrencyControl;
import dev.fenceline.tck.Concurrently;
import dev.fenceline.tck.PausePoints;
import dev.fenceline.tck.PointerStoreContract;
import dev.fenceline.tck.memory.InMemoryLeaseIssuer;
import dev.fenceline.tck.memory.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;

/**
 * The pointer-store suite and the S3-specific safety tests (racing writers, crashes between any two
 * requests, lost answers, request counts) on {@link S3PointerStore}, against a real S3 server with
 * a fresh bucket per test.
 */
abstract class S3PointerStoreContractTest extends PointerStoreContract {

  private final MutableClock clock = new MutableClock(Instant.parse("2026-10-27T01:00:00Z"));
  private final InMemoryLeaseIssuer.Storage issuerStorage = new InMemoryLeaseIssuer.Storage();
  private S3OnlyFixture s3;

  /** The server the suite runs against. */
  abstract Kind kind();

  @BeforeEach
  void openBucket() {
    s3 = new S3OnlyFixture(kind(), builder -> builder);
  }

  @AfterEach
  void closeStores() throws Exception {
    s3.close();
  }

  /** A store builder on the test's bucket whose conditional PUTs are atomic. */
  private S3Store.Builder builder() {
    return s3.builder();
  }

  private S3Store open(S3Store.Builder builder) {
    return s3.open(builder);
  }

  @Override
  protected PointerStore pointerStore(String name, StepListener steps, Optional<TokenKeys> keys) {
    return s3.pointerStore(name, steps, keys);
  }

  @Override
  protected ConcurrencyControl concurrencyControl() {
    return ConcurrencyControl.COMPARE_AND_SWAP;
  }

  @Override
  protected LeaseIssuer issuer() {
    return new InMemoryLeaseIssuer(issuerStorage, clock);
  }

  @Override
  protected void restartStore() {
    s3.restart();
  }

  @Override
  protected void awaitExpiry(Lease lease) {
    clock.advance(lease.ttl().plus(Duration.ofMillis(1)));
  }

  private FencingToken token(ResourceId resource, long epoch, String holder) {
    return new FencingToken(issuer().id(), resource, Epoch.of(epoch), holder);
  }

  /** A store whose requests go through a {@link FaultyHttpClient} (probe and identity done). */
  private FaultyHttpClient faultyClient() {
    FaultyHttpClient faulty =
        new FaultyHttpClient(new AtomicConditionalWrites(Apache5HttpClient.create()));
    s3.closedLater(faulty);
    return faulty;
  }

  private S3Store storeOver(FaultyHttpClient faulty) {
    S3Store over = open(s3.server.storeBuilder(s3.bucket).httpClient(faulty));
    over.pointerStore("tck");
    faulty.clear();
    return over;
  }

  private static Receipt receipt(WriteOutcome outcome) {
    assertThat(outcome).isInstanceOf(Applied.class);
    return ((Applied) outcome).receipt();
  }

  private static List<String> operations(List<PointerState> history) {
    return history.stream().map(state -> state.operation().value()).toList();
  }

  // ---------------------------------------------------------------------------------------------
  // Racing writers

  /**
   * Lets both writers of a round read the control object and decide before either may PUT, so every
   * round is a real race of two conditional PUTs against the same ETag.
   */
  private static final class RaceGate implements StepListener {
    private final CyclicBarrier bothDecided = new CyclicBarrier(2);
    private final Set<String> passed = ConcurrentHashMap.newKeySet();

    @Override
    public void reached(FencingStep step, FencingToken token, OperationId operation) {
      if (step == FencingStep.AFTER_EPOCH_CHECK && passed.add(token.holder())) {
        try {
          bothDecided.await(PausePoints.TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException(e);
        } catch (BrokenBarrierException | TimeoutException e) {
          throw new IllegalStateException("the other writer never decided", e);
        }
      }
    }
  }

  @Test
  void twoWritersRacingSwapsOnOneResourceWinExactlyOncePerEpochAndPerOperation() {
    ResourceId resource = freshResource("race");
    PointerStore reader = s3.store().pointerStore("tck");
    List<String> appliedInOrder = new ArrayList<>();
    long epoch = 1;
    for (int round = 0; round < 8; round++) {
      // The same operation from two threads: one applies it, the other replays its receipt.
      PointerStore gated = s3.store().pointerStore("tck", new RaceGate());
      OperationId same = OperationId.of("same-" + round);
      Pointer samePointer = Pointer.to("s" + round);
      FencingToken one = token(resource, epoch, "writer-1");
      FencingToken two = token(resource, epoch, "writer-2");
      CompletableFuture<WriteOutcome> first =
          Concurrently.start("writer-1", () -> gated.write(one, same, samePointer));
      CompletableFuture<WriteOutcome> second =
          Concurrently.start("writer-2", () -> gated.write(two, same, samePointer));
      List<WriteOutcome> outcomes = List.of(Concurrently.await(first), Concurrently.await(second));
      assertThat(outcomes).as("round %s", round).filteredOn(Applied.class::isInstance).hasSize(1);
      Receipt winner =
          outcomes.stream()
              .filter(Applied.class::isInstance)
              .map(outcome -> ((Applied) outcome).receipt())
              .findFirst()
              .orElseThrow();
      assertThat(outcomes).as("round %s", round).contains(new AlreadyApplied(winner));
      appliedInOrder.add(same.value());

      // Two operations of two epochs: the older one is rejected, or applied before the newer one.
      PointerStore racing = s3.store().pointerStore("tck", new RaceGate());
      FencingToken older = token(resource, epoch + 1, "writer-1");
      FencingToken newer = token(resource, epoch + 2, "writer-2");
      OperationId olderOp = OperationId.of("older-" + round);
      OperationId newerOp = OperationId.of("newer-" + round);
      CompletableFuture<WriteOutcome> byOlder =
          Concurrently.start("writer-1", () -> racing.write(older, olderOp, Pointer.to("o")));
      CompletableFuture<WriteOutcome> byNewer =
          Concurrently.start("writer-2", () -> racing.write(newer, newerOp, Pointer.to("n")));
      WriteOutcome olderOutcome = Concurrently.await(byOlder);
      assertThat(Concurrently.await(byNewer)).as("round %s", round).isInstanceOf(Applied.class);
      if (olderOutcome instanceof Applied) {
        appliedInOrder.add(olderOp.value());
      } else {
        assertThat(olderOutcome)
            .as("round %s", round)
            .isEqualTo(new RejectedStale(resource, older.epoch(), newer.epoch()));
        assertThat(reader.lookup(resource, olderOp)).isEmpty();
      }
      appliedInOrder.add(newerOp.value());
      epoch += 2;
    }

    List<PointerState> history = reader.history(resource, 1000);
    assertThat(history)
        .extracting(PointerState::version)
        .as("contiguous versions, one per applied operation: no swap lost")
        .containsExactlyElementsOf(
            java.util.stream.LongStream.iterate(appliedInOrder.size(), v -> v - 1)
                .limit(appliedInOrder.size())
                .boxed()
                .toList());
    List<String> oldestFirst = new ArrayList<>(operations(history));
    java.util.Collections.reverse(oldestFirst);
    assertThat(oldestFirst)
        .as("applied operations in the order they won, an older epoch strictly before a newer")
        .containsExactlyElementsOf(appliedInOrder);
    for (String operation : appliedInOrder) {
      assertThat(reader.lookup(resource, OperationId.of(operation))).isPresent();
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Crashes between any two requests

  /**
   * Where a write of the crash test stops; {@code kept}: by the writer that wrote the resource last
   * (its swap sent without reading the control object first), else by another.
   */
  private record CrashPoint(FencingStep step, int request, boolean sendLast, boolean kept) {
    @Override
    public String toString() {
      return step != null
          ? "listener throws at " + step
          : "no answer from request "
              + request
              + (sendLast ? " (it was sent)" : " (not sent)")
              + (kept ? ", by the writer that wrote last" : ", by another writer");
    }

    /** The number of the control object's PUT among the write's requests. */
    int controlPut() {
      return kept ? REQUESTS_OF_A_KEPT_WRITE : REQUESTS_OF_A_LATER_WRITE;
    }
  }

  /** Requests of a pointer write on a resource with two earlier versions (see the count test). */
  private static final int REQUESTS_OF_A_LATER_WRITE = 5;

  /** The same, by the writer that wrote the resource last: no GET of the control object. */
  private static final int REQUESTS_OF_A_KEPT_WRITE = 4;

  @Test
  void neverAnAppliedOperationWithoutAFindableReceiptNorAReceiptForAnOperationNotApplied() {
    FaultyHttpClient faulty = faultyClient();
    S3Store crashing = storeOver(faulty);
    PointerStore reader = s3.store().pointerStore("tck");
    List<CrashPoint> points = new ArrayList<>();
    for (FencingStep step :
        List.of(
            FencingStep.BEFORE_LOCK,
            FencingStep.AFTER_EPOCH_CHECK,
            FencingStep.AFTER_APPLY,
            FencingStep.AFTER_COMMIT)) {
      points.add(new CrashPoint(step, 0, false, false));
    }
    for (boolean kept : List.of(false, true)) {
      for (int k = 1; k <= (kept ? REQUESTS_OF_A_KEPT_WRITE : REQUESTS_OF_A_LATER_WRITE); k++) {
        points.add(new CrashPoint(null, k, false, kept));
        points.add(new CrashPoint(null, k, true, kept));
      }
    }
    for (CrashPoint point : points) {
      ResourceId resource = freshResource("crash");
      PointerStore healthy = crashing.pointerStore("tck");
      Receipt p1 = receipt(healthy.write(token(resource, 1, "a"), OperationId.of("p1"), to("1")));
      Receipt p2 = receipt(healthy.write(token(resource, 1, "a"), OperationId.of("p2"), to("2")));
      List<PointerState> before = reader.history(resource, 10);
      OperationId crashed = OperationId.of("x");
      PointerStore writer;
      if (point.step() != null) {
        PausePoints failing = new PausePoints();
        failing.failAt(point.step(), "b");
        writer = crashing.pointerStore("tck", failing);
      } else {
        // The healthy store wrote p1 and p2: it keeps the control object; a new one does not.
        writer = point.kept() ? healthy : crashing.pointerStore("tck");
        faulty.crashAt(point.request(), point.sendLast());
      }

      Throwable failure = null;
      try {
        writer.write(token(resource, 2, "b"), crashed, to("x"));
      } catch (RuntimeException e) {
        failure = e;
      }
      faulty.heal();

      boolean controlPutSent =
          point.step() == FencingStep.AFTER_COMMIT
              || (point.request() == point.controlPut() && point.sendLast());
      assertThat(failure).as("%s", point).isNotNull();
      if (point.step() == null) {
        assertThat(failure).as("%s", point).isInstanceOf(StoreException.class);
        assertThat(((StoreException) failure).outcomeUnknown())
            .as("%s: the outcome is unknown only when the control PUT got no answer", point)
            .isEqualTo(point.request() == point.controlPut());
      } else {
        assertThat(failure).as("%s", point).isInstanceOf(PausePoints.SimulatedCrash.class);
      }
      Optional<Receipt> found = reader.lookup(resource, crashed);
      assertThat(found.isPresent()).as("%s: applied", point).isEqualTo(controlPutSent);
      if (found.isPresent()) {
        assertThat(reader.history(resource, 10)).hasSize(3);
        assertThat(reader.current(resource).orElseThrow().operation()).isEqualTo(crashed);
      } else {
        assertThat(reader.history(resource, 10)).as("%s", point).isEqualTo(before);
        assertThat(reader.currentEpoch(resource)).as("%s", point).isEqualTo(Epoch.of(1));
      }

      // Another operation moves the control object on: every receipt stays findable.
      receipt(reader.write(token(resource, 2, "c"), OperationId.of("y"), to("y")));
      assertThat(reader.lookup(resource, crashed)).as("%s, after y", point).isEqualTo(found);
      assertThat(reader.lookup(resource, OperationId.of("p1"))).as("%s", point).contains(p1);
      assertThat(reader.lookup(resource, OperationId.of("p2"))).as("%s", point).contains(p2);
      List<String> expected =
          found.isPresent() ? List.of("y", "x", "p2", "p1") : List.of("y", "p2", "p1");
      assertThat(operations(reader.history(resource, 10))).as("%s", point).isEqualTo(expected);
      WriteOutcome retry = reader.write(token(resource, 2, "b"), crashed, to("x"));
      if (found.isPresent()) {
        assertThat(retry).as("%s", point).isEqualTo(new AlreadyApplied(found.get()));
      } else {
        assertThat(retry).as("%s", point).isInstanceOf(Applied.class);
      }
    }
  }

  // ---------------------------------------------------------------------------------------------
  // SDK retries versus conditions

  @Test
  void aLandedControlPutWhoseAnswerWasLostIsAppliedNotAReplayOrStale() {
    FaultyHttpClient faulty = faultyClient();
    PointerStore pointers = storeOver(faulty).pointerStore("tck");
    ResourceId resource = freshResource("lost-answer");
    receipt(pointers.write(token(resource, 1, "a"), OperationId.of("v1"), to("1")));
    faulty.loseAnswerOnce(FaultyHttpClient::controlPut, () -> {});
    faulty.clear();

    WriteOutcome outcome = pointers.write(token(resource, 1, "a"), OperationId.of("v2"), to("2"));

    assertThat(outcome).isInstanceOf(Applied.class);
    assertThat(pointers.lookup(resource, OperationId.of("v2"))).contains(receipt(outcome));
    assertThat(faulty.exchanges())
        .filteredOn(exchange -> exchange.kind().startsWith("PUT control"))
        .extracting(FaultyHttpClient.Exchange::status)
        .as("the first PUT landed, the SDK's retry of it failed its condition")
        .containsExactly(200, 412);
    assertThat(operations(pointers.history(resource, 10))).containsExactly("v2", "v1");
  }

  @Test
  void aLandedRegistrationWhoseAnswerWasLostIsRegisteredWithThePreviousEpoch() {
    FaultyHttpClient faulty = faultyClient();
    PointerStore pointers = storeOver(faulty).pointerStore("tck");
    ResourceId resource = freshResource("lost-register");
    pointers.register(token(resource, 2, "a"));
    faulty.loseAnswerOnce(FaultyHttpClient::controlPut, () -> {});

    assertThat(pointers.register(token(resource, 3, "b")))
        .isEqualTo(new Registered(resource, Epoch.of(3), Epoch.of(2)));
  }

  @ParameterizedTest(name = "{0} later writes")
  @ValueSource(ints = {1, 9})
  void aLostAnswerOvertakenByANewerOwnerIsStillApplied(int laterWrites) {
    FaultyHttpClient faulty = faultyClient();
    PointerStore pointers = storeOver(faulty).pointerStore("tck");
    PointerStore newOwner = s3.store().pointerStore("tck");
    ResourceId resource = freshResource("lost-overtaken");
    receipt(pointers.write(token(resource, 1, "a"), OperationId.of("v1"), to("1")));
    List<String> expected = new ArrayList<>();
    // While the answer of A's PUT is lost, B takes over and writes (9 writes push A's write nonce
    // out of the control object's recent writes: A then finds its nonce in its operation object).
    faulty.loseAnswerOnce(
        FaultyHttpClient::controlPut,
        () -> {
          for (int i = 1; i <= laterWrites; i++) {
            receipt(newOwner.write(token(resource, 3, "b"), OperationId.of("b-" + i), to("b" + i)));
            expected.add(0, "b-" + i);
          }
        });

    WriteOutcome outcome = pointers.write(token(resource, 2, "a"), OperationId.of("a"), to("a"));

    assertThat(outcome)
        .as("A's PUT landed before B registered epoch 3")
        .isInstanceOf(Applied.class);
    assertThat(newOwner.lookup(resource, OperationId.of("a"))).contains(receipt(outcome));
    expected.add("a");
    expected.add("v1");
    assertThat(operations(newOwner.history(resource, 20))).containsExactlyElementsOf(expected);
    assertThat(newOwner.currentEpoch(resource)).isEqualTo(Epoch.of(3));
  }

  /**
   * A reset's PUT landed, its answer was lost, and before the SDK's retry (412) nine registrations
   * pushed the reset's nonce out of the control object's recent writes. Deciding again would apply
   * the reset a second time, moving the registered epoch back below epochs registered after it (and
   * unbinding the issuer): fenced-out tokens of epochs 2 to 9 would be accepted again.
   */
  @Test
  void aLandedResetWhoseAnswerWasLostIsNeverAppliedAgainOverNewerRegistrations() {
    FaultyHttpClient faulty = faultyClient();
    PointerStore pointers = storeOver(faulty).pointerStore("tck");
    PointerStore newOwner = s3.store().pointerStore("tck");
    ResourceId resource = freshResource("lost-reset");
    pointers.register(token(resource, 5, "a"));
    faulty.loseAnswerOnce(
        FaultyHttpClient::controlPut,
        () -> {
          for (long epoch = 2; epoch <= 10; epoch++) {
            assertThat(newOwner.register(token(resource, epoch, "b")))
                .isInstanceOf(Registered.class);
          }
        });

    assertThatThrownBy(
            () ->
                ((SupportsEpochReset) pointers)
                    .resetRegisteredEpoch(resource, Epoch.of(1), "test: lost answer"))
        .isInstanceOf(StoreException.class)
        .hasMessageStartingWith("Cannot reset the registered epoch of " + resource + " to 1")
        .satisfies(e -> assertThat(((StoreException) e).outcomeUnknown()).isTrue());
    assertThat(newOwner.currentEpoch(resource)).isEqualTo(Epoch.of(10));
    assertThat(newOwner.register(token(resource, 9, "stale"))).isInstanceOf(RejectedStale.class);
  }

  // A first attempt that never left, another writer's commit, and the SDK's re-send refused (412):
  // a 412 after a retry may mean "our first attempt landed" or "another writer came first", and
  // only a read decides which.

  @Test
  void aSwapWhoseFirstAttemptWasNeverSentAndWhoseResendIsRefusedIsDecidedAgain() {
    FaultyHttpClient faulty = faultyClient();
    PointerStore pointers = storeOver(faulty).pointerStore("tck");
    PointerStore other = s3.store().pointerStore("tck");
    ResourceId resource = freshResource("unsent-swap");
    receipt(pointers.write(token(resource, 1, "a"), OperationId.of("v1"), to("1")));
    faulty.failUnsentOnce(
        FaultyHttpClient::controlPut,
        () -> receipt(other.write(token(resource, 1, "b"), OperationId.of("b"), to("b"))));
    faulty.clear();

    WriteOutcome outcome = pointers.write(token(resource, 1, "a"), OperationId.of("a"), to("a"));

    assertThat(outcome).isInstanceOf(Applied.class);
    assertThat(other.lookup(resource, OperationId.of("a"))).contains(receipt(outcome));
    assertThat(operations(other.history(resource, 10))).containsExactly("a", "b", "v1");
    assertThat(faulty.exchanges())
        .filteredOn(exchange -> exchange.kind().startsWith("PUT control"))
        .extracting(FaultyHttpClient.Exchange::status)
        .as("the SDK's re-send was the first the server saw, refused; then the swap decided again")
        .containsExactly(412, 200);
  }

  @Test
  void aStaleSwapWhoseFirstAttemptWasNeverSentAndWhoseResendIsRefusedIsRejectedStale() {
    FaultyHttpClient faulty = faultyClient();
    PointerStore pointers = storeOver(faulty).pointerStore("tck");
    PointerStore newOwner = s3.store().pointerStore("tck");
    ResourceId resource = freshResource("unsent-stale-swap");
    receipt(pointers.write(token(resource, 2, "a"), OperationId.of("v1"), to("1")));
    faulty.failUnsentOnce(
        FaultyHttpClient::controlPut,
        () -> receipt(newOwner.write(token(resource, 3, "b"), OperationId.of("b"), to("b"))));

    WriteOutcome outcome = pointers.write(token(resource, 2, "a"), OperationId.of("a"), to("a"));

    assertThat(outcome).isEqualTo(new RejectedStale(resource, Epoch.of(2), Epoch.of(3)));
    assertThat(newOwner.lookup(resource, OperationId.of("a"))).isEmpty();
    assertThat(operations(newOwner.history(resource, 10))).containsExactly("b", "v1");
  }

  @Test
  void aRegistrationWhoseFirstAttemptWasNeverSentAndWhoseResendIsRefusedIsDecidedAgain() {
    FaultyHttpClient faulty = faultyClient();
    PointerStore pointers = storeOver(faulty).pointerStore("tck");
    PointerStore newOwner = s3.store().pointerStore("tck");
    ResourceId resource = freshResource("unsent-register");
    pointers.register(token(resource, 2, "a"));
    faulty.failUnsentOnce(
        FaultyHttpClient::controlPut,
        () ->
            assertThat(newOwner.register(token(resource, 4, "b"))).isInstanceOf(Registered.class));

    assertThat(pointers.register(token(resource, 3, "a")))
        .isEqualTo(new RejectedStale(resource, Epoch.of(3), Epoch.of(4)));
    assertThat(newOwner.currentEpoch(resource)).isEqualTo(Epoch.of(4));
  }

  @Test
  void aResetWhoseFirstAttemptWasNeverSentAndWhoseResendIsRefusedIsDecidedAgain() {
    FaultyHttpClient faulty = faultyClient();
    PointerStore pointers = storeOver(faulty).pointerStore("tck");
    PointerStore newOwner = s3.store().pointerStore("tck");
    ResourceId resource = freshResource("unsent-reset");
    pointers.register(token(resource, 5, "a"));
    faulty.failUnsentOnce(
        FaultyHttpClient::controlPut,
        () ->
            assertThat(newOwner.register(token(resource, 6, "b"))).isInstanceOf(Registered.class));

    Epoch previous =
        ((SupportsEpochReset) pointers)
            .resetRegisteredEpoch(resource, Epoch.of(1), "test: unsent first attempt");

    assertThat(previous)
        .as("the reset replaced epoch 6, registered before it")
        .isEqualTo(Epoch.of(6));
    assertThat(newOwner.currentEpoch(resource)).isEqualTo(Epoch.of(1));
  }

  // ---------------------------------------------------------------------------------------------
  // Linearizable lookups

  @Test
  void aLookupRacingAWriteThatReplacesTheOperationStillFindsIt() {
    FaultyHttpClient faulty = faultyClient();
    PointerStore looking = storeOver(faulty).pointerStore("tck");
    PointerStore writer = s3.store().pointerStore("tck");
    ResourceId resource = freshResource("lookup-race");
    receipt(writer.write(token(resource, 1, "a"), OperationId.of("v1"), to("1")));
    Receipt v2 = receipt(writer.write(token(resource, 1, "a"), OperationId.of("v2"), to("2")));
    // Between the lookup's first and second request, v3 replaces v2 as the current entry.
    faulty.afterAnswerOnce(
        request -> true,
        () -> receipt(writer.write(token(resource, 1, "a"), OperationId.of("v3"), to("3"))));

    assertThat(looking.lookup(resource, OperationId.of("v2"))).contains(v2);
    assertThat(operations(writer.history(resource, 10))).containsExactly("v3", "v2", "v1");
  }

  // ---------------------------------------------------------------------------------------------
  // Cost

  @Test
  void aPointerWriteCostsFourRequestsByTheWriterThatWroteLastAndFiveByAnother() {
    FaultyHttpClient faulty = faultyClient();
    S3Store store = storeOver(faulty);
    PointerStore pointers = store.pointerStore("tck");
    ResourceId resource = freshResource("cost");

    receipt(pointers.write(token(resource, 1, "a"), OperationId.of("v1"), to("1")));
    assertThat(faulty.kinds()).containsExactly("GET control 404", "PUT control 200");

    faulty.clear();
    receipt(pointers.write(token(resource, 1, "a"), OperationId.of("v2"), to("2")));
    assertThat(faulty.kinds())
        .as(
            "the writer that wrote last swaps at the ETag it wrote, without reading; the only older"
                + " operation is the current one: no operation lookup")
        .containsExactly("PUT operation 200", "PUT version 200", "PUT control 200");

    faulty.clear();
    Receipt v3 = receipt(pointers.write(token(resource, 1, "a"), OperationId.of("v3"), to("3")));
    assertThat(faulty.kinds())
        .hasSize(REQUESTS_OF_A_KEPT_WRITE)
        .containsExactly(
            "GET operation 404", "PUT operation 200", "PUT version 200", "PUT control 200");

    faulty.clear();
    PointerStore another = store.pointerStore("tck");
    receipt(another.write(token(resource, 1, "a"), OperationId.of("v4"), to("4")));
    assertThat(faulty.kinds())
        .as("a writer that did not write last reads the control object first")
        .hasSize(REQUESTS_OF_A_LATER_WRITE)
        .containsExactly(
            "GET control 200",
            "GET operation 404",
            "PUT operation 200",
            "PUT version 200",
            "PUT control 200");

    faulty.clear();
    receipt(pointers.write(token(resource, 1, "a"), OperationId.of("v5"), to("5")));
    assertThat(faulty.kinds())
        .as("the ETag it wrote moved on: refused, then read and swapped as any other writer")
        .containsExactly(
            "GET operation 404",
            "PUT operation 412",
            "PUT version 412",
            "PUT control 412",
            "GET control 200",
            "GET operation 404",
            "PUT operation 200",
            "PUT version 200",
            "PUT control 200");

    faulty.clear();
    assertThat(pointers.write(token(resource, 1, "a"), OperationId.of("v3"), to("3")))
        .isEqualTo(new AlreadyApplied(v3));
    assertThat(faulty.kinds())
        .as("a retry is answered from a read, never from the kept control object")
        .containsExactly("GET operation 200", "GET control 200", "GET operation 200");

    faulty.clear();
    assertThat(pointers.lookup(resource, OperationId.of("v3"))).contains(v3);
    assertThat(pointers.lookup(resource, OperationId.of("v5"))).isPresent();
    assertThat(faulty.kinds())
        .containsExactly("GET control 200", "GET operation 200", "GET control 200");
  }

  @Test
  void resourcesWhosePathsNestDoNotShareObjects() {
    PointerStore pointers = s3.store().pointerStore("tck");
    List<ResourceId> nested =
        List.of(
            ResourceId.of("k"),
            ResourceId.of("k/control"),
            ResourceId.of("k.json"),
            ResourceId.of("k/00000000000000000001.json"),
            ResourceId.of("k/tck"));
    for (ResourceId resource : nested) {
      for (int version = 1; version <= 3; version++) {
        receipt(
            pointers.write(
                token(resource, version, "a"),
                OperationId.of("op-" + version),
                to(resource + "#" + version)));
      }
    }
    for (ResourceId resource : nested) {
      assertThat(pointers.history(resource, 10))
          .extracting(state -> state.pointer().target())
          .containsExactly(resource + "#3", resource + "#2", resource + "#1");
      assertThat(pointers.lookup(resource, OperationId.of("op-1")).orElseThrow().resource())
          .isEqualTo(resource);
      assertThat(pointers.currentEpoch(resource)).isEqualTo(Epoch.of(3));
    }
  }

  @Test
  void theStoreIdentityIsCreatedOnceAndSharedByEveryProcess() {
    String id = s3.store().pointerStore("tck").storeId();
    S3Store other = open(builder());

    assertThat(id).matches("s3-[A-Za-z0-9._-]+");
    assertThat(other.pointerStore("other").storeId()).isEqualTo(id);
    AtomicConditionalWrites http = new AtomicConditionalWrites(Apache5HttpClient.create());
    s3.closedLater(http);
    assertThat(
            open(s3.server.storeBuilder(s3.server.createBucket()).httpClient(http))
                .pointerStore("tck")
                .storeId())
        .isNotEqualTo(id);
  }

  @Test
  void anUnreadableControlObjectIsAnErrorNeverAnEmptyState() {
    PointerStore pointers = s3.store().pointerStore("tck");
    ResourceId resource = freshResource("unreadable");
    String key = PointerKeys.control(resource);
    for (String content :
        List.of("{not json", "{\"format\":2,\"epoch\":5}", "[]", "{\"format\":1,\"epoch\":-1}")) {
      s3.server
          .admin()
          .putObject(
              b -> b.bucket(s3.bucket).key(key),
              software.amazon.awssdk.core.sync.RequestBody.fromString(content));

      assertThatThrownBy(() -> pointers.currentEpoch(resource))
          .as(content)
          .isInstanceOf(StoreException.class)
          .hasMessageContaining("Cannot read pointer object s3://" + s3.bucket + "/" + key);
      assertThatThrownBy(
              () -> pointers.write(token(resource, 9, "a"), OperationId.of("op"), to("x")))
          .as(content)
          .isInstanceOf(StoreException.class);
    }
    assertThatThrownBy(() -> pointers.currentEpoch(resource)).hasMessageContaining("epoch -1");
  }

  private static Pointer to(String target) {
    return Pointer.to(target);
  }
}
