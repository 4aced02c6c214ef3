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
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingStep;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.Intent;
import dev.fenceline.spi.IntentOutcome;
import dev.fenceline.spi.IntentRecorded;
import dev.fenceline.spi.IntentStore;
import dev.fenceline.spi.OperationConflictException;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Receipt;
import dev.fenceline.spi.RegisterOutcome;
import dev.fenceline.spi.Registered;
import dev.fenceline.spi.RejectedStale;
import dev.fenceline.spi.RequestFingerprint;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StepListener;
import dev.fenceline.spi.TokenKeys;
import dev.fenceline.spi.UntrustedTokenException;
import dev.fenceline.spi.WriteOutcome;
import dev.fenceline.tck.PausePoints.Pause;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * The conformance suite every {@link IntentStore} passes (R3, R4 and R7): a stale worker is
 * rejected when it begins and records nothing, the epoch check and the intent are one atomic step,
 * attempts are counted, the first completion wins, and intents outlive a restart. Every test checks
 * the recorded state through {@link IntentStore#lookup}, not only what a call returned.
 *
 * <p>Optional capability: signed tokens. A store that does not check {@link TokenKeys} overrides
 * {@link #supportsTokenKeys()} with false; the suite then asserts that creating it with keys is
 * refused with {@link dev.fenceline.spi.UnsupportedCapabilityException} instead of testing
 * signatures. Everything else here is required of every intent store.
 */
public abstract class IntentStoreContract extends ContractSupport {

  private static final byte[] TCK_KEY =
      "fenceline-tck-key-0123456789abcdef".getBytes(StandardCharsets.UTF_8);
  private static final RequestFingerprint REQUEST = RequestFingerprint.sha256("POST /payments 42");
  private static final RequestFingerprint OTHER_REQUEST =
      RequestFingerprint.sha256("POST /payments 43");

  /** Registers a token's epoch through another component of the store under test. */
  @FunctionalInterface
  public interface EpochRegistrar {
    /** Registers {@code token}'s epoch as {@link dev.fenceline.spi.Destination#register} does. */
    RegisterOutcome register(FencingToken token);
  }

  /**
   * An intent store named {@code name} over the store as it is now, reporting steps to {@code
   * steps}; if {@code keys} is present it refuses tokens not signed with them. Intent stores with
   * different names share the store's registered epochs but not their intents.
   */
  protected abstract IntentStore intentStore(
      String name, StepListener steps, Optional<TokenKeys> keys);

  /**
   * Whether the intent store checks signed tokens ({@link TokenKeys}), as {@link
   * DestinationContract#supportsTokenKeys()} asks of destinations. Default true; a store that
   * overrides it with false must refuse keys with {@link
   * dev.fenceline.spi.UnsupportedCapabilityException} when it is created with them, and the suite
   * checks that refusal instead of the signatures.
   */
  protected boolean supportsTokenKeys() {
    return true;
  }

  /**
   * Another component of the same store that registers epochs, named {@code name} (for a database,
   * one of its destinations or pointer stores): the suite checks that an epoch registered there
   * fences the intent store's begins, and the other way round.
   */
  protected abstract EpochRegistrar sameStoreRegistrar(String name);

  /**
   * How the store serializes two steps on one resource; a {@link ConcurrencyControl#LOCKING} store
   * must make a second step wait while a begin is paused inside its atomic step.
   */
  protected abstract ConcurrencyControl concurrencyControl();

  /**
   * Stops the store and starts it again on the same durable data (see {@link
   * ContractSupport#restartStore}). The default does nothing, which suits a store whose {@link
   * #intentStore} instances share state that outlives them; a store with durable data overrides it.
   */
  @Override
  protected void restartStore() {}

  private IntentStore intents() {
    return intentStore("tck", StepListener.NONE, Optional.empty());
  }

  private IntentStore intents(StepListener steps) {
    return intentStore("tck", steps, Optional.empty());
  }

  private FencingToken token(ResourceId resource, long epoch, String holder) {
    return new FencingToken(issuer().id(), resource, Epoch.of(epoch), holder);
  }

  private static Intent recorded(IntentOutcome outcome) {
    assertThat(outcome).isInstanceOf(IntentRecorded.class);
    return ((IntentRecorded) outcome).intent();
  }

  private Intent lookup(ResourceId resource, String operation) {
    return intents().lookup(resource, OperationId.of(operation)).orElseThrow();
  }

  @Test
  void theFirstBeginRecordsAnIntentWithOneAttempt() {
    ResourceId resource = freshResource("intent-first");
    FencingToken token = token(resource, 33, "worker-a");

    Intent intent = recorded(intents().begin(token, OperationId.of("pay-1"), REQUEST));

    assertThat(intent.destination()).isEqualTo("tck");
    assertThat(intent.resource()).isEqualTo(resource);
    assertThat(intent.operation()).isEqualTo(OperationId.of("pay-1"));
    assertThat(intent.fingerprint()).isEqualTo(REQUEST);
    assertThat(intent.epoch()).isEqualTo(Epoch.of(33));
    assertThat(intent.attempts()).isEqualTo(1);
    assertThat(intent.receipt()).isEmpty();
    assertThat(intent.completed()).isFalse();
    assertThat(intent.mayHaveBeenSent()).as("the first attempt may send").isFalse();
    assertThat(lookup(resource, "pay-1")).isEqualTo(intent);
    assertThat(intents().currentEpoch(resource))
        .as("the begin registered its epoch")
        .isEqualTo(Epoch.of(33));
  }

  @Test
  void registerCutsOffBeginsOfOlderEpochs() {
    ResourceId resource = freshResource("intent-register");

    assertThat(intents().register(token(resource, 34, "worker-b")))
        .isEqualTo(new Registered(resource, Epoch.of(34), Epoch.NONE));
    assertThat(intents().register(token(resource, 33, "worker-a")))
        .isEqualTo(new RejectedStale(resource, Epoch.of(33), Epoch.of(34)));
    assertThat(intents().begin(token(resource, 33, "worker-a"), OperationId.of("pay-1"), REQUEST))
        .isEqualTo(new RejectedStale(resource, Epoch.of(33), Epoch.of(34)));
    assertThat(intents().lookup(resource, OperationId.of("pay-1"))).isEmpty();
    assertThat(intents().currentEpoch(resource)).isEqualTo(Epoch.of(34));
  }

  @Test
  void aStaleBeginIsRejectedAndChangesNothing() {
    ResourceId resource = freshResource("intent-stale");
    Intent byB =
        recorded(
            intents().begin(token(resource, 34, "worker-b"), OperationId.of("pay-1"), REQUEST));

    IntentOutcome retryByA =
        intents().begin(token(resource, 33, "worker-a"), OperationId.of("pay-1"), REQUEST);
    IntentOutcome newByA =
        intents().begin(token(resource, 33, "worker-a"), OperationId.of("pay-2"), REQUEST);

    assertThat(retryByA).isEqualTo(new RejectedStale(resource, Epoch.of(33), Epoch.of(34)));
    assertThat(newByA).isEqualTo(new RejectedStale(resource, Epoch.of(33), Epoch.of(34)));
    assertThat(lookup(resource, "pay-1"))
        .as("the stale retry counted no attempt and kept B's epoch")
        .isEqualTo(byB);
    assertThat(intents().lookup(resource, OperationId.of("pay-2")))
        .as("a stale worker's new operation is never recorded (it must not send)")
        .isEmpty();
    assertThat(intents().currentEpoch(resource)).isEqualTo(Epoch.of(34));
  }

  @Test
  void aNewerEpochsBeginRegistersItAndCountsAnAttempt() {
    ResourceId resource = freshResource("intent-takeover");
    Intent byA =
        recorded(
            intents().begin(token(resource, 33, "worker-a"), OperationId.of("pay-1"), REQUEST));

    Intent byB =
        recorded(
            intents().begin(token(resource, 34, "worker-b"), OperationId.of("pay-1"), REQUEST));

    assertThat(byB.attempts()).isEqualTo(2);
    assertThat(byB.epoch()).isEqualTo(Epoch.of(34));
    assertThat(byB.mayHaveBeenSent())
        .as("A's attempt may have sent the request: B must look the result up first")
        .isTrue();
    assertThat(byB.recordedAt()).as("when the first attempt began").isEqualTo(byA.recordedAt());
    assertThat(byB.fingerprint()).isEqualTo(REQUEST);
    assertThat(lookup(resource, "pay-1")).isEqualTo(byB);
    assertThat(intents().currentEpoch(resource)).isEqualTo(Epoch.of(34));
    assertThat(intents().begin(token(resource, 33, "worker-a"), OperationId.of("pay-1"), REQUEST))
        .as("A, after B's attempt registered epoch 34")
        .isEqualTo(new RejectedStale(resource, Epoch.of(33), Epoch.of(34)));
    assertThat(lookup(resource, "pay-1").attempts()).isEqualTo(2);
  }

  @Test
  void eachBeginReportsTheEpochTheIntentHadBefore() {
    ResourceId resource = freshResource("intent-previous-epoch");
    OperationId pay = OperationId.of("pay-1");

    IntentRecorded first =
        (IntentRecorded) intents().begin(token(resource, 33, "worker-a"), pay, REQUEST);
    IntentRecorded retry =
        (IntentRecorded) intents().begin(token(resource, 33, "worker-a"), pay, REQUEST);
    IntentRecorded takeover =
        (IntentRecorded) intents().begin(token(resource, 36, "worker-b"), pay, REQUEST);

    assertThat(first.previousEpoch())
        .as("the first attempt recorded the intent")
        .isEqualTo(Epoch.NONE);
    assertThat(retry.previousEpoch()).isEqualTo(Epoch.of(33));
    assertThat(takeover.previousEpoch())
        .as("the newest earlier attempt, which may have sent the request")
        .isEqualTo(Epoch.of(33));
    assertThat(takeover.intent().epoch()).isEqualTo(Epoch.of(36));
  }

  @Test
  void aResultFoundForAnEarlierAttemptIsRecordedUnderThatAttemptsEpoch() {
    ResourceId resource = freshResource("intent-sent-under");
    OperationId pay = OperationId.of("pay-1");
    intents().begin(token(resource, 33, "worker-a"), pay, REQUEST);
    FencingToken b = token(resource, 36, "worker-b");
    IntentRecorded byB = (IntentRecorded) intents().begin(b, pay, REQUEST);

    // B sent nothing: its lookup found A's request, so the receipt names A's epoch, not B's.
    WriteOutcome outcome =
        intents().complete(b, pay, byB.previousEpoch(), Map.of("found-by", "lookup"));

    assertThat(outcome).isInstanceOf(Applied.class);
    Receipt receipt = ((Applied) outcome).receipt();
    assertThat(receipt.epoch()).isEqualTo(Epoch.of(33));
    assertThat(lookup(resource, "pay-1").receipt()).contains(receipt);
    assertThat(lookup(resource, "pay-1").epoch())
        .as("the intent still names its newest attempt")
        .isEqualTo(Epoch.of(36));
  }

  @Test
  void aSentUnderEpochAboveTheTokensOrNoneIsRefusedAndNothingIsRecorded() {
    ResourceId resource = freshResource("intent-sent-under-refused");
    OperationId pay = OperationId.of("pay-1");
    FencingToken a = token(resource, 33, "worker-a");
    intents().begin(a, pay, REQUEST);
    Intent before = lookup(resource, "pay-1");

    assertThatThrownBy(() -> intents().complete(a, pay, Epoch.of(34), Map.of("status", "201")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("34")
        .hasMessageContaining("33");
    assertThatThrownBy(() -> intents().complete(a, pay, Epoch.NONE, Map.of("status", "201")))
        .isInstanceOf(IllegalArgumentException.class);

    assertThat(lookup(resource, "pay-1")).isEqualTo(before);
    assertThat(before.completed()).isFalse();
  }

  @Test
  void aBeginOnACompletedIntentChangesNothingAndReturnsItCompleted() {
    ResourceId resource = freshResource("intent-completed");
    FencingToken a = token(resource, 33, "worker-a");
    intents().begin(a, OperationId.of("pay-1"), REQUEST);
    intents().complete(a, OperationId.of("pay-1"), Map.of("status", "201"));
    Intent completed = lookup(resource, "pay-1");

    Intent retry = recorded(intents().begin(a, OperationId.of("pay-1"), REQUEST));
    Intent byNewOwner =
        recorded(
            intents().begin(token(resource, 35, "worker-c"), OperationId.of("pay-1"), REQUEST));

    assertThat(retry).isEqualTo(completed);
    assertThat(byNewOwner).isEqualTo(completed);
    assertThat(completed.completed()).isTrue();
    assertThat(completed.mayHaveBeenSent()).isFalse();
    assertThat(completed.attempts()).isEqualTo(1);
    assertThat(completed.epoch()).isEqualTo(Epoch.of(33));
    assertThat(lookup(resource, "pay-1")).isEqualTo(completed);
    assertThat(intents().currentEpoch(resource))
        .as("the new owner's epoch is registered even though its operation was done")
        .isEqualTo(Epoch.of(35));
  }

  @Test
  void completeRecordsTheReceiptAndAnswersApplied() {
    ResourceId resource = freshResource("intent-complete");
    FencingToken token = token(resource, 33, "worker-a");
    Intent begun = recorded(intents().begin(token, OperationId.of("pay-1"), REQUEST));

    WriteOutcome outcome =
        intents().complete(token, OperationId.of("pay-1"), Map.of("status", "201", "id", "p-9"));

    assertThat(outcome).isInstanceOf(Applied.class);
    Receipt receipt = ((Applied) outcome).receipt();
    assertThat(receipt.destination()).isEqualTo("tck");
    assertThat(receipt.resource()).isEqualTo(resource);
    assertThat(receipt.operation()).isEqualTo(OperationId.of("pay-1"));
    assertThat(receipt.epoch()).isEqualTo(Epoch.of(33));
    assertThat(receipt.attributes())
        .containsExactlyInAnyOrderEntriesOf(Map.of("status", "201", "id", "p-9"));
    Intent completed = lookup(resource, "pay-1");
    assertThat(completed.receipt()).contains(receipt);
    assertThat(completed.completed()).isTrue();
    assertThat(completed)
        .as("completing changes nothing but the receipt")
        .isEqualTo(
            new Intent(
                begun.destination(),
                begun.resource(),
                begun.operation(),
                begun.fingerprint(),
                begun.epoch(),
                begun.attempts(),
                begun.recordedAt(),
                Optional.of(receipt)));
  }

  @Test
  void theFirstCompletionWins() {
    ResourceId resource = freshResource("intent-first-wins");
    FencingToken token = token(resource, 33, "worker-a");
    intents().begin(token, OperationId.of("pay-1"), REQUEST);
    Receipt first =
        ((Applied) intents().complete(token, OperationId.of("pay-1"), Map.of("status", "201")))
            .receipt();

    WriteOutcome second =
        intents().complete(token, OperationId.of("pay-1"), Map.of("status", "500"));

    assertThat(second).isEqualTo(new AlreadyApplied(first));
    assertThat(lookup(resource, "pay-1").receipt()).contains(first);
  }

  @Test
  void concurrentCompletionsRecordOneReceiptAndTheOtherSeesIt() {
    ResourceId resource = freshResource("intent-concurrent-complete");
    FencingToken a = token(resource, 33, "worker-a");
    FencingToken b = token(resource, 33, "worker-b");
    for (int round = 0; round < 20; round++) {
      OperationId operation = OperationId.of("pay-race-" + round);
      intents().begin(a, operation, REQUEST);
      java.util.concurrent.CompletableFuture<WriteOutcome> byA =
          Concurrently.start(
              "worker-a", () -> intents().complete(a, operation, Map.of("status", "201")));
      java.util.concurrent.CompletableFuture<WriteOutcome> byB =
          Concurrently.start(
              "worker-b", () -> intents().complete(b, operation, Map.of("status", "200")));
      WriteOutcome first = Concurrently.await(byA);
      WriteOutcome second = Concurrently.await(byB);

      List<WriteOutcome> outcomes = List.of(first, second);
      assertThat(outcomes.stream().filter(Applied.class::isInstance))
          .as("exactly one completion records its receipt")
          .hasSize(1);
      Receipt recorded =
          outcomes.stream()
              .filter(Applied.class::isInstance)
              .map(o -> ((Applied) o).receipt())
              .findFirst()
              .orElseThrow();
      assertThat(outcomes).contains(new AlreadyApplied(recorded));
      assertThat(lookup(resource, operation.value()).receipt()).contains(recorded);
    }
  }

  @Test
  void aStaleTokensCompletionIsRecordedBecauseItStatesWhatTheCalledSystemAnswered() {
    ResourceId resource = freshResource("intent-stale-complete");
    FencingToken a = token(resource, 33, "worker-a");
    intents().begin(a, OperationId.of("pay-1"), REQUEST);
    intents().register(token(resource, 34, "worker-b"));

    // A's request was sent before the takeover; its answer is true whoever records it.
    WriteOutcome outcome = intents().complete(a, OperationId.of("pay-1"), Map.of("status", "201"));

    assertThat(outcome).isInstanceOf(Applied.class);
    Receipt receipt = ((Applied) outcome).receipt();
    assertThat(receipt.epoch()).isEqualTo(Epoch.of(33));
    assertThat(lookup(resource, "pay-1").receipt()).contains(receipt);
    assertThat(intents().currentEpoch(resource))
        .as("completing registers nothing")
        .isEqualTo(Epoch.of(34));
    assertThat(
            recorded(
                intents().begin(token(resource, 34, "worker-b"), OperationId.of("pay-1"), REQUEST)))
        .as("the new owner finds the operation done and sends nothing")
        .satisfies(intent -> assertThat(intent.receipt()).contains(receipt));
  }

  @Test
  void completeWithoutAnIntentIsAnIllegalState() {
    ResourceId resource = freshResource("intent-no-begin");

    assertThatThrownBy(
            () ->
                intents()
                    .complete(
                        token(resource, 33, "worker-a"),
                        OperationId.of("pay-1"),
                        Map.of("status", "201")))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("Cannot complete operation pay-1")
        .hasMessageContaining("no intent");
    assertThat(intents().lookup(resource, OperationId.of("pay-1"))).isEmpty();
  }

  @Test
  void aDifferentFingerprintIsAConflictAndChangesNothing() {
    ResourceId resource = freshResource("intent-conflict");
    Intent first =
        recorded(
            intents().begin(token(resource, 33, "worker-a"), OperationId.of("pay-1"), REQUEST));

    assertThatThrownBy(
            () ->
                intents()
                    .begin(token(resource, 33, "worker-a"), OperationId.of("pay-1"), OTHER_REQUEST))
        .isInstanceOf(OperationConflictException.class)
        .hasMessageContaining("Cannot begin operation pay-1 of " + resource + " at tck")
        .hasMessageContaining(OTHER_REQUEST.value())
        .satisfies(e -> assertThat(((OperationConflictException) e).intent()).contains(first));
    assertThatThrownBy(
            () ->
                intents()
                    .begin(token(resource, 34, "worker-b"), OperationId.of("pay-1"), OTHER_REQUEST))
        .as("a new owner reusing the operation for another request")
        .isInstanceOf(OperationConflictException.class);

    assertThat(lookup(resource, "pay-1")).as("no attempt counted").isEqualTo(first);
    assertThat(intents().currentEpoch(resource))
        .as("the conflicting attempt at epoch 34 registered nothing")
        .isEqualTo(Epoch.of(33));
  }

  @Test
  void aStaleTokenWithADifferentFingerprintIsRejectedAsStaleFirst() {
    ResourceId resource = freshResource("intent-stale-conflict");
    Intent byB =
        recorded(
            intents().begin(token(resource, 34, "worker-b"), OperationId.of("pay-1"), REQUEST));

    assertThat(
            intents()
                .begin(token(resource, 33, "worker-a"), OperationId.of("pay-1"), OTHER_REQUEST))
        .isEqualTo(new RejectedStale(resource, Epoch.of(33), Epoch.of(34)));
    assertThat(lookup(resource, "pay-1")).isEqualTo(byB);
  }

  @Test
  void aTokenOfAnotherIssuerIsRefusedByBeginAndCompleteAndChangesNothing() {
    ResourceId resource = freshResource("intent-foreign");
    Intent mine =
        recorded(intents().begin(token(resource, 3, "worker-a"), OperationId.of("pay-1"), REQUEST));
    FencingToken foreign =
        new FencingToken("another-issuer", resource, Epoch.of(Long.MAX_VALUE), "intruder");

    assertThatThrownBy(() -> intents().begin(foreign, OperationId.of("pay-1"), REQUEST))
        .isInstanceOf(UntrustedTokenException.class)
        .hasMessageContaining("issued by another-issuer")
        .hasMessageContaining("registered with issuer " + issuer().id());
    assertThatThrownBy(() -> intents().begin(foreign, OperationId.of("pay-2"), REQUEST))
        .isInstanceOf(UntrustedTokenException.class);
    assertThatThrownBy(
            () -> intents().complete(foreign, OperationId.of("pay-1"), Map.of("status", "201")))
        .isInstanceOf(UntrustedTokenException.class)
        .hasMessageContaining("issued by another-issuer");

    assertThat(lookup(resource, "pay-1")).as("no attempt, no receipt").isEqualTo(mine);
    assertThat(intents().lookup(resource, OperationId.of("pay-2"))).isEmpty();
    assertThat(intents().currentEpoch(resource)).isEqualTo(Epoch.of(3));
  }

  @Test
  void withKeysUnsignedAndForgedTokensAreRefusedByBeginAndComplete() {
    ResourceId resource = freshResource("intent-signed");
    TokenKeys keys = TokenKeys.builder().key("k1", TCK_KEY).build();
    if (!supportsTokenKeys()) {
      // Not claimed: the documented refusal, so that nobody believes unsigned tokens are refused.
      assertThatThrownBy(() -> intentStore("tck", StepListener.NONE, Optional.of(keys)))
          .as("an intent store given keys although supportsTokenKeys() is false")
          .isInstanceOf(dev.fenceline.spi.UnsupportedCapabilityException.class);
      return;
    }
    IntentStore guarded = intentStore("tck", StepListener.NONE, Optional.of(keys));
    FencingToken signed = keys.sign(token(resource, 5, "worker-a"));
    FencingToken unsigned = token(resource, 6, "worker-a");
    FencingToken forged =
        new FencingToken(
            signed.issuer(), resource, Epoch.of(Long.MAX_VALUE), "worker-a", signed.signature());

    assertThatThrownBy(() -> guarded.begin(unsigned, OperationId.of("pay-1"), REQUEST))
        .isInstanceOf(UntrustedTokenException.class)
        .hasMessageContaining("unsigned");
    assertThatThrownBy(() -> guarded.begin(forged, OperationId.of("pay-1"), REQUEST))
        .isInstanceOf(UntrustedTokenException.class)
        .hasMessageContaining("does not verify");
    assertThat(guarded.lookup(resource, OperationId.of("pay-1"))).isEmpty();
    assertThat(guarded.currentEpoch(resource)).isEqualTo(Epoch.NONE);

    Intent begun = recorded(guarded.begin(signed, OperationId.of("pay-1"), REQUEST));
    assertThatThrownBy(() -> guarded.complete(forged, OperationId.of("pay-1"), Map.of("s", "1")))
        .isInstanceOf(UntrustedTokenException.class)
        .hasMessageContaining("does not verify");
    assertThatThrownBy(() -> guarded.complete(unsigned, OperationId.of("pay-1"), Map.of("s", "1")))
        .isInstanceOf(UntrustedTokenException.class)
        .hasMessageContaining("unsigned");
    assertThat(guarded.lookup(resource, OperationId.of("pay-1"))).contains(begun);
    assertThat(guarded.complete(signed, OperationId.of("pay-1"), Map.of("s", "1")))
        .isInstanceOf(Applied.class);
  }

  @Test
  void intentsAreScopedPerName() {
    ResourceId resource = freshResource("intent-scope");
    FencingToken token = token(resource, 33, "worker-a");
    IntentStore payments = intentStore("payments", StepListener.NONE, Optional.empty());
    IntentStore mails = intentStore("mails", StepListener.NONE, Optional.empty());

    Intent payment = recorded(payments.begin(token, OperationId.of("order-1"), REQUEST));
    Intent mail = recorded(mails.begin(token, OperationId.of("order-1"), OTHER_REQUEST));
    Receipt paid =
        ((Applied) payments.complete(token, OperationId.of("order-1"), Map.of("status", "201")))
            .receipt();

    assertThat(payments.name()).isEqualTo("payments");
    assertThat(payment.destination()).isEqualTo("payments");
    assertThat(mail.destination()).isEqualTo("mails");
    assertThat(mail.attempts())
        .as("the same business operation at another destination is another operation")
        .isEqualTo(1);
    assertThat(paid.destination()).isEqualTo("payments");
    assertThat(payments.lookup(resource, OperationId.of("order-1")).orElseThrow().receipt())
        .contains(paid);
    assertThat(mails.lookup(resource, OperationId.of("order-1"))).contains(mail);
    assertThat(
            intentStore("other", StepListener.NONE, Optional.empty())
                .lookup(resource, OperationId.of("order-1")))
        .isEmpty();
    assertThat(payments.storeId()).isNotBlank().isEqualTo(mails.storeId());
  }

  @Test
  void theRegisteredEpochIsSharedWithTheOtherComponentsOfTheStore() {
    ResourceId resource = freshResource("intent-shared-epoch");
    recorded(intents().begin(token(resource, 33, "worker-a"), OperationId.of("pay-1"), REQUEST));

    assertThat(sameStoreRegistrar("reports").register(token(resource, 34, "worker-b")))
        .isEqualTo(new Registered(resource, Epoch.of(34), Epoch.of(33)));

    assertThat(intents().begin(token(resource, 33, "worker-a"), OperationId.of("pay-2"), REQUEST))
        .isEqualTo(new RejectedStale(resource, Epoch.of(33), Epoch.of(34)));
    assertThat(intents().lookup(resource, OperationId.of("pay-2"))).isEmpty();
    assertThat(intents().currentEpoch(resource)).isEqualTo(Epoch.of(34));
    // And the other way round: an epoch a begin registered fences the other component.
    recorded(intents().begin(token(resource, 35, "worker-c"), OperationId.of("pay-3"), REQUEST));
    assertThat(sameStoreRegistrar("reports").register(token(resource, 34, "worker-b")))
        .isEqualTo(new RejectedStale(resource, Epoch.of(34), Epoch.of(35)));
  }

  @Test
  void r3_aRegistrationWhileABeginIsBetweenItsEpochCheckAndItsIntentIsLinearizable() {
    ResourceId resource = freshResource("intent-check-record");
    // A's epoch is already registered, so A's begin changes nothing in the control record: only a
    // real lock on it (or a swap against the version A read) keeps B out between A's check and
    // A's intent.
    intents().register(token(resource, 33, "worker-a"));
    PausePoints pauses = new PausePoints();
    Pause betweenCheckAndRecord = pauses.pauseAt(FencingStep.AFTER_EPOCH_CHECK, "worker-a");
    CompletableFuture<IntentOutcome> beginA =
        Concurrently.start(
            "worker-a",
            () ->
                intents(pauses)
                    .begin(token(resource, 33, "worker-a"), OperationId.of("a"), REQUEST));
    betweenCheckAndRecord.awaitReached();

    CompletableFuture<RegisterOutcome> registerB =
        Concurrently.start(
            "worker-b",
            () -> sameStoreRegistrar("reports").register(token(resource, 34, "worker-b")));
    SecondStep b = secondStepWhileBeginIsPaused(registerB, resource, OperationId.of("a"));
    if (concurrencyControl() == ConcurrencyControl.LOCKING) {
      assertThat(b.answeredWhileBeginPaused())
          .as("B registered while A was between its epoch check and its intent")
          .isFalse();
    }
    betweenCheckAndRecord.resume();

    IntentOutcome a = Concurrently.await(beginA);
    assertThat(Concurrently.await(registerB))
        .isEqualTo(new Registered(resource, Epoch.of(34), Epoch.of(33)));
    if (concurrencyControl() == ConcurrencyControl.LOCKING) {
      assertThat(a)
          .as("A held the lock from its check to its commit")
          .isInstanceOf(IntentRecorded.class);
    }
    assertLinearizable(a, b, resource);
  }

  @Test
  void r5_aFirstBeginAndANewerRegistrationOnAFreshResourceAreLinearizable() {
    // Nothing is registered: A's begin creates the control record. A store that creates it but
    // does not lock it lets B's newer epoch in while A is paused, then records A's stale intent.
    ResourceId resource = freshResource("intent-fresh-race");
    PausePoints pauses = new PausePoints();
    Pause betweenCheckAndRecord = pauses.pauseAt(FencingStep.AFTER_EPOCH_CHECK, "worker-a");
    CompletableFuture<IntentOutcome> beginA =
        Concurrently.start(
            "worker-a",
            () ->
                intents(pauses)
                    .begin(token(resource, 33, "worker-a"), OperationId.of("a"), REQUEST));
    betweenCheckAndRecord.awaitReached();

    CompletableFuture<RegisterOutcome> registerB =
        Concurrently.start(
            "worker-b",
            () -> sameStoreRegistrar("reports").register(token(resource, 34, "worker-b")));
    SecondStep b = secondStepWhileBeginIsPaused(registerB, resource, OperationId.of("a"));
    betweenCheckAndRecord.resume();

    IntentOutcome a = Concurrently.await(beginA);
    RegisterOutcome registered = Concurrently.await(registerB);
    if (a instanceof IntentRecorded) {
      assertThat(registered)
          .as("B's registration, given that A's intent was recorded (so A came first)")
          .isEqualTo(new Registered(resource, Epoch.of(34), Epoch.of(33)));
    } else {
      assertThat(registered)
          .as("B's registration, given that A was rejected (so B came first)")
          .isEqualTo(new Registered(resource, Epoch.of(34), Epoch.NONE));
    }
    if (concurrencyControl() == ConcurrencyControl.LOCKING) {
      assertThat(b.answeredWhileBeginPaused())
          .as("B registered while A held the new control record between its check and its intent")
          .isFalse();
    }
    assertLinearizable(a, b, resource);
  }

  @Test
  void aBeginThatDiesBeforeItsCommitLeavesNothingBehind() {
    ResourceId resource = freshResource("intent-die");
    recorded(intents().begin(token(resource, 33, "worker-a"), OperationId.of("pay-1"), REQUEST));
    Intent before = lookup(resource, "pay-1");
    PausePoints pauses = new PausePoints();
    pauses.failAt(FencingStep.AFTER_APPLY, "worker-b");
    pauses.failAt(FencingStep.AFTER_APPLY, "worker-c");

    assertThatThrownBy(
            () ->
                intents(pauses)
                    .begin(token(resource, 34, "worker-b"), OperationId.of("pay-1"), REQUEST))
        .isInstanceOf(PausePoints.SimulatedCrash.class);
    assertThatThrownBy(
            () ->
                intents(pauses)
                    .begin(token(resource, 34, "worker-c"), OperationId.of("pay-2"), REQUEST))
        .isInstanceOf(PausePoints.SimulatedCrash.class);

    assertThat(lookup(resource, "pay-1")).as("no attempt counted").isEqualTo(before);
    assertThat(intents().lookup(resource, OperationId.of("pay-2"))).isEmpty();
    assertThat(intents().currentEpoch(resource))
        .as("the registration of epoch 34 is part of the aborted step")
        .isEqualTo(Epoch.of(33));
  }

  @Test
  void concurrentBeginsOfOneOperationInOneEpochAreBothRecordedAndCountTwoAttempts() {
    ResourceId resource = freshResource("intent-same-op");
    FencingToken token = token(resource, 33, "worker-a");
    intents().register(token);
    PausePoints pauses = new PausePoints();
    Pause firstInside = pauses.pauseAt(FencingStep.AFTER_EPOCH_CHECK, "worker-a");
    IntentStore store = intents(pauses);
    CompletableFuture<IntentOutcome> one =
        Concurrently.start("begin-1", () -> store.begin(token, OperationId.of("pay-1"), REQUEST));
    firstInside.awaitReached();
    CompletableFuture<IntentOutcome> two =
        Concurrently.start("begin-2", () -> store.begin(token, OperationId.of("pay-1"), REQUEST));
    awaitLogged(pauses, "worker-a:BEFORE_LOCK:pay-1", 2);
    if (concurrencyControl() == ConcurrencyControl.LOCKING) {
      assertThat(awaitDone(two, 500))
          .as("begin 2 finished while begin 1 was between its epoch check and its intent")
          .isFalse();
    } else {
      assertThat(Concurrently.await(two)).isInstanceOf(IntentRecorded.class);
    }
    firstInside.resume();

    List<Intent> outcomes =
        List.of(recorded(Concurrently.await(one)), recorded(Concurrently.await(two)));

    assertThat(outcomes).extracting(Intent::attempts).containsExactlyInAnyOrder(1, 2);
    Intent now = lookup(resource, "pay-1");
    assertThat(now.attempts()).isEqualTo(2);
    assertThat(now.mayHaveBeenSent()).isTrue();
    assertThat(outcomes).contains(now);
  }

  @Test
  void intentsAndReceiptsSurviveARestart() {
    ResourceId resource = freshResource("intent-restart");
    FencingToken b = token(resource, 34, "worker-b");
    intents().begin(token(resource, 33, "worker-a"), OperationId.of("open"), REQUEST);
    intents().begin(b, OperationId.of("open"), REQUEST);
    intents().begin(b, OperationId.of("done"), OTHER_REQUEST);
    Receipt receipt =
        ((Applied) intents().complete(b, OperationId.of("done"), Map.of("status", "201")))
            .receipt();
    Intent open = lookup(resource, "open");
    Intent done = lookup(resource, "done");

    restartStore();

    assertThat(lookup(resource, "open")).isEqualTo(open);
    assertThat(lookup(resource, "open").mayHaveBeenSent()).isTrue();
    assertThat(lookup(resource, "done")).isEqualTo(done);
    assertThat(done.receipt()).contains(receipt);
    assertThat(intents().currentEpoch(resource)).isEqualTo(Epoch.of(34));
    assertThat(intents().begin(token(resource, 33, "worker-a"), OperationId.of("open"), REQUEST))
        .isEqualTo(new RejectedStale(resource, Epoch.of(33), Epoch.of(34)));
    assertThat(intents().complete(b, OperationId.of("done"), Map.of("status", "500")))
        .isEqualTo(new AlreadyApplied(receipt));
  }

  @Test
  void lookupOfAnUnknownOperationIsEmpty() {
    assertThat(intents().lookup(freshResource("intent-lookup"), OperationId.of("never"))).isEmpty();
    assertThat(intents().currentEpoch(freshResource("intent-lookup"))).isEqualTo(Epoch.NONE);
  }

  /**
   * Checks the end state of a begin (A, epoch 33) raced by a registration (B, epoch 34): A's intent
   * is recorded only if A came entirely first, and a stale A recorded nothing.
   */
  private void assertLinearizable(IntentOutcome a, SecondStep b, ResourceId resource) {
    if (a instanceof IntentRecorded recorded) {
      assertThat(b.answeredWhileBeginPaused() && b.intentSeen().isEmpty())
          .as(
              "A's intent was recorded, yet B was answered while A was paused before recording it"
                  + " (registered epoch then: %s): a stale worker may now send",
              b.epochSeen())
          .isFalse();
      assertThat(recorded.intent().epoch()).isEqualTo(Epoch.of(33));
      assertThat(lookup(resource, "a")).isEqualTo(recorded.intent());
    } else {
      assertThat(a).isEqualTo(new RejectedStale(resource, Epoch.of(33), Epoch.of(34)));
      assertThat(intents().lookup(resource, OperationId.of("a"))).isEmpty();
    }
    assertThat(intents().currentEpoch(resource)).isEqualTo(Epoch.of(34));
    assertThat(intents().begin(token(resource, 33, "worker-a"), OperationId.of("a2"), REQUEST))
        .isEqualTo(new RejectedStale(resource, Epoch.of(33), Epoch.of(34)));
  }

  /**
   * What the test saw of a registration (B) started while a begin (A) is paused after its epoch
   * check: whether B was answered before A resumed, and what a reader saw right then.
   */
  private record SecondStep(
      boolean answeredWhileBeginPaused, Optional<Intent> intentSeen, Epoch epochSeen) {}

  private SecondStep secondStepWhileBeginIsPaused(
      CompletableFuture<RegisterOutcome> second, ResourceId resource, OperationId operation) {
    boolean answered;
    if (concurrencyControl() == ConcurrencyControl.LOCKING) {
      // A correct locking store always passes this bounded wait: B waits for A's commit.
      answered = awaitDone(second, 500);
    } else {
      Concurrently.await(second);
      answered = true;
    }
    if (!answered) {
      return new SecondStep(false, Optional.empty(), Epoch.NONE);
    }
    return new SecondStep(
        true, intents().lookup(resource, operation), intents().currentEpoch(resource));
  }
}
