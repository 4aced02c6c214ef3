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
package dev.fenceline.chaos.check;

import static dev.fenceline.chaos.history.Event.ALREADY_APPLIED;
import static dev.fenceline.chaos.history.Event.APPLIED;
import static dev.fenceline.chaos.history.Event.REGISTERED;
import static dev.fenceline.chaos.history.Event.REJECTED_STALE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fenceline.chaos.check.Check.Status;
import dev.fenceline.chaos.history.Event;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CheckerTest {

  private static final Checker CHECKER = Checker.withBudget(Duration.ofSeconds(10));

  /** w0 holds r0 with epoch 1 and publishes a; w1 takes over with epoch 2 and publishes b. */
  private static HistoryBuilder twoOwners() {
    return new HistoryBuilder()
        .acquire("w0", "r0", 1, 0, 10)
        .register("w0", "r0", 1, 10, 20, REGISTERED)
        .write("w0", "r0", 1, "a", 20, 30, APPLIED)
        .write("w0", "r0", 1, "a", 30, 40, ALREADY_APPLIED)
        .read("w0", "r0", 40, 50, "a")
        .acquire("w1", "r0", 2, 3000, 3010)
        .register("w1", "r0", 2, 3010, 3020, REGISTERED)
        .write("w1", "r0", 2, "b", 3020, 3030, APPLIED)
        .read("w1", "r0", 3030, 3040, "b")
        .release("w1", "r0", 2, 3040, 3050);
  }

  private static void assertOnlyFails(CheckResult result, String check, String... named) {
    assertThat(result.check(check).status()).as(result.summary()).isEqualTo(Status.FAIL);
    assertThat(result.check(check).detail()).contains(named);
    assertThat(result.passed()).isFalse();
    assertThat(result.gaveUp()).isFalse();
  }

  private static void assertPasses(CheckResult result) {
    assertThat(result.checks()).extracting(Check::name).containsExactlyElementsOf(Checker.CHECKS);
    assertThat(result.passed()).as(result.summary()).isTrue();
    assertThat(result.firstViolation()).isEmpty();
  }

  @Test
  void aCorrectHistoryPassesEveryCheckAndIsCounted() {
    CheckResult result =
        CHECKER.check(
            twoOwners()
                // the stale owner comes back and is rejected
                .write("w0", "r0", 1, "c", 3100, 3110, REJECTED_STALE)
                .fault("pause", "w0", 60)
                .fault("resume", "w0", 3090)
                .fin("r0", 2, "b")
                .events());

    assertPasses(result);
    Counts counts = result.counts();
    assertThat(counts.operations("write", APPLIED)).isEqualTo(2);
    assertThat(counts.operations("write", ALREADY_APPLIED)).isEqualTo(1);
    assertThat(counts.staleRejections()).isEqualTo(1);
    assertThat(counts.takeovers()).isEqualTo(1); // w0 never released
    assertThat(counts.faults()).containsExactly(Map.entry("pause", 1L));
    assertThat(result.summary()).contains("PASS", "linearizable");
  }

  @Test
  void anEpochHandedOutTwiceFails() {
    CheckResult result =
        CHECKER.check(
            new HistoryBuilder()
                .acquire("w0", "r0", 1, 0, 10)
                .acquire("w1", "r0", 1, 3000, 3010)
                .fin("r0", 1, null)
                .events());

    assertOnlyFails(result, "epochs-unique-and-ordered", "r0", "epoch 1", "w0#0", "w1#0");
    assertThat(result.firstViolation().orElseThrow().resource()).isEqualTo("r0");
  }

  @Test
  void aLaterAcquisitionWithALowerEpochFails() {
    CheckResult passing =
        CHECKER.check(
            new HistoryBuilder()
                .acquire("w0", "r0", 3, 0, 10)
                .acquire("w1", "r0", 5, 3000, 3010)
                .fin("r0", 5, null)
                .events());
    CheckResult failing =
        CHECKER.check(
            new HistoryBuilder()
                .acquire("w0", "r0", 5, 0, 10)
                .acquire("w1", "r0", 3, 3000, 3010)
                .fin("r0", 5, null)
                .events());

    assertPasses(passing);
    assertOnlyFails(failing, "epochs-unique-and-ordered", "r0", "w1#0", "w0#0", "lower epoch");
  }

  @Test
  void overlappingAcquisitionsMayGetEpochsInEitherOrder() {
    CheckResult result =
        CHECKER.check(
            new HistoryBuilder()
                .acquire("w0", "r0", 5, 0, 100)
                .acquire("w1", "r0", 3, 50, 60)
                .fin("r0", 5, null)
                .events());

    assertThat(result.check("epochs-unique-and-ordered").status()).isEqualTo(Status.PASS);
  }

  @Test
  void aStaleWriteAppliedAfterANewerRegisterFails() {
    HistoryBuilder stale =
        twoOwners().write("w0", "r0", 1, "c", 3100, 3110, APPLIED).fin("r0", 2, "c");

    CheckResult result = CHECKER.check(stale.events());

    assertOnlyFails(result, "no-stale-write-after-newer", "r0", "w0#5", "op=c", "w1#1 register");
    assertThat(result.check("linearizable").status()).isEqualTo(Status.FAIL);
    assertThat(result.check("linearizable").detail()).contains("r0", "w0#5", "op=c");
    assertThat(result.firstViolation().orElseThrow().check())
        .isEqualTo("no-stale-write-after-newer");
  }

  @Test
  void aWriteRejectedAsStaleThatTheLookupFindsAppliedFails() {
    // The destination answered RejectedStale, but the change landed: the answer was untrue.
    CheckResult result =
        CHECKER.check(
            twoOwners()
                .write("w0", "r0", 1, "c", 3100, 3110, REJECTED_STALE)
                .fin("r0", 2, "b", "c@1")
                .events());

    assertThat(result.passed()).as(result.summary()).isFalse();
    assertThat(result.firstViolation().orElseThrow().message()).contains("r0", "c");
  }

  @Test
  void aStaleUnknownWriteTheLookupFindsAppliedFails() {
    CheckResult result =
        CHECKER.check(
            twoOwners()
                .writeUnknown("w0", "r0", 1, "c", 3100, null)
                .fin("r0", 2, "b", "c@1")
                .events());

    assertOnlyFails(result, "no-stale-write-after-newer", "r0", "w0#5", "op=c", "unknown");
  }

  @Test
  void anOperationAppliedTwiceFails() {
    CheckResult result =
        CHECKER.check(
            twoOwners()
                .write(
                    "w1", "r0", 2, "a", 3100, 3110, APPLIED, new HistoryBuilder().receipt("x", 2))
                .fin("r0", 2, "a")
                .events());

    assertOnlyFails(result, "applied-once", "r0", "operation a", "w0#2", "w1#5");
  }

  @Test
  void twoReceiptsForOneOperationFail() {
    CheckResult result =
        CHECKER.check(
            twoOwners()
                .write(
                    "w1",
                    "r0",
                    2,
                    "a",
                    3100,
                    3110,
                    ALREADY_APPLIED,
                    new HistoryBuilder().receipt("other", 2))
                .fin("r0", 2, "b")
                .events());

    assertOnlyFails(result, "applied-once", "r0", "operation a", "different receipts", "w1#5");
  }

  @Test
  void anAcknowledgedWriteTheFinalLookupDoesNotFindFails() {
    HistoryBuilder h = twoOwners();
    Map<String, Event.ReceiptView> lookups = new java.util.HashMap<>();
    lookups.put("a", h.receipt("a", 1));
    lookups.put("b", null); // the acknowledged write of b is lost
    CheckResult result = CHECKER.check(h.fin("r0", 2, "b", lookups).events());

    assertOnlyFails(result, "acknowledged-found", "r0", "w1#2", "op=b", "never applied");
  }

  @Test
  void anUnknownWriteWithoutALookupAnswerFailsAndAnAnsweredOnePasses() {
    HistoryBuilder unanswered = twoOwners().writeUnknown("w1", "r0", 2, "c", 3100, 3200L);
    Map<String, Event.ReceiptView> lookups = new java.util.HashMap<>();
    lookups.put("a", unanswered.receipt("a", 1));
    lookups.put("b", unanswered.receipt("b", 2));
    CheckResult failing = CHECKER.check(unanswered.fin("r0", 2, "b", lookups).events());
    CheckResult passing =
        CHECKER.check(
            twoOwners().writeUnknown("w1", "r0", 2, "c", 3100, 3200L).fin("r0", 2, "b").events());

    assertOnlyFails(failing, "unknown-resolved", "r0", "operation c", "w1#5", "no answer");
    assertPasses(passing);
    assertThat(passing.counts().unknownsNotLanded()).isEqualTo(1);
    assertThat(passing.check("unknown-resolved").detail()).contains("1 not landed");
  }

  @Test
  void aReadOfAValueNeverWrittenFails() {
    CheckResult result =
        CHECKER.check(twoOwners().read("w1", "r0", 3100, 3110, "zzz").fin("r0", 2, "b").events());

    assertOnlyFails(result, "reads-published", "r0", "w1#5", "value=zzz");
    assertThat(result.check("linearizable").status()).isEqualTo(Status.FAIL);
  }

  @Test
  void anUnknownWriteMustTakeEffectToExplainALaterRead() {
    // w0 dies while writing c; w1 takes over and reads c: only c having landed explains it
    HistoryBuilder h =
        twoOwners().writeUnknown("w1", "r0", 2, "c", 3100, null).read("w2", "r0", 3200, 3210, "c");

    CheckResult landed = CHECKER.check(h.fin("r0", 2, "c", "c@2").events());

    assertPasses(landed);
    assertThat(landed.counts().unknownsLanded()).isEqualTo(1);
  }

  @Test
  void aReadBeforeTheUnknownWriteItObservesIsNotLinearizable() {
    // c is published (its unknown write landed) but the read saw it before the write began
    CheckResult result =
        CHECKER.check(
            twoOwners()
                .read("w2", "r0", 3060, 3070, "c")
                .writeUnknown("w1", "r0", 2, "c", 3100, null)
                .fin("r0", 2, "c", "c@2")
                .events());

    assertOnlyFails(result, "linearizable", "r0", "w2#0 read", "value=c");
    assertThat(result.checks())
        .filteredOn(c -> !c.name().equals("linearizable"))
        .extracting(Check::status)
        .containsOnly(Status.PASS);
  }

  @Test
  void aReadOfAnOlderValueAfterANewerWriteCompletedIsNotLinearizable() {
    CheckResult result =
        CHECKER.check(twoOwners().read("w2", "r0", 3100, 3110, "a").fin("r0", 2, "b").events());

    assertOnlyFails(result, "linearizable", "r0", "w2#0 read", "value=a");
    assertThat(result.checks())
        .filteredOn(c -> !c.name().equals("linearizable"))
        .extracting(Check::status)
        .containsOnly(Status.PASS);
    Violation v = result.firstViolation().orElseThrow();
    assertThat(v.check()).isEqualTo("linearizable");
    assertThat(v.resource()).isEqualTo("r0");
    assertThat(v.around())
        .anyMatch(e -> "w2".equals(e.process()) && Event.READ.equals(e.f()))
        .hasSizeLessThanOrEqualTo(12);
  }

  @Test
  void overlappingWritesAndAReadMayBeOrderedEitherWay() {
    CheckResult result =
        CHECKER.check(
            new HistoryBuilder()
                .acquire("w0", "r0", 1, 0, 10)
                .register("w0", "r0", 1, 10, 20, REGISTERED)
                .write("w0", "r0", 1, "a", 20, 100, APPLIED)
                .write("w1", "r0", 1, "b", 30, 90, APPLIED)
                .read("w2", "r0", 40, 80, "a")
                .read("w3", "r0", 50, 120, "b")
                .fin("r0", 1, "a")
                .events());

    assertPasses(result);
  }

  @Test
  void theFinalValueMustBeTheLastPublishedOne() {
    CheckResult result = CHECKER.check(twoOwners().fin("r0", 2, "a").events());

    assertOnlyFails(result, "linearizable", "r0", "final state", "value a");
  }

  @Test
  void aStaleAlreadyAppliedIsNotLinearizable() {
    CheckResult result =
        CHECKER.check(
            twoOwners()
                .write("w0", "r0", 1, "a", 3100, 3110, ALREADY_APPLIED)
                .fin("r0", 2, "b")
                .events());

    assertOnlyFails(result, "linearizable", "r0", "w0#5", "op=a");
  }

  @Test
  void budgetMustBePositive() {
    assertThatThrownBy(() -> Checker.withBudget(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("PT0S");
  }

  @Test
  void anEmptyHistoryIsRefused() {
    assertThatThrownBy(() -> CHECKER.check(List.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not a complete chaos history")
        .hasMessageContaining("no meta line")
        .hasMessageContaining("no final line");
  }

  @Test
  void aHistoryWithoutMetaOrFinalLinesIsRefused() {
    // e.g. one worker's file, or a run cut short before the driver's final lookups
    List<Event> all =
        twoOwners().writeUnknown("w1", "r0", 2, "c", 3100, null).fin("r0", 2, "b").events();
    List<Event> noMeta = all.stream().filter(e -> e.type() != Event.Type.META).toList();
    List<Event> noFinal = all.stream().filter(e -> e.type() != Event.Type.FINAL).toList();

    assertThatThrownBy(() -> CHECKER.check(noMeta))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "not a complete chaos history: no meta line; was the run cut short? (a history.jsonl"
                + " starts with the driver's meta line and ends with one final line per resource)");
    assertThatThrownBy(() -> CHECKER.check(noFinal))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(
            "not a complete chaos history: no final line; was the run cut short?");
  }

  @Test
  void aWriteTheLookupFindsLandedAfterTheFinalValueFails() {
    // c's write is invoked after a was published and read, and the lookup finds c applied under
    // the same epoch: c landed after a, so the final value must be c, not a
    CheckResult result =
        CHECKER.check(
            new HistoryBuilder()
                .acquire("w1", "r0", 2, 0, 10)
                .register("w1", "r0", 2, 10, 20, REGISTERED)
                .write("w1", "r0", 2, "a", 30, 40, APPLIED)
                .read("w1", "r0", 50, 60, "a")
                .writeUnknown("w1", "r0", 2, "c", 70, 80L)
                .fin("r0", 2, "a", "c@2")
                .events());

    assertOnlyFails(result, "linearizable", "r0", "final state", "value a");
  }

  @Test
  void aLandedNewerWriteBeforeAnOlderAppliedOneFails() {
    // c (epoch 3) landed, so epoch 3 was registered before or after a (epoch 2) was Applied:
    // before makes a stale, after makes c the final value; the final value a is impossible
    CheckResult result =
        CHECKER.check(
            new HistoryBuilder()
                .acquire("w1", "r0", 2, 0, 10)
                .register("w1", "r0", 2, 10, 20, REGISTERED)
                .acquire("w2", "r0", 3, 30, 40)
                .writeUnknown("w2", "r0", 3, "c", 50, 60L)
                .write("w1", "r0", 2, "a", 100, 110, APPLIED)
                .read("w1", "r0", 120, 130, "a")
                .fin("r0", 3, "a", "c@3")
                .events());

    assertOnlyFails(result, "linearizable", "r0");
  }

  @Test
  void aFailedWriteTheLookupFindsAppliedFails() {
    // FAIL says nothing changed, yet the final lookup finds c applied: no write explains it
    HistoryBuilder h =
        new HistoryBuilder()
            .acquire("w1", "r0", 2, 0, 10)
            .register("w1", "r0", 2, 10, 20, REGISTERED)
            .writeFailed("w1", "r0", 2, "c", 30, 40)
            .write("w1", "r0", 2, "a", 50, 60, APPLIED);
    CheckResult result = CHECKER.check(h.fin("r0", 2, "a", "c@2").events());

    assertThat(result.check("applied-once").status()).as(result.summary()).isEqualTo(Status.FAIL);
    assertThat(result.check("applied-once").detail())
        .contains("r0", "operation c", "FAIL", "w1#2", "finds it applied");
    assertThat(result.check("linearizable").status()).isEqualTo(Status.FAIL);
    assertThat(result.passed()).isFalse();
  }

  @Test
  void anOperationTheLookupFindsThatNoWriteWroteFails() {
    HistoryBuilder h = twoOwners();
    Map<String, Event.ReceiptView> lookups = new java.util.HashMap<>();
    lookups.put("a", h.receipt("a", 1));
    lookups.put("b", h.receipt("b", 2));
    lookups.put("ghost", h.receipt("ghost", 2));
    CheckResult result = CHECKER.check(h.fin("r0", 2, "b", lookups).events());

    assertThat(result.check("applied-once").status()).as(result.summary()).isEqualTo(Status.FAIL);
    assertThat(result.check("applied-once").detail()).contains("operation ghost", "no write");
    assertThat(result.check("linearizable").status()).isEqualTo(Status.FAIL);
  }

  @Test
  void checksThatNeedALookupAreNotPassedWithoutOne() {
    // no RESULT_LOOKUP: an acknowledged write the store lost could not be noticed
    CheckResult result =
        CHECKER.check(
            new HistoryBuilder(Map.of("capabilities", "NATIVE_EPOCH_CHECK", "can-read", "false"))
                .acquire("w1", "r0", 1, 0, 10)
                .register("w1", "r0", 1, 10, 20, REGISTERED)
                .write("w1", "r0", 1, "a", 30, 40, APPLIED)
                .writeUnknown("w1", "r0", 1, "b", 50, 60L)
                .finWithoutLookup("r0", 1, null, "lookup: the destination lacks RESULT_LOOKUP")
                .events());

    for (String check : List.of("acknowledged-found", "unknown-resolved")) {
      assertThat(result.check(check).status()).as(result.summary()).isEqualTo(Status.UNKNOWN);
      assertThat(result.check(check).detail()).startsWith("not checked: the destination has no");
    }
    assertThat(result.passed()).isFalse();
    assertThat(result.gaveUp()).isTrue();
    assertThat(result.summary()).doesNotContain("checks: PASS");
  }

  @Test
  void aFinalValueOnAResourceWithoutOperationsIsChecked() {
    CheckResult result =
        CHECKER.check(
            twoOwners().fin("r0", 2, "b").fin("r1", 7, "zzz-never-written", Map.of()).events());

    assertThat(result.check("reads-published").status())
        .as(result.summary())
        .isEqualTo(Status.FAIL);
    assertThat(result.check("reads-published").detail()).contains("r1", "zzz-never-written");
    assertThat(result.check("linearizable").status()).isEqualTo(Status.FAIL);
    assertThat(result.check("linearizable").detail()).contains("r1");
  }

  @Test
  void aStaleRejectionMustNameANewerCurrentEpoch() {
    CheckResult truthful =
        CHECKER.check(
            twoOwners()
                .writeRejected("w0", "r0", 1, "c", 3100, 3110, 2)
                .fin("r0", 2, "b")
                .events());
    CheckResult untrue =
        CHECKER.check(
            twoOwners()
                .writeRejected("w0", "r0", 1, "c", 3100, 3110, 1)
                .fin("r0", 2, "b")
                .events());

    assertPasses(truthful);
    assertOnlyFails(
        untrue, "no-stale-write-after-newer", "r0", "w0#5", "current epoch 1", "untrue");
  }
}
