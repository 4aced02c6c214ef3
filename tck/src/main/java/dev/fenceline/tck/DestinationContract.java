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
import dev.fenceline.spi.Guarantee;
import dev.fenceline.spi.Lease;
import dev.fenceline.spi.LeaseLostException;
import dev.fenceline.spi.OperationConflictException;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Receipt;
import dev.fenceline.spi.RegisterOutcome;
import dev.fenceline.spi.Registered;
import dev.fenceline.spi.RejectedStale;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StepListener;
import dev.fenceline.spi.SupportsEpochReset;
import dev.fenceline.spi.TokenKeys;
import dev.fenceline.spi.UntrustedTokenException;
import dev.fenceline.spi.WriteOutcome;
import dev.fenceline.tck.PausePoints.Pause;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The conformance suite every fenced {@link Destination} passes (R2 to R4, R11 a to d). Subclass it
 * in the adapter's tests. Worker A and worker B are threads; {@link PausePoints} stop them at
 * {@link FencingStep}s inside the destination.
 *
 * @param <C> the destination's change type
 */
public abstract class DestinationContract<C> extends ContractSupport {

  private static final byte[] TCK_KEY =
      "fenceline-tck-key-0123456789abcdef".getBytes(java.nio.charset.StandardCharsets.UTF_8);

  /**
   * A destination named {@code name} over the store as it is now, reporting steps to {@code steps};
   * if {@code keys} is present it refuses tokens not signed with them. Two destinations with
   * different names share the store's registered epochs but not their operation records.
   */
  protected abstract Destination<C> destination(
      String name, StepListener steps, Optional<TokenKeys> keys);

  /**
   * How the store serializes two steps on one resource. Both kinds must give linearizable outcomes;
   * a {@link ConcurrencyControl#LOCKING} store must also make a second step wait while the first is
   * paused inside its atomic step, a {@link ConcurrencyControl#COMPARE_AND_SWAP} store must not.
   */
  protected abstract ConcurrencyControl concurrencyControl();

  /**
   * A change that publishes {@code payload} for {@code resource}. Its request fingerprint (where
   * the destination records one) must follow the payload: the suite checks that reusing an
   * operation ID with another payload is refused.
   */
  protected abstract C change(ResourceId resource, String payload);

  /** What a reader of {@code resource} sees now, read outside any destination call. */
  protected abstract Optional<String> published(ResourceId resource);

  /** How many changes were really applied to {@code resource} so far. */
  protected abstract long applyCount(ResourceId resource);

  /** The suite's usual destination, named {@code tck}, reporting steps to {@code steps}. */
  protected final Destination<C> destination(StepListener steps) {
    return destination("tck", steps, Optional.empty());
  }

  private Destination<C> destination() {
    return destination(StepListener.NONE);
  }

  /** A token of the suite's issuer, built by hand (unsigned). */
  private FencingToken token(ResourceId resource, long epoch, String holder) {
    return new FencingToken(issuer().id(), resource, Epoch.of(epoch), holder);
  }

  private WriteOutcome write(Destination<C> to, FencingToken token, String op, String payload) {
    return to.write(token, OperationId.of(op), change(token.resource(), payload));
  }

  @Test
  void reportsAFencedGuaranteeWithResultLookup() {
    assertThat(destination().capabilities())
        .contains(
            Capability.NATIVE_EPOCH_CHECK, Capability.OPERATION_RECORD, Capability.RESULT_LOOKUP);
    assertThat(destination().guarantee()).isIn(Guarantee.FENCED, Guarantee.FENCED_BY_STAGING);
  }

  @Test
  void appliesAChangeAndRecordsItsReceipt() {
    ResourceId resource = freshResource("apply");
    FencingToken token = token(resource, 33, "worker-a");

    WriteOutcome outcome = write(destination(), token, "report-1", "result of A");

    assertThat(outcome).isInstanceOf(Applied.class);
    Receipt receipt = ((Applied) outcome).receipt();
    assertThat(receipt.resource()).isEqualTo(resource);
    assertThat(receipt.operation()).isEqualTo(OperationId.of("report-1"));
    assertThat(receipt.epoch()).isEqualTo(Epoch.of(33));
    assertThat(published(resource)).contains("result of A");
    assertThat(applyCount(resource)).isEqualTo(1);
    assertThat(destination().currentEpoch(resource)).isEqualTo(Epoch.of(33));
    assertThat(destination().lookup(resource, OperationId.of("report-1"))).contains(receipt);
  }

  @Test
  void r4_retryOfAnAppliedOperationReplaysTheReceiptAndAppliesNothing() {
    ResourceId resource = freshResource("retry");
    FencingToken token = token(resource, 33, "worker-a");
    Receipt first = ((Applied) write(destination(), token, "report-1", "first")).receipt();

    WriteOutcome retry = write(destination(), token, "report-1", "first");

    assertThat(retry).isEqualTo(new AlreadyApplied(first));
    assertThat(published(resource)).contains("first");
    assertThat(applyCount(resource)).isEqualTo(1);
  }

  @Test
  void r4_aRetryOfAnOperationThatNewerOnesReplacedReplaysItsReceiptAndAppliesNothing() {
    // A store that finds only the newest operation's record re-applies an older one here.
    ResourceId resource = freshResource("retry-replaced");
    FencingToken token = token(resource, 33, "worker-a");
    Receipt first = ((Applied) write(destination(), token, "report-1", "first")).receipt();
    write(destination(), token, "report-2", "second");
    write(destination(), token, "report-3", "third");

    WriteOutcome retry = write(destination(), token, "report-1", "first");

    assertThat(retry).isEqualTo(new AlreadyApplied(first));
    assertThat(published(resource)).contains("third");
    assertThat(applyCount(resource)).isEqualTo(3);
    assertThat(destination().lookup(resource, OperationId.of("report-1"))).contains(first);
  }

  @Test
  void r2_olderEpochIsRejectedAndChangesNothing() {
    ResourceId resource = freshResource("stale");
    write(destination(), token(resource, 34, "worker-b"), "report-b", "result of B");

    WriteOutcome outcome =
        write(destination(), token(resource, 33, "worker-a"), "report-a", "result of A");

    assertThat(outcome).isEqualTo(new RejectedStale(resource, Epoch.of(33), Epoch.of(34)));
    assertThat(published(resource)).contains("result of B");
    assertThat(applyCount(resource)).isEqualTo(1);
    assertThat(destination().lookup(resource, OperationId.of("report-a"))).isEmpty();
    assertThat(destination().currentEpoch(resource)).isEqualTo(Epoch.of(34));
  }

  @Test
  void r2_aWriteWithANewerEpochRegistersIt() {
    ResourceId resource = freshResource("newer");
    write(destination(), token(resource, 33, "worker-a"), "op-1", "one");

    assertThat(write(destination(), token(resource, 35, "worker-c"), "op-2", "two"))
        .isInstanceOf(Applied.class);

    assertThat(destination().currentEpoch(resource)).isEqualTo(Epoch.of(35));
    assertThat(write(destination(), token(resource, 34, "worker-b"), "op-3", "three"))
        .isEqualTo(new RejectedStale(resource, Epoch.of(34), Epoch.of(35)));
  }

  @Test
  void registerCutsOffTheOldOwnerBeforeTheNewOneWrites() {
    ResourceId resource = freshResource("register");
    write(destination(), token(resource, 33, "worker-a"), "op-a1", "a1");

    assertThat(destination().register(token(resource, 34, "worker-b")))
        .isEqualTo(new Registered(resource, Epoch.of(34), Epoch.of(33)));

    assertThat(write(destination(), token(resource, 33, "worker-a"), "op-a2", "a2"))
        .isEqualTo(new RejectedStale(resource, Epoch.of(33), Epoch.of(34)));
    assertThat(published(resource)).contains("a1");
  }

  @Test
  void registerIsIdempotentForTheCurrentEpochAndRejectsOlderOnes() {
    ResourceId resource = freshResource("register-again");
    FencingToken b = token(resource, 34, "worker-b");
    destination().register(b);

    assertThat(destination().register(b))
        .isEqualTo(new Registered(resource, Epoch.of(34), Epoch.of(34)));
    assertThat(destination().register(token(resource, 33, "worker-a")))
        .isEqualTo(new RejectedStale(resource, Epoch.of(33), Epoch.of(34)));
    assertThat(destination().currentEpoch(resource)).isEqualTo(Epoch.of(34));
  }

  @Test
  void r3_theEpochIsCheckedBeforeTheOperationId() {
    ResourceId resource = freshResource("order");
    FencingToken a = token(resource, 33, "worker-a");
    Receipt receipt = ((Applied) write(destination(), a, "report-1", "result of A")).receipt();
    destination().register(token(resource, 34, "worker-b"));

    // A retries its own applied operation after losing the lease: rejected as stale, as the
    // article's order demands, yet the result can still be looked up.
    assertThat(write(destination(), a, "report-1", "result of A"))
        .isEqualTo(new RejectedStale(resource, Epoch.of(33), Epoch.of(34)));
    assertThat(destination().lookup(resource, OperationId.of("report-1"))).contains(receipt);
  }

  @Test
  void r4_aNewOwnerRetryingAnAppliedOperationGetsTheOriginalReceipt() {
    ResourceId resource = freshResource("takeover-retry");
    Receipt byA =
        ((Applied) write(destination(), token(resource, 33, "worker-a"), "report-1", "A"))
            .receipt();

    WriteOutcome byB = write(destination(), token(resource, 34, "worker-b"), "report-1", "A");

    assertThat(byB).isEqualTo(new AlreadyApplied(byA));
    assertThat(published(resource)).contains("A");
    assertThat(destination().currentEpoch(resource)).isEqualTo(Epoch.of(34));
  }

  @Test
  void operationsAreScopedPerDestination() {
    ResourceId resource = freshResource("scope");
    FencingToken token = token(resource, 33, "worker-a");
    Destination<C> invoices = destination("invoices", StepListener.NONE, Optional.empty());
    Destination<C> audit = destination("audit", StepListener.NONE, Optional.empty());
    Receipt invoice = ((Applied) write(invoices, token, "order-1", "invoice")).receipt();

    WriteOutcome audited = write(audit, token, "order-1", "invoice");

    assertThat(audited)
        .as("the same business operation at another destination is another operation")
        .isInstanceOf(Applied.class);
    Receipt auditReceipt = ((Applied) audited).receipt();
    assertThat(invoice.destination()).isEqualTo("invoices");
    assertThat(auditReceipt.destination()).isEqualTo("audit");
    assertThat(invoices.lookup(resource, OperationId.of("order-1"))).contains(invoice);
    assertThat(audit.lookup(resource, OperationId.of("order-1"))).contains(auditReceipt);
    assertThat(write(audit, token, "order-1", "invoice"))
        .isEqualTo(new AlreadyApplied(auditReceipt));
    assertThat(
            destination("other", StepListener.NONE, Optional.empty())
                .lookup(resource, OperationId.of("order-1")))
        .isEmpty();
    // The registered epoch is the resource's, shared by every destination of the store.
    invoices.register(token(resource, 34, "worker-b"));
    assertThat(write(audit, token, "order-2", "late"))
        .isEqualTo(new RejectedStale(resource, Epoch.of(33), Epoch.of(34)));
  }

  @Test
  void r4_reusingAnOperationIdForAnotherRequestIsRefusedAndChangesNothing() {
    ResourceId resource = freshResource("reuse");
    FencingToken token = token(resource, 33, "worker-a");
    Receipt first = ((Applied) write(destination(), token, "report-1", "first")).receipt();

    assertThatThrownBy(() -> write(destination(), token, "report-1", "something else"))
        .isInstanceOf(OperationConflictException.class)
        .hasMessageContaining("Cannot apply operation report-1 of " + resource + " to tck")
        .hasMessageContaining("different request")
        .satisfies(e -> assertThat(((OperationConflictException) e).recorded()).isEqualTo(first));
    assertThat(published(resource)).contains("first");
    assertThat(applyCount(resource)).isEqualTo(1);
    assertThat(destination().lookup(resource, OperationId.of("report-1"))).contains(first);
    assertThatThrownBy(
            () -> write(destination(), token(resource, 34, "worker-b"), "report-1", "B's result"))
        .as("a new owner reusing the ID with its own result")
        .isInstanceOf(OperationConflictException.class);
    assertThat(write(destination(), token(resource, 33, "worker-a"), "report-2", "x"))
        .as("the conflicting attempt at epoch 34 registered nothing")
        .isInstanceOf(Applied.class);
  }

  @Test
  void aTokenOfAnotherIssuerIsRefusedBeforeItsEpochIsLookedAt() {
    ResourceId resource = freshResource("foreign");
    destination().register(token(resource, 3, "worker-a"));
    FencingToken foreign =
        new FencingToken("another-issuer", resource, Epoch.of(Long.MAX_VALUE), "intruder");

    assertThatThrownBy(() -> destination().register(foreign))
        .isInstanceOf(UntrustedTokenException.class)
        .hasMessageContaining("issued by another-issuer")
        .hasMessageContaining("registered with issuer " + issuer().id());
    assertThatThrownBy(() -> write(destination(), foreign, "op", "intruder's"))
        .isInstanceOf(UntrustedTokenException.class);
    assertThat(destination().currentEpoch(resource)).isEqualTo(Epoch.of(3));
    assertThat(published(resource)).isEmpty();
    assertThat(write(destination(), token(resource, 3, "worker-a"), "op", "mine"))
        .isInstanceOf(Applied.class);
  }

  @Test
  void withKeysUnsignedAndForgedTokensAreRefusedAndSignedOnesAccepted() {
    ResourceId resource = freshResource("signed");
    TokenKeys keys = TokenKeys.builder().key("k1", TCK_KEY).build();
    Destination<C> guarded = destination("tck", StepListener.NONE, Optional.of(keys));
    FencingToken signed = keys.sign(token(resource, 5, "worker-a"));
    FencingToken forged =
        new FencingToken(
            signed.issuer(), resource, Epoch.of(Long.MAX_VALUE), "worker-a", signed.signature());

    assertThatThrownBy(() -> guarded.register(token(resource, 6, "worker-a")))
        .isInstanceOf(UntrustedTokenException.class)
        .hasMessageContaining("unsigned");
    assertThatThrownBy(() -> guarded.register(forged))
        .isInstanceOf(UntrustedTokenException.class)
        .hasMessageContaining("does not verify");
    assertThatThrownBy(() -> write(guarded, forged, "op", "forged"))
        .isInstanceOf(UntrustedTokenException.class);
    assertThat(guarded.currentEpoch(resource)).isEqualTo(Epoch.NONE);
    assertThat(write(guarded, signed, "op", "signed")).isInstanceOf(Applied.class);
    assertThat(published(resource)).contains("signed");
  }

  @Test
  void anAdminResetUnlocksAResourceLockedOutByAMadeUpEpoch() {
    ResourceId resource = freshResource("locked-out");
    Destination<C> destination = destination();
    destination.register(token(resource, Long.MAX_VALUE, "intruder"));
    Lease lease = issuer().tryAcquire(resource, "worker-a", longTtl()).orElseThrow();
    assertThat(write(destination, lease.token(), "op", "A"))
        .isEqualTo(new RejectedStale(resource, lease.epoch(), Epoch.of(Long.MAX_VALUE)));

    assertThat(destination).isInstanceOf(SupportsEpochReset.class);
    Epoch previous =
        ((SupportsEpochReset) destination)
            .resetRegisteredEpoch(resource, lease.epoch(), "TCK: made-up epoch registered");

    assertThat(previous).isEqualTo(Epoch.of(Long.MAX_VALUE));
    assertThat(destination.currentEpoch(resource)).isEqualTo(lease.epoch());
    assertThat(write(destination, lease.token(), "op", "A")).isInstanceOf(Applied.class);
    assertThat(published(resource)).contains("A");
  }

  @Test
  void afterAnAdminResetTheNextTokenBindsItsIssuerAgain() {
    ResourceId registered = freshResource("reset-issuer-register");
    ResourceId retried = freshResource("reset-issuer-retry");
    Destination<C> destination = destination();
    destination.register(token(registered, 5, "worker-a"));
    Receipt receipt =
        ((Applied) write(destination, token(retried, 5, "worker-a"), "op-1", "A")).receipt();
    assertThat(destination).isInstanceOf(SupportsEpochReset.class);
    for (ResourceId resource : List.of(registered, retried)) {
      ((SupportsEpochReset) destination)
          .resetRegisteredEpoch(resource, Epoch.of(7), "TCK: moving to another issuer");
    }
    // A stale token binds nothing, whoever issued it.
    assertThat(
            destination.register(
                new FencingToken("stale-issuer", registered, Epoch.of(6), "worker-s")))
        .isEqualTo(new RejectedStale(registered, Epoch.of(6), Epoch.of(7)));
    FencingToken moved = new FencingToken("new-issuer", registered, Epoch.of(7), "worker-n");
    FencingToken movedRetry = new FencingToken("new-issuer", retried, Epoch.of(7), "worker-n");

    // The token's epoch equals the reset one: nothing newer to register, but the issuer is bound.
    assertThat(destination.register(moved))
        .isEqualTo(new Registered(registered, Epoch.of(7), Epoch.of(7)));
    // From another thread: the reset must not keep anything locked.
    assertThat(
            Concurrently.await(
                Concurrently.start(
                    "worker-n", () -> write(destination(), movedRetry, "op-1", "A"))))
        .isEqualTo(new AlreadyApplied(receipt));

    for (ResourceId resource : List.of(registered, retried)) {
      assertThatThrownBy(() -> destination.register(token(resource, 8, "worker-a")))
          .as("%s", resource)
          .isInstanceOf(UntrustedTokenException.class)
          .hasMessageContaining("registered with issuer new-issuer");
      assertThat(destination.currentEpoch(resource)).isEqualTo(Epoch.of(7));
    }
  }

  @Test
  void lookupOfAnUnknownOperationIsEmpty() {
    assertThat(destination().lookup(freshResource("lookup"), OperationId.of("never"))).isEmpty();
    assertThat(destination().currentEpoch(freshResource("lookup"))).isEqualTo(Epoch.NONE);
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
    assertThat(destination.lookup(resource, OperationId.of("report-2026-10-27")))
        .hasValueSatisfying(receipt -> assertThat(receipt.epoch()).isEqualTo(b.epoch()));
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
    PausePoints pauses = new PausePoints();
    Pause betweenCheckAndApply = pauses.pauseAt(FencingStep.AFTER_EPOCH_CHECK, "worker-a");
    CompletableFuture<WriteOutcome> writerA =
        Concurrently.start(
            "worker-a",
            () -> write(destination(pauses), token(resource, 33, "worker-a"), "op-a", "A"));
    betweenCheckAndApply.awaitReached();

    CompletableFuture<RegisterOutcome> registerB =
        Concurrently.start(
            "worker-b", () -> destination().register(token(resource, 34, "worker-b")));
    SecondStep b = secondStepWhileFirstIsPaused(registerB, resource, OperationId.of("op-a"));
    if (concurrencyControl() == ConcurrencyControl.LOCKING) {
      // The control record is locked from the check to the commit. A correct locking store always
      // passes this bounded wait; one that checks and writes in separate steps lets B finish here.
      assertThat(b.answeredWhileFirstPaused())
          .as("B registered while A was between its epoch check and its change")
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
      assertThat(destination().lookup(resource, OperationId.of("op-a"))).isEmpty();
    }
    assertThat(destination().currentEpoch(resource)).isEqualTo(Epoch.of(34));
    assertThat(write(destination(), token(resource, 33, "worker-a"), "op-a2", "A2"))
        .isEqualTo(new RejectedStale(resource, Epoch.of(33), Epoch.of(34)));
  }

  @Test
  void r5_aFirstWriterAndANewerRegistrationOnAFreshResourceAreLinearizable() {
    // Nothing is registered: A's write creates the control record. A store that creates it but
    // does not lock it (or does not swap against it) lets B's newer epoch in while A is paused,
    // then applies A's stale epoch anyway and moves the registered epoch back.
    ResourceId resource = freshResource("fresh-race");
    PausePoints pauses = new PausePoints();
    Pause betweenCheckAndApply = pauses.pauseAt(FencingStep.AFTER_EPOCH_CHECK, "worker-a");
    CompletableFuture<WriteOutcome> writerA =
        Concurrently.start(
            "worker-a",
            () -> write(destination(pauses), token(resource, 33, "worker-a"), "op-a", "A"));
    betweenCheckAndApply.awaitReached();

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
      assertThat(destination().lookup(resource, OperationId.of("op-a"))).isEmpty();
    }
    assertThat(write(destination(), token(resource, 33, "worker-a"), "op-a2", "A2"))
        .isEqualTo(new RejectedStale(resource, Epoch.of(33), Epoch.of(34)));
    if (concurrencyControl() == ConcurrencyControl.LOCKING) {
      assertThat(b.answeredWhileFirstPaused())
          .as("B registered while A held the new control record between its check and its change")
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
    assertThat(destination().lookup(resource, OperationId.of("op-2"))).isEmpty();
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
          .as("writer 2 finished while writer 1 was between its epoch check and its change")
          .isFalse();
    } else {
      // Nobody waits at a compare-and-swap store: writer 2 commits first, and writer 1's swap
      // against the version it read must fail, so it reads again and finds writer 2's receipt.
      assertThat(Concurrently.await(two))
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
  void everyInterruptedWriteLeavesThePreviousVersionReadable() {
    List<FencingStep> steps =
        new java.util.ArrayList<>(
            List.of(
                FencingStep.BEFORE_LOCK, FencingStep.AFTER_EPOCH_CHECK, FencingStep.AFTER_APPLY));
    if (destination().capabilities().contains(Capability.STAGED_PUBLISH)) {
      steps.add(FencingStep.AFTER_STAGE);
    }
    for (FencingStep step : steps) {
      ResourceId resource = freshResource("interrupt-" + step);
      write(destination(), token(resource, 1, "worker-a"), "v1", "version 1");
      PausePoints pauses = new PausePoints();
      pauses.failAt(step, "worker-b");

      assertThatThrownBy(
              () -> write(destination(pauses), token(resource, 2, "worker-b"), "v2", "version 2"))
          .as("crash at %s", step)
          .isInstanceOf(PausePoints.SimulatedCrash.class);

      assertThat(published(resource)).as("after a crash at %s", step).contains("version 1");
      assertThat(destination().lookup(resource, OperationId.of("v2"))).isEmpty();
      assertThat(write(destination(), token(resource, 2, "worker-b"), "v2", "version 2"))
          .as("the retry after a crash at %s", step)
          .isInstanceOf(Applied.class);
    }
  }

  @Test
  void r11d_afterARestartTheEpochStaysAndReceiptsCanBeLookedUp() {
    ResourceId resource = freshResource("restart");
    Receipt receipt =
        ((Applied) write(destination(), token(resource, 34, "worker-b"), "report-1", "B"))
            .receipt();

    restartStore();

    assertThat(destination().currentEpoch(resource)).isEqualTo(Epoch.of(34));
    assertThat(destination().lookup(resource, OperationId.of("report-1"))).contains(receipt);
    assertThat(published(resource)).contains("B");
    assertThat(write(destination(), token(resource, 33, "worker-a"), "report-2", "A"))
        .isEqualTo(new RejectedStale(resource, Epoch.of(33), Epoch.of(34)));
    assertThat(write(destination(), token(resource, 34, "worker-b"), "report-1", "B"))
        .isEqualTo(new AlreadyApplied(receipt));
  }

  /**
   * What the test saw of a second step (B) started while the first step (A) is paused after its
   * epoch check: whether B was answered before A resumed, and what a reader saw of A's operation
   * and of the registered epoch right then.
   */
  private record SecondStep(
      boolean answeredWhileFirstPaused, Optional<Receipt> firstOperationSeen, Epoch epochSeen) {

    /**
     * Fails if B was answered while A's change was still invisible: then B came first, and A must
     * not have applied afterwards.
     */
    void assertFinishedAfterTheFirstStepApplied(String because) {
      assertThat(answeredWhileFirstPaused && firstOperationSeen.isEmpty())
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
      Concurrently.await(second);
      answered = true;
    }
    if (!answered) {
      return new SecondStep(false, Optional.empty(), Epoch.NONE);
    }
    Optional<Receipt> seen = destination().lookup(resource, firstOperation);
    Epoch epoch = destination().currentEpoch(resource);
    if (second.join() instanceof Registered registered) {
      assertThat(epoch)
          .as("the registered epoch right after B's epoch %s was acknowledged", registered.epoch())
          .isEqualTo(registered.epoch());
    }
    return new SecondStep(true, seen, epoch);
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
