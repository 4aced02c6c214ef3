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
import dev.fenceline.spi.Guarantee;
import dev.fenceline.spi.Lease;
import dev.fenceline.spi.OperationConflictException;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Receipt;
import dev.fenceline.spi.Registered;
import dev.fenceline.spi.RejectedStale;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StepListener;
import dev.fenceline.spi.SupportsEpochReset;
import dev.fenceline.spi.TokenKeys;
import dev.fenceline.spi.UnsupportedCapabilityException;
import dev.fenceline.spi.UntrustedTokenException;
import dev.fenceline.spi.WriteOutcome;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The conformance suite every fenced {@link Destination} passes (R2 to R4, R11 a to d). Subclass it
 * in the adapter's tests. Worker A and worker B are threads; {@link PausePoints} stop them at
 * {@link FencingStep}s inside the destination.
 *
 * <h2>How to start</h2>
 *
 * <p>Add {@code dev.fenceline:fenceline-tck} in test scope: it brings JUnit Jupiter (API and
 * engine) and AssertJ, so a subclass runs as it is. Implement:
 *
 * <ul>
 *   <li>{@link #destination(String, StepListener, Optional)}: a destination over the store as it is
 *       now, reporting its steps to the listener (see {@link FencingStep} for which step each
 *       outcome reports);
 *   <li>{@link #concurrencyControl()}: {@link ConcurrencyControl#LOCKING} if a second writer of a
 *       resource waits for the first one's lock (a database row lock), {@link
 *       ConcurrencyControl#COMPARE_AND_SWAP} if nobody waits and a writer whose conditional write
 *       fails reads and decides again; the suite checks the declaration first ({@code
 *       theSecondWriterWaitsIfAndOnlyIfTheStoreIsDeclaredLocking}) and says which it found;
 *   <li>{@link #change}, {@link #published} and {@link #applyCount}: how the suite makes a change
 *       from a text payload and sees what a reader sees;
 *   <li>{@link #issuer()}: the issuer the suite takes leases from. A destination-only adapter can
 *       use the in-memory reference issuer, {@code new
 *       dev.fenceline.tck.memory.InMemoryLeaseIssuer(storage, Clock.systemUTC())} over one {@code
 *       InMemoryLeaseIssuer.Storage} field, so that its state outlives {@link #restartStore()};
 *   <li>{@link #restartStore()}: close the store and open it again on the same data.
 * </ul>
 *
 * <p>The rules checked are the SPI's: {@link Destination#write}, {@link Destination#register} and
 * {@link FencingStep} state them, with the exceptions and the helpers that build their messages.
 *
 * <h2>Optional capabilities</h2>
 *
 * <p>As in Trino's and ShedLock's suites, what a store claims decides what is checked, and what it
 * does not claim is checked to be refused as documented, never skipped:
 *
 * <ul>
 *   <li>{@link Capability#RESULT_LOOKUP} in {@link Destination#capabilities()}: every receipt the
 *       tests expect is looked up; without it, {@link Destination#lookup} must throw {@link
 *       UnsupportedCapabilityException};
 *   <li>{@link SupportsEpochReset} implemented: the admin-reset tests run; without it, a registered
 *       epoch and issuer binding must stay as they are;
 *   <li>{@link #supportsTokenKeys()} (default true): signed tokens are checked; overridden to
 *       false, creating the destination with keys must throw {@link
 *       UnsupportedCapabilityException}.
 * </ul>
 *
 * <p>{@code dev.fenceline.locking.LockingSteps} ({@code fenceline-locking}) has the whole step for
 * a store that locks rows in transactions; {@code CasPointerSteps} ({@code fenceline-cas}) for a
 * pointer store on a compare-and-swap store.
 *
 * @param <C> the destination's change type
 */
public abstract class DestinationContract<C> extends ConcurrentWriterTests<C> {

  private static final byte[] TCK_KEY =
      "fenceline-tck-key-0123456789abcdef".getBytes(java.nio.charset.StandardCharsets.UTF_8);

  /**
   * A destination named {@code name} over the store as it is now, reporting steps to {@code steps};
   * if {@code keys} is present it refuses tokens not signed with them (or, for a store that cannot
   * check signatures, creating it throws {@link UnsupportedCapabilityException}: see {@link
   * #supportsTokenKeys()}). Two destinations with different names share the store's registered
   * epochs but not their operation records. Called often: return a new view of the same store, not
   * a new store.
   */
  @Override
  protected abstract Destination<C> destination(
      String name, StepListener steps, Optional<TokenKeys> keys);

  /**
   * How the store serializes two steps on one resource. Both kinds must give linearizable outcomes;
   * a {@link ConcurrencyControl#LOCKING} store must also make a second step wait while the first is
   * paused inside its atomic step, a {@link ConcurrencyControl#COMPARE_AND_SWAP} store must not. A
   * wrong declaration fails with "the second writer did not wait: is this store LOCKING?" or "the
   * second writer waited: is this store COMPARE_AND_SWAP?".
   */
  @Override
  protected abstract ConcurrencyControl concurrencyControl();

  /**
   * A change that publishes {@code payload} for {@code resource}. Its request fingerprint (where
   * the destination records one) must follow the payload: the suite checks that reusing an
   * operation ID with another payload is refused.
   */
  @Override
  protected abstract C change(ResourceId resource, String payload);

  /** What a reader of {@code resource} sees now, read outside any destination call. */
  @Override
  protected abstract Optional<String> published(ResourceId resource);

  /** How many changes were really applied to {@code resource} so far. */
  @Override
  protected abstract long applyCount(ResourceId resource);

  /**
   * Whether {@link #destination()} resets registered epochs ({@link SupportsEpochReset}). Default:
   * whether it implements that interface. A destination that implements it but refuses in this
   * configuration (for example a staged destination over a pointer store that cannot reset)
   * overrides this with false; the suite then asserts the documented refusal, {@link
   * UnsupportedCapabilityException} with the epoch left as it was.
   */
  protected boolean supportsEpochReset() {
    return destination() instanceof SupportsEpochReset;
  }

  /**
   * Asserts that an unclaimed reset is refused, if the destination implements the interface at all,
   * and changes nothing.
   */
  private void assertResetRefused(Destination<C> destination, ResourceId resource, Epoch to) {
    if (destination instanceof SupportsEpochReset resets) {
      Epoch before = destination.currentEpoch(resource);
      assertThatThrownBy(() -> resets.resetRegisteredEpoch(resource, to, "TCK: not claimed"))
          .as("a reset although supportsEpochReset() is false")
          .isInstanceOf(UnsupportedCapabilityException.class);
      assertThat(destination.currentEpoch(resource)).isEqualTo(before);
    }
  }

  /**
   * Whether the destination can be configured with {@link TokenKeys} and then refuses unsigned and
   * forged tokens. Default true, and the suite checks it. Override it to return false for a store
   * that cannot check signatures: the suite then checks that {@link #destination(String,
   * StepListener, Optional)} with keys throws {@link UnsupportedCapabilityException} (pass the keys
   * on to the store's builder or factory, which refuses them), instead of accepting keys it would
   * ignore.
   */
  protected boolean supportsTokenKeys() {
    return true;
  }

  @Test
  void reportsAFencedGuaranteeAndResultLookupOnlyIfItHasIt() {
    assertThat(destination().capabilities())
        .contains(Capability.NATIVE_EPOCH_CHECK, Capability.OPERATION_RECORD);
    assertThat(destination().guarantee()).isIn(Guarantee.FENCED, Guarantee.FENCED_BY_STAGING);
    if (!destination().capabilities().contains(Capability.RESULT_LOOKUP)) {
      // Not claimed: the documented refusal (Destination#lookup), never a made-up answer.
      assertLookupRefused(destination(), freshResource("no-lookup"), "op");
    }
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
    assertLookup(destination(), resource, "report-1", found -> found.contains(receipt));
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
    assertLookup(destination(), resource, "report-1", found -> found.contains(first));
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
    assertLookup(destination(), resource, "report-a", found -> found.isEmpty());
    assertThat(destination().currentEpoch(resource)).isEqualTo(Epoch.of(34));
    if (!destination().capabilities().contains(Capability.RESULT_LOOKUP)) {
      // Without a lookup, a write shows that the rejected operation was not recorded: it applies.
      assertThat(write(destination(), token(resource, 34, "worker-b"), "report-a", "result of A"))
          .isInstanceOf(Applied.class);
    }
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
    assertLookup(destination(), resource, "report-1", found -> found.contains(receipt));
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
    assertLookup(invoices, resource, "order-1", found -> found.contains(invoice));
    assertLookup(audit, resource, "order-1", found -> found.contains(auditReceipt));
    assertThat(write(audit, token, "order-1", "invoice"))
        .isEqualTo(new AlreadyApplied(auditReceipt));
    assertLookup(
        destination("other", StepListener.NONE, Optional.empty()),
        resource,
        "order-1",
        found -> found.isEmpty());
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
    assertLookup(destination(), resource, "report-1", found -> found.contains(first));
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
    if (!supportsTokenKeys()) {
      // Not claimed: a destination that cannot check signatures refuses keys (TokenKeys), so that
      // nobody believes unsigned tokens are refused when they are not.
      assertThatThrownBy(() -> destination("tck", StepListener.NONE, Optional.of(keys)))
          .as("a destination given keys although supportsTokenKeys() is false")
          .isInstanceOf(UnsupportedCapabilityException.class);
      return;
    }
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
    if (!supportsEpochReset()) {
      // Not claimed: a registered epoch only grows (SupportsEpochReset), so the resource stays
      // locked out; signed tokens (TokenKeys) keep made-up epochs out in the first place.
      assertResetRefused(destination, resource, lease.epoch());
      assertThat(destination().currentEpoch(resource)).isEqualTo(Epoch.of(Long.MAX_VALUE));
      return;
    }

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
    if (!supportsEpochReset()) {
      // Not claimed: nothing can unbind the issuer, so another issuer's tokens stay refused.
      assertResetRefused(destination, registered, Epoch.of(7));
      assertThatThrownBy(
              () ->
                  destination.register(
                      new FencingToken("new-issuer", registered, Epoch.of(7), "worker-n")))
          .isInstanceOf(UntrustedTokenException.class);
      assertThat(destination.currentEpoch(registered)).isEqualTo(Epoch.of(5));
      return;
    }
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
    assertLookup(destination(), freshResource("lookup"), "never", found -> found.isEmpty());
    assertThat(destination().currentEpoch(freshResource("lookup"))).isEqualTo(Epoch.NONE);
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
      assertLookup(destination(), resource, "v2", found -> found.isEmpty());
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
    assertLookup(destination(), resource, "report-1", found -> found.contains(receipt));
    assertThat(published(resource)).contains("B");
    assertThat(write(destination(), token(resource, 33, "worker-a"), "report-2", "A"))
        .isEqualTo(new RejectedStale(resource, Epoch.of(33), Epoch.of(34)));
    assertThat(write(destination(), token(resource, 34, "worker-b"), "report-1", "B"))
        .isEqualTo(new AlreadyApplied(receipt));
  }
}
