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
package dev.fenceline.cas;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fenceline.spi.AlreadyApplied;
import dev.fenceline.spi.Applied;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Pointer;
import dev.fenceline.spi.PointerState;
import dev.fenceline.spi.Receipt;
import dev.fenceline.spi.Registered;
import dev.fenceline.spi.RejectedStale;
import dev.fenceline.spi.RequestFingerprint;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StepListener;
import dev.fenceline.spi.WriteOutcome;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A swap decided on the document this process wrote last, without reading it ({@link
 * CasPointerSteps.Store#replaceKnowing}): one replacement in the common case, and whenever anything
 * changed the document since (another process's registration or swap, a lost answer), the
 * replacement's condition refuses it and the step decides on a read, exactly as without the kept
 * document. Each test runs on a store that creates the operation's records in the swap (as
 * ZooKeeper does) and on one that does not (as S3 does, which looks the operation up first).
 */
class CasPointerStepsKnownDocumentTest {

  private static final ResourceId RESOURCE = ResourceId.of("reports/daily");

  private MemoryCasStore store;
  private CasPointerSteps<MemoryCasStore.Read> ours;
  private CasPointerSteps<MemoryCasStore.Read> otherProcess;

  private void open(boolean recordsInSwap) {
    store = new MemoryCasStore(true, recordsInSwap);
    ours = new CasPointerSteps<>("reports", store, StepListener.NONE, Clock.systemUTC());
    otherProcess = new CasPointerSteps<>("reports", store, StepListener.NONE, Clock.systemUTC());
  }

  private static FencingToken token(long epoch) {
    return new FencingToken("issuer-1", RESOURCE, Epoch.of(epoch), "worker-" + epoch);
  }

  private static WriteOutcome write(
      CasPointerSteps<MemoryCasStore.Read> steps, long epoch, String operation) {
    Pointer pointer = Pointer.to("blob-" + operation);
    return steps.write(
        token(epoch),
        OperationId.of(operation),
        pointer,
        RequestFingerprint.of(pointer),
        "write " + operation);
  }

  /** The pointer versions, oldest first, as {@code version:operation}. */
  private List<String> history() {
    List<String> shown = new ArrayList<>();
    for (PointerState state : ours.history(RESOURCE, store.control(RESOURCE), 10, "history")) {
      shown.add(0, state.version() + ":" + state.operation().value());
    }
    return shown;
  }

  @ParameterizedTest(name = "records in the swap: {0}")
  @ValueSource(booleans = {true, false})
  void afterItsOwnWriteTheOwnerSwapsWithOneReplacementAndNoRead(boolean recordsInSwap) {
    open(recordsInSwap);
    ours.register(token(5), "register 5");
    assertThat(write(ours, 5, "daily-1")).isInstanceOf(Applied.class);
    int reads = store.reads();
    int replacements = store.replacements();

    assertThat(write(ours, 5, "daily-2")).isInstanceOf(Applied.class);

    assertThat(store.reads() - reads).as("control documents read").isZero();
    assertThat(store.replacements() - replacements).as("replacements sent").isEqualTo(1);
    assertThat(history()).containsExactly("1:daily-1", "2:daily-2");
  }

  @ParameterizedTest(name = "records in the swap: {0}")
  @ValueSource(booleans = {true, false})
  void aNewerRegistrationByAnotherProcessRefusesTheKeptSwapAndTheWriteIsStale(
      boolean recordsInSwap) {
    open(recordsInSwap);
    ours.register(token(5), "register 5");
    write(ours, 5, "daily-1");
    assertThat(otherProcess.register(token(6), "register 6"))
        .isEqualTo(new Registered(RESOURCE, Epoch.of(6), Epoch.of(5)));

    assertThat(write(ours, 5, "daily-2"))
        .isEqualTo(new RejectedStale(RESOURCE, Epoch.of(5), Epoch.of(6)));
    assertThat(store.control(RESOURCE).epoch()).isEqualTo(Epoch.of(6));
    assertThat(history()).containsExactly("1:daily-1");
  }

  @ParameterizedTest(name = "records in the swap: {0}")
  @ValueSource(booleans = {true, false})
  void aSwapByAnotherProcessMakesTheKeptSwapReadAgainAndApplyAfterIt(boolean recordsInSwap) {
    open(recordsInSwap);
    ours.register(token(5), "register 5");
    write(ours, 5, "daily-1");
    assertThat(write(otherProcess, 5, "daily-2")).isInstanceOf(Applied.class);
    int reads = store.reads();

    assertThat(write(ours, 5, "daily-3")).isInstanceOf(Applied.class);

    assertThat(store.reads() - reads).as("read after the refused replacement").isEqualTo(1);
    assertThat(history()).containsExactly("1:daily-1", "2:daily-2", "3:daily-3");
  }

  @ParameterizedTest(name = "records in the swap: {0}")
  @ValueSource(booleans = {true, false})
  void aRetryOfAnOlderOperationReplaysItsFirstReceiptAndAddsNoVersion(boolean recordsInSwap) {
    open(recordsInSwap);
    ours.register(token(5), "register 5");
    Receipt first = ((Applied) write(ours, 5, "daily-1")).receipt();
    write(ours, 5, "daily-2");

    assertThat(write(ours, 5, "daily-1")).isEqualTo(new AlreadyApplied(first));
    assertThat(write(ours, 5, "daily-2")).isInstanceOf(AlreadyApplied.class);

    assertThat(history()).containsExactly("1:daily-1", "2:daily-2");
    assertThat(write(ours, 5, "daily-3")).isInstanceOf(Applied.class);
    assertThat(history()).containsExactly("1:daily-1", "2:daily-2", "3:daily-3");
  }

  @ParameterizedTest(name = "records in the swap: {0}")
  @ValueSource(booleans = {true, false})
  void aKeptSwapWhoseAnswerWasLostIsDecidedAsAppliedOnce(boolean recordsInSwap) {
    open(recordsInSwap);
    ours.register(token(5), "register 5");
    write(ours, 5, "daily-1");
    store.loseAnswerOfNextReplacement(() -> write(otherProcess, 5, "daily-other"));

    WriteOutcome outcome = write(ours, 5, "daily-2");

    assertThat(outcome).isInstanceOf(Applied.class);
    assertThat(history()).containsExactly("1:daily-1", "2:daily-2", "3:daily-other");
    assertThat(write(ours, 5, "daily-2")).isEqualTo(new AlreadyApplied(receipt(outcome)));
  }

  @ParameterizedTest(name = "records in the swap: {0}")
  @ValueSource(booleans = {true, false})
  void aKeptSwapNeverSentWhileANewerOwnerRegisteredIsStale(boolean recordsInSwap) {
    open(recordsInSwap);
    ours.register(token(5), "register 5");
    write(ours, 5, "daily-1");
    store.failNextReplacementUnsent(() -> otherProcess.register(token(7), "register 7"));

    assertThat(write(ours, 5, "daily-2"))
        .isEqualTo(new RejectedStale(RESOURCE, Epoch.of(5), Epoch.of(7)));
    assertThat(history()).containsExactly("1:daily-1");
  }

  @ParameterizedTest(name = "records in the swap: {0}")
  @ValueSource(booleans = {true, false})
  void aNewerTokenOfTheOwnerRegistersWithItsKeptSwap(boolean recordsInSwap) {
    open(recordsInSwap);
    ours.register(token(5), "register 5");
    write(ours, 5, "daily-1");
    int reads = store.reads();

    assertThat(write(ours, 6, "daily-2")).isInstanceOf(Applied.class);

    assertThat(store.reads() - reads).isZero();
    assertThat(store.control(RESOURCE).epoch()).isEqualTo(Epoch.of(6));
    assertThat(write(otherProcess, 5, "daily-3"))
        .isEqualTo(new RejectedStale(RESOURCE, Epoch.of(5), Epoch.of(6)));
  }

  private static Receipt receipt(WriteOutcome outcome) {
    return ((Applied) outcome).receipt();
  }
}
