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

import dev.fenceline.spi.AlreadyApplied;
import dev.fenceline.spi.Applied;
import dev.fenceline.spi.Capability;
import dev.fenceline.spi.Destination;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingStep;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.Lease;
import dev.fenceline.spi.LeaseLostException;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Receipt;
import dev.fenceline.spi.RegisterOutcome;
import dev.fenceline.spi.Registered;
import dev.fenceline.spi.RejectedStale;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StepListener;
import dev.fenceline.spi.TokenKeys;
import dev.fenceline.spi.UnsupportedCapabilityException;
import dev.fenceline.spi.WriteOutcome;
import dev.fenceline.tck.PausePoints.Pause;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.assertj.core.api.OptionalAssert;
import org.junit.jupiter.api.Test;

/**
 * The tests of {@link DestinationContract} with more than one writer: the article's stalled workers
 * (R11 a, b), writers paused at {@link FencingStep}s inside the atomic step (R11 c, R5), and the
 * check of {@link #concurrencyControl()}. Subclass {@link DestinationContract}, which documents the
 * methods to implement.
 *
 * @param <C> the destination's change type
 */
abstract class ConcurrentWriterTests<C> extends ContractSupport {

  /** What a second writer that did not wait for a paused first one says of the declaration. */
  static final String NOT_LOCKING = "the second writer did not wait: is this store LOCKING?";

  /**
   * How long a {@link ConcurrencyControl#COMPARE_AND_SWAP} store may take to answer a second writer
   * while the first is paused, and how long any store may take to report a second writer's {@code
   * BEFORE_LOCK}, before the suite says the store waited.
   */
  static final Duration SECOND_WRITER_LIMIT = Duration.ofSeconds(10);

  /** {@link #SECOND_WRITER_LIMIT}; the kit's own tests of a wrong declaration shorten it. */
  Duration secondWriterLimit() {
    return SECOND_WRITER_LIMIT;
  }

  /** See {@link DestinationContract#destination(String, StepListener, Optional)}. */
  protected abstract Destination<C> destination(
      String name, StepListener steps, Optional<TokenKeys> keys);

  /** See {@link DestinationContract#concurrencyControl()}. */
  protected abstract ConcurrencyControl concurrencyControl();

  /** See {@link DestinationContract#change}. */
  protected abstract C change(ResourceId resource, String payload);

  /** See {@link DestinationContract#published}. */
  protected abstract Optional<String> published(ResourceId resource);

  /** See {@link DestinationContract#applyCount}. */
  protected abstract long applyCount(ResourceId resource);

  /** The suite's usual destination, named {@code tck}, reporting steps to {@code steps}. */
  protected final Destination<C> destination(StepListener steps) {
    return destination("tck", steps, Optional.empty());
  }

  Destination<C> destination() {
    return destination(StepListener.NONE);
  }

  /** A token of the suite's issuer, built by hand (unsigned). */
  FencingToken token(ResourceId resource, long epoch, String holder) {
    return new FencingToken(issuer().id(), resource, Epoch.of(epoch), holder);
  }

  WriteOutcome write(Destination<C> to, FencingToken token, String op, String payload) {
    return to.write(token, OperationId.of(op), change(token.resource(), payload));
  }

  /** A writer started in its own thread and paused at a step, and its outcome to come. */
  record PausedWriter(Pause pause, CompletableFuture<WriteOutcome> outcome) {}

  /**
   * Starts worker A's write of {@code payload} under {@code operation} with epoch 33 and waits
   * until it is paused right after its epoch check ({@link FencingStep#AFTER_EPOCH_CHECK}).
   */
  PausedWriter workerAPausedAfterItsEpochCheck(
      ResourceId resource, String operation, String payload) {
    PausePoints pauses = new PausePoints();
    Pause pause = pauses.pauseAt(FencingStep.AFTER_EPOCH_CHECK, "worker-a");
    CompletableFuture<WriteOutcome> outcome =
        Concurrently.start(
            "worker-a",
            () -> write(destination(pauses), token(resource, 33, "worker-a"), operation, payload));
    pause.awaitReached();
    return new PausedWriter(pause, outcome);
  }

  /** Worker A of the article: acquires, stalls until released, then publishes its old result. */
  private final class StalledWorker {
    final CountDownLatch acquired = new CountDownLatch(1);
    final CountDownLatch resume = new CountDownLatch(1);
    volatile Lease lease;
    final CompletableFuture<WriteOutcome> outcome;

    StalledWorker(ResourceId resource, Destination<C> destination) {
      outcome =
          Concurrently.start(
              "worker-a",
              () -> {
                lease = issuer().tryAcquire(resource, "worker-a", shortTtl()).orElseThrow();
                acquired.countDown();
                awaitLatch(resume); // the stall: GC pause, VM freeze, network stall
                return write(destination, lease.token(), "report-2026-10-27", "result of A");
              });
      awaitLatch(acquired);
    }
  }

  @Test
  void r11a_aWorkerStalledAfterAcquireLosesItsLeaseToAHigherEpoch() {
    ResourceId resource = freshResource("article-a");
    Destination<C> destination = destination();
    StalledWorker a = new StalledWorker(resource, destination);

    awaitExpiry(a.lease);
    Lease b = issuer().tryAcquire(resource, "worker-b", longTtl()).orElseThrow();

    assertThat(b.epoch()).isGreaterThan(a.lease.epoch());
    assertThat(destination.register(b.token()))
        .isEqualTo(new Registered(resource, b.epoch(), Epoch.NONE));
    assertThat(destination.currentEpoch(resource)).isEqualTo(b.epoch());
    assertThat(a.outcome).isNotDone();
    assertThatThrownBy(() -> issuer().renew(a.lease)).isInstanceOf(LeaseLostException.class);
    a.resume.countDown();
    assertThat(Concurrently.await(a.outcome))
        .isEqualTo(new RejectedStale(resource, a.lease.epoch(), b.epoch()));
  }

  @Test
  void r11b_aResumedStaleWorkerIsRejectedAndTheNewResultStaysPublished() {
    ResourceId resource = freshResource("article-b");
    Destination<C> destination = destination();
    StalledWorker a = new StalledWorker(resource, destination);
    awaitExpiry(a.lease);
    Lease b = issuer().tryAcquire(resource, "worker-b", longTtl()).orElseThrow();
    destination.register(b.token());
    assertThat(write(destination, b.token(), "report-2026-10-27", "result of B"))
        .isInstanceOf(Applied.class);

    a.resume.countDown();

    assertThat(Concurrently.await(a.outcome))
        .isEqualTo(new RejectedStale(resource, a.lease.epoch(), b.epoch()));
    assertThat(published(resource)).contains("result of B");
    assertThat(applyCount(resource)).isEqualTo(1);
    assertLookup(
        destination,
        resource,
        "report-2026-10-27",
        found ->
            found.hasValueSatisfying(receipt -> assertThat(receipt.epoch()).isEqualTo(b.epoch())));
  }

  @Test
  void r11b_aStaleWriterPausedJustBeforeTheLockLosesToTheNewOwner() {
    ResourceId resource = freshResource("paused-before-lock");
    PausePoints pauses = new PausePoints();
    Pause beforeLock = pauses.pauseAt(FencingStep.BEFORE_LOCK, "worker-a");
    FencingToken a = token(resource, 33, "worker-a");
    CompletableFuture<WriteOutcome> writerA =
        Concurrently.start("worker-a", () -> write(destination(pauses), a, "op-a", "A"));
    beforeLock.awaitReached();

    write(destination(), token(resource, 34, "worker-b"), "op-b", "B");
    beforeLock.resume();

    assertThat(Concurrently.await(writerA))
        .isEqualTo(new RejectedStale(resource, Epoch.of(33), Epoch.of(34)));
    assertThat(published(resource)).contains("B");
  }

  @Test
  void r11c_aRegistrationWhileAWriterIsBetweenTheEpochCheckAndTheApplyIsLinearizable() {
    ResourceId resource = freshResource("check-apply");
    // A's epoch is already the registered one, so A's write changes nothing in the control record:
    // only a real lock on it (or a swap against the version A read) can keep B's registration from
    // slipping in between A's check and A's change.
    destination().register(token(resource, 33, "worker-a"));
    PausedWriter writerAPaused = workerAPausedAfterItsEpochCheck(resource, "op-a", "A");
    Pause betweenCheckAndApply = writerAPaused.pause();
    CompletableFuture<WriteOutcome> writerA = writerAPaused.outcome();

    CompletableFuture<RegisterOutcome> registerB =
        Concurrently.start(
            "worker-b", () -> destination().register(token(resource, 34, "worker-b")));
    SecondStep b = secondStepWhileFirstIsPaused(registerB, resource, OperationId.of("op-a"));
    if (concurrencyControl() == ConcurrencyControl.LOCKING) {
      // The control record is locked from the check to the commit. A correct locking store always
      // passes this bounded wait; one that checks and writes in separate steps lets B finish here.
      assertThat(b.answeredWhileFirstPaused())
          .as("B registered while A was between its epoch check and its change (%s)", NOT_LOCKING)
          .isFalse();
    }
    betweenCheckAndApply.resume();

    WriteOutcome a = Concurrently.await(writerA);
    assertThat(Concurrently.await(registerB))
        .isEqualTo(new Registered(resource, Epoch.of(34), Epoch.of(33)));
    if (concurrencyControl() == ConcurrencyControl.LOCKING) {
      assertThat(a).as("A held the lock from its check to its commit").isInstanceOf(Applied.class);
    }
    if (a instanceof Applied) {
      b.assertFinishedAfterTheFirstStepApplied("A applied epoch 33");
      assertThat(published(resource)).contains("A");
    } else {
      assertThat(a).isEqualTo(new RejectedStale(resource, Epoch.of(33), Epoch.of(34)));
      assertThat(published(resource)).isEmpty();
      assertLookup(destination(), resource, "op-a", found -> found.isEmpty());
    }
    assertThat(destination().currentEpoch(resource)).isEqualTo(Epoch.of(34));
    assertThat(write(destination(), token(resource, 33, "worker-a"), "op-a2", "A2"))
        .isEqualTo(new RejectedStale(resource, Epoch.of(33), Epoch.of(34)));
  }

  @Test
  void r11c_aWriterPausedAfterItsEpochCheckIsNeverAnsweredWithANewerOwnersReceipt() {
    // The next owner reuses the operation ID on purpose (it redoes the stale owner's work). A's
    // epoch is the registered one; two versions exist, so the operation is not the current entry
    // and a store that keeps its records apart from the control record reads it separately. While
    // A is between its epoch check and that read, B registers epoch 34 and applies the operation.
    // A may come entirely before B (Applied, and B replays A's receipt) or after (RejectedStale);
    // AlreadyApplied with B's receipt is neither: no instant had A's epoch current and B's write
    // done.
    ResourceId resource = freshResource("check-replay");
    write(destination(), token(resource, 33, "worker-a"), "op-1", "one");
    write(destination(), token(resource, 33, "worker-a"), "op-2", "two");
    PausedWriter writerAPaused = workerAPausedAfterItsEpochCheck(resource, "op-x", "X");
    Pause afterCheck = writerAPaused.pause();
    CompletableFuture<WriteOutcome> writerA = writerAPaused.outcome();

    CompletableFuture<WriteOutcome> writerB =
        Concurrently.start(
            "worker-b", () -> write(destination(), token(resource, 34, "worker-b"), "op-x", "X"));
    secondStepWhileFirstIsPaused(writerB, resource, OperationId.of("op-x"));
    afterCheck.resume();

    WriteOutcome a = Concurrently.await(writerA);
    WriteOutcome b = Concurrently.await(writerB);
    if (a instanceof Applied applied) {
      assertThat(applied.receipt().epoch()).isEqualTo(Epoch.of(33));
      assertThat(b)
          .as("B, after A applied op-x, replays A's receipt")
          .isEqualTo(new AlreadyApplied(applied.receipt()));
    } else {
      assertThat(a)
          .as("A answered after B's epoch 34 applied op-x: stale, not B's receipt")
          .isEqualTo(new RejectedStale(resource, Epoch.of(33), Epoch.of(34)));
      assertThat(b).isInstanceOf(Applied.class);
      assertThat(((Applied) b).receipt().epoch()).isEqualTo(Epoch.of(34));
    }
    assertThat(published(resource)).contains("X");
    assertThat(destination().currentEpoch(resource)).isEqualTo(Epoch.of(34));
  }

  @Test
  void r5_aFirstWriterAndANewerRegistrationOnAFreshResourceAreLinearizable() {
    // Nothing is registered: A's write creates the control record. A store that creates it but
    // does not lock it (or does not swap against it) lets B's newer epoch in while A is paused,
    // then applies A's stale epoch anyway and moves the registered epoch back.
    ResourceId resource = freshResource("fresh-race");
    PausedWriter writerAPaused = workerAPausedAfterItsEpochCheck(resource, "op-a", "A");
    Pause betweenCheckAndApply = writerAPaused.pause();
    CompletableFuture<WriteOutcome> writerA = writerAPaused.outcome();

    CompletableFuture<RegisterOutcome> registerB =
        Concurrently.start(
            "worker-b", () -> destination().register(token(resource, 34, "worker-b")));
    SecondStep b = secondStepWhileFirstIsPaused(registerB, resource, OperationId.of("op-a"));
    betweenCheckAndApply.resume();

    WriteOutcome a = Concurrently.await(writerA);
    RegisterOutcome registered = Concurrently.await(registerB);
    assertThat(destination().currentEpoch(resource))
        .as("the registered epoch after B's epoch 34 was acknowledged")
        .isEqualTo(Epoch.of(34));
    if (a instanceof Applied applied) {
      // Only "A entirely before B" explains an applied A: B must have seen A's epoch, and must
      // not have been answered while A's change was still invisible.
      assertThat(registered)
          .as("B's registration, given that A applied epoch 33 (so A came first)")
          .isEqualTo(new Registered(resource, Epoch.of(34), Epoch.of(33)));
      b.assertFinishedAfterTheFirstStepApplied("A applied epoch 33");
      assertThat(applied.receipt().epoch()).isEqualTo(Epoch.of(33));
      assertThat(published(resource)).contains("A");
    } else {
      assertThat(a).isEqualTo(new RejectedStale(resource, Epoch.of(33), Epoch.of(34)));
      assertThat(registered)
          .as("B's registration, given that A was rejected (so B came first)")
          .isEqualTo(new Registered(resource, Epoch.of(34), Epoch.NONE));
      assertThat(published(resource)).isEmpty();
      assertLookup(destination(), resource, "op-a", found -> found.isEmpty());
    }
    assertThat(write(destination(), token(resource, 33, "worker-a"), "op-a2", "A2"))
        .isEqualTo(new RejectedStale(resource, Epoch.of(33), Epoch.of(34)));
    if (concurrencyControl() == ConcurrencyControl.LOCKING) {
      assertThat(b.answeredWhileFirstPaused())
          .as(
              "B registered while A held the new control record between its check and its change"
                  + " (%s)",
              NOT_LOCKING)
          .isFalse();
    }
  }

  @Test
  void r11c_aWorkerThatDiesBetweenApplyAndCommitLeavesNothingBehind() {
    ResourceId resource = freshResource("die-before-commit");
    write(destination(), token(resource, 33, "worker-a"), "op-1", "before");
    PausePoints pauses = new PausePoints();
    pauses.failAt(FencingStep.AFTER_APPLY, "worker-b");

    assertThatThrownBy(
            () -> write(destination(pauses), token(resource, 34, "worker-b"), "op-2", "after"))
        .isInstanceOf(PausePoints.SimulatedCrash.class);

    assertThat(published(resource)).contains("before");
    assertThat(applyCount(resource)).isEqualTo(1);
    assertLookup(destination(), resource, "op-2", found -> found.isEmpty());
    assertThat(destination().currentEpoch(resource))
        .as("the registration of epoch 34 is part of the aborted step")
        .isEqualTo(Epoch.of(33));
  }

  @Test
  void r11c_aRetryWhileTheFirstAnswerIsStillUnsentReplaysTheReceipt() {
    ResourceId resource = freshResource("apply-answer");
    FencingToken a = token(resource, 33, "worker-a");
    PausePoints pauses = new PausePoints();
    Pause beforeAnswer = pauses.pauseAt(FencingStep.AFTER_COMMIT, "worker-a");
    CompletableFuture<WriteOutcome> first =
        Concurrently.start("worker-a", () -> write(destination(pauses), a, "report-1", "A"));
    beforeAnswer.awaitReached();

    // The answer is "lost": A retries the same operation while the first call has not returned.
    WriteOutcome retry = write(destination(), a, "report-1", "A");
    beforeAnswer.resume();
    WriteOutcome original = Concurrently.await(first);

    assertThat(original).isInstanceOf(Applied.class);
    assertThat(retry).isEqualTo(new AlreadyApplied(((Applied) original).receipt()));
    assertThat(applyCount(resource)).isEqualTo(1);
  }

  /**
   * Worker A wrote last, then B, another process (another view of the store), registered a newer
   * epoch, and A writes again before B publishes anything: A's write is stale and changes nothing,
   * and B publishes after it. A store that keeps what it wrote last to skip a read (a
   * compare-and-swap store sending its swap at the version it wrote) must find out that the
   * registration moved the version on, although nothing else it writes collides.
   */
  @Test
  void r11b_aWriterThatWroteLastIsStaleOnceAnotherProcessRegisteredANewerEpoch() {
    ResourceId resource = freshResource("wrote-last-stale");
    Destination<C> processA = destination();
    Destination<C> processB = destination();
    FencingToken a = token(resource, 40, "worker-a");
    FencingToken b = token(resource, 41, "worker-b");
    processA.register(a);
    assertThat(write(processA, a, "a-1", "first of A")).isInstanceOf(Applied.class);
    assertThat(processB.register(b)).isEqualTo(new Registered(resource, b.epoch(), a.epoch()));

    assertThat(write(processA, a, "a-2", "second of A"))
        .isEqualTo(new RejectedStale(resource, a.epoch(), b.epoch()));
    assertThat(processB.currentEpoch(resource)).isEqualTo(b.epoch());
    assertThat(write(processB, b, "b-1", "first of B")).isInstanceOf(Applied.class);

    assertThat(published(resource)).contains("first of B");
    assertThat(applyCount(resource)).isEqualTo(2);
    assertLookup(processB, resource, "a-2", found -> found.isEmpty());
  }

  /**
   * Worker A wrote last, then another process of the same owner (same epoch) published: A's next
   * write is applied after it, and a retry of A's first operation replays its first receipt.
   */
  @Test
  void r11c_aWriterThatWroteLastAppliesAfterAnotherWriterOfTheSameEpoch() {
    ResourceId resource = freshResource("wrote-last-same-epoch");
    Destination<C> processA = destination();
    Destination<C> processB = destination();
    FencingToken token = token(resource, 40, "worker-a");
    processA.register(token);
    WriteOutcome first = write(processA, token, "a-1", "first of A");
    assertThat(first).isInstanceOf(Applied.class);
    assertThat(write(processB, token, "b-1", "first of B")).isInstanceOf(Applied.class);

    assertThat(write(processA, token, "a-2", "second of A")).isInstanceOf(Applied.class);
    assertThat(write(processA, token, "a-1", "first of A"))
        .isEqualTo(new AlreadyApplied(((Applied) first).receipt()));

    assertThat(published(resource)).contains("second of A");
    assertThat(applyCount(resource)).isEqualTo(3);
  }

  @Test
  void r11c_twoWritersWithTheSameEpochAndOperationApplyItOnce() {
    ResourceId resource = freshResource("same-op");
    FencingToken token = token(resource, 33, "worker-a");
    destination().register(token);
    PausePoints pauses = new PausePoints();
    Pause firstInside = pauses.pauseAt(FencingStep.AFTER_EPOCH_CHECK, "worker-a");
    Destination<C> destination = destination(pauses);
    CompletableFuture<WriteOutcome> one =
        Concurrently.start("writer-1", () -> write(destination, token, "report-1", "X"));
    firstInside.awaitReached();
    CompletableFuture<WriteOutcome> two =
        Concurrently.start("writer-2", () -> write(destination, token, "report-1", "X"));
    awaitLogged(pauses, "worker-a:BEFORE_LOCK:report-1", 2);
    if (concurrencyControl() == ConcurrencyControl.LOCKING) {
      // Writer 1 holds the control record between its epoch check and its change: writer 2 must
      // wait for it, not apply and record the operation in between.
      assertThat(awaitDone(two, 500))
          .as(
              "writer 2 finished while writer 1 was between its epoch check and its change (%s)",
              NOT_LOCKING)
          .isFalse();
    } else {
      // Nobody waits at a compare-and-swap store: writer 2 commits first, and writer 1's swap
      // against the version it read must fail, so it reads again and finds writer 2's receipt.
      assertThat(awaitWithoutWaiting(two, "writer 2", "writer 1"))
          .as("writer 2, while writer 1 is paused (a compare-and-swap store never waits)")
          .isInstanceOf(Applied.class);
    }
    firstInside.resume();

    List<WriteOutcome> outcomes = List.of(Concurrently.await(one), Concurrently.await(two));

    assertThat(outcomes).filteredOn(Applied.class::isInstance).hasSize(1);
    assertThat(outcomes).filteredOn(AlreadyApplied.class::isInstance).hasSize(1);
    Receipt applied =
        outcomes.stream()
            .filter(Applied.class::isInstance)
            .map(o -> ((Applied) o).receipt())
            .findFirst()
            .orElseThrow();
    assertThat(outcomes).contains(new AlreadyApplied(applied));
    assertThat(applyCount(resource)).isEqualTo(1);
  }

  @Test
  void theSecondWriterWaitsIfAndOnlyIfTheStoreIsDeclaredLocking() {
    // The declaration decides what the concurrency tests expect of a second writer; a wrong one
    // fails them all for no visible reason, so it is checked by itself first, with its cause.
    ResourceId resource = freshResource("declared-concurrency");
    destination().register(token(resource, 33, "worker-a"));
    PausePoints pauses = new PausePoints();
    Pause firstInside = pauses.pauseAt(FencingStep.AFTER_EPOCH_CHECK, "worker-a");
    CompletableFuture<WriteOutcome> first =
        Concurrently.start(
            "worker-a",
            () -> write(destination(pauses), token(resource, 33, "worker-a"), "op-a", "A"));
    firstInside.awaitReached();
    CompletableFuture<WriteOutcome> second =
        Concurrently.start(
            "worker-b",
            () -> write(destination(pauses), token(resource, 33, "worker-b"), "op-b", "B"));
    try {
      awaitBeforeLock(pauses, "worker-b:BEFORE_LOCK:op-b");
      if (concurrencyControl() == ConcurrencyControl.LOCKING) {
        if (awaitDone(second, 500)) {
          if (second.isCompletedExceptionally()) {
            // Failed fast instead of waiting (NOWAIT, a short lock timeout, SQLITE_BUSY): the
            // cause is the failure, not necessarily the declaration.
            throw new AssertionError(
                NOT_LOCKING
                    + " (worker-b's write of "
                    + resource
                    + " failed instead of waiting for worker-a's lock: wait for the lock up to"
                    + " the store's lock timeout, or declare COMPARE_AND_SWAP)",
                second.handle((result, failure) -> failure).join());
          }
          throw new AssertionError(
              NOT_LOCKING
                  + " (worker-b's write of "
                  + resource
                  + " answered "
                  + second.join()
                  + " while worker-a was paused inside its step, between its epoch check"
                  + " and its change; lock the control record from the epoch check to the commit,"
                  + " or, if writers never wait for each other, declare COMPARE_AND_SWAP: then each"
                  + " must re-read and decide again when its swap fails)");
        }
      } else {
        awaitWithoutWaiting(second, "worker-b", "worker-a");
      }
    } finally {
      firstInside.resume();
    }

    assertThat(Concurrently.await(first)).isInstanceOf(Applied.class);
    assertThat(Concurrently.await(second)).isInstanceOf(Applied.class);
    assertThat(applyCount(resource)).isEqualTo(2);
  }

  /**
   * What the test saw of a second step (B) started while the first step (A) is paused after its
   * epoch check: whether B was answered before A resumed, and what a reader saw of A's operation
   * and of the registered epoch right then.
   */
  private record SecondStep(
      boolean answeredWhileFirstPaused, boolean firstOperationSeen, Epoch epochSeen) {

    /**
     * Fails if B was answered while A's change was still invisible: then B came first, and A must
     * not have applied afterwards.
     */
    void assertFinishedAfterTheFirstStepApplied(String because) {
      assertThat(answeredWhileFirstPaused && !firstOperationSeen)
          .as(
              "%s, yet B was answered while A was paused before its change (registered epoch then:"
                  + " %s): A's stale epoch was applied after a newer one was registered",
              because, epochSeen)
          .isFalse();
    }
  }

  /**
   * Lets B run while A is paused after its epoch check. A locking store should hold B back (looked
   * at with a bounded wait; the caller asserts it); a compare-and-swap store answers B at once
   * (asserted: B never waits for a paused writer). When B is answered, reads A's operation and the
   * registered epoch, which must be B's.
   */
  private SecondStep secondStepWhileFirstIsPaused(
      CompletableFuture<?> second, ResourceId resource, OperationId firstOperation) {
    boolean answered;
    if (concurrencyControl() == ConcurrencyControl.LOCKING) {
      answered = awaitDone(second, 500);
    } else {
      awaitWithoutWaiting(second, "B", "A");
      answered = true;
    }
    if (!answered) {
      return new SecondStep(false, false, Epoch.NONE);
    }
    // Without RESULT_LOOKUP, A's change is what shows A's operation: the callers' resources have
    // no payload before A's.
    boolean seen =
        destination().capabilities().contains(Capability.RESULT_LOOKUP)
            ? destination().lookup(resource, firstOperation).isPresent()
            : published(resource).isPresent();
    Epoch epoch = destination().currentEpoch(resource);
    if (second.join() instanceof Registered registered) {
      assertThat(epoch)
          .as("the registered epoch right after B's epoch %s was acknowledged", registered.epoch())
          .isEqualTo(registered.epoch());
    }
    return new SecondStep(true, seen, epoch);
  }

  /**
   * Checks what {@code destination.lookup} answers for {@code operation} of {@code resource} with
   * {@code expected}, if the destination claims {@link Capability#RESULT_LOOKUP}; otherwise checks
   * the documented refusal ({@link UnsupportedCapabilityException}).
   */
  void assertLookup(
      Destination<C> destination,
      ResourceId resource,
      String operation,
      Consumer<OptionalAssert<Receipt>> expected) {
    if (destination.capabilities().contains(Capability.RESULT_LOOKUP)) {
      expected.accept(assertThat(destination.lookup(resource, OperationId.of(operation))));
    } else {
      assertLookupRefused(destination, resource, operation);
    }
  }

  static void assertLookupRefused(
      Destination<?> destination, ResourceId resource, String operation) {
    assertThatThrownBy(() -> destination.lookup(resource, OperationId.of(operation)))
        .as("lookup at a destination without RESULT_LOOKUP")
        .isInstanceOf(UnsupportedCapabilityException.class);
  }

  /**
   * Waits until {@code event} (a second writer's {@code BEFORE_LOCK}) is logged; fails with the
   * cause if it is not while the first writer is paused inside its step.
   */
  private void awaitBeforeLock(PausePoints pauses, String event) {
    long deadline = System.nanoTime() + secondWriterLimit().toNanos();
    while (!pauses.log().contains(event)) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError(
            event
                + " was not reported within "
                + secondWriterLimit()
                + " while another writer was paused inside its step: report BEFORE_LOCK before"
                + " anything that can wait for another writer (steps so far: "
                + pauses.log()
                + ")");
      }
      Thread.onSpinWait();
    }
  }

  /**
   * The outcome of {@code second}, which a {@link ConcurrencyControl#COMPARE_AND_SWAP} store
   * answers while {@code first} is paused inside its step; fails with the cause if it does not
   * within {@link #secondWriterLimit()}.
   */
  private <T> T awaitWithoutWaiting(
      CompletableFuture<T> second, String secondName, String firstName) {
    if (!awaitDone(second, secondWriterLimit().toMillis())) {
      throw new AssertionError(
          "the second writer waited: is this store COMPARE_AND_SWAP? ("
              + secondName
              + " did not finish within "
              + secondWriterLimit()
              + " while "
              + firstName
              + " was paused inside its step; a store whose second writer waits for the first"
              + " one's lock is LOCKING)");
    }
    return Concurrently.await(second);
  }

  private static void awaitLatch(CountDownLatch latch) {
    try {
      if (!latch.await(PausePoints.TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
        throw new AssertionError("latch not released within " + PausePoints.TIMEOUT);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }
}
