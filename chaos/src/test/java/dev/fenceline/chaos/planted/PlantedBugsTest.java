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
package dev.fenceline.chaos.planted;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fenceline.spi.AlreadyApplied;
import dev.fenceline.spi.Applied;
import dev.fenceline.spi.ConfigurationException;
import dev.fenceline.spi.Destination;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingStep;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Receipt;
import dev.fenceline.spi.Registered;
import dev.fenceline.spi.RejectedStale;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StepListener;
import dev.fenceline.spi.WriteOutcome;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each planted bug, shown deterministically with the scenario the chaos checker has to meet by
 * chance (a stale writer after a newer registration, a retry, two decisions on one version); the
 * correct destination passes the same scenarios, so every assertion here tells the two apart.
 */
class PlantedBugsTest {

  private static final ResourceId RESOURCE = ResourceId.of("r0");
  private static final OperationId JOB = OperationId.of("job-16-0");

  @TempDir Path dir;
  private final List<PlantedBugTarget> opened = new ArrayList<>();

  @AfterEach
  void closeTargets() {
    opened.forEach(PlantedBugTarget::close);
  }

  private PlantedBugTarget open(PlantedBug bug) {
    PlantedBugTarget target =
        (PlantedBugTarget)
            new PlantedBugTargetFactory()
                .open(
                    Map.of(
                        PlantedBugTargetFactory.BUG,
                        bug.setting(),
                        PlantedBugTargetFactory.DIR,
                        dir.resolve(bug.setting()).toString()));
    opened.add(target);
    return target;
  }

  private static FencingToken token(PlantedBugTarget target, long epoch, String holder) {
    return new FencingToken(target.issuer().id(), RESOURCE, Epoch.of(epoch), holder);
  }

  private static InputStream payload(OperationId operation) {
    return new ByteArrayInputStream(("op=" + operation.value() + "\n").getBytes(UTF_8));
  }

  private static Optional<String> published(PlantedBugTarget target) {
    return target.read(RESOURCE).map(bytes -> new String(bytes, UTF_8));
  }

  /** What a writer of epoch 33 got, and left, after epoch 34 was registered. */
  private record StaleWrite(
      WriteOutcome outcome, Optional<String> published, Optional<Receipt> receipt, Epoch epoch) {}

  private static StaleWrite staleWrite(PlantedBugTarget target) {
    Destination<InputStream> destination = target.destination();
    assertThat(destination.register(token(target, 34, "w1"))).isInstanceOf(Registered.class);
    WriteOutcome outcome = destination.write(token(target, 33, "w0"), JOB, payload(JOB));
    return new StaleWrite(
        outcome,
        published(target),
        destination.lookup(RESOURCE, JOB),
        destination.currentEpoch(RESOURCE));
  }

  private static final RejectedStale STALE =
      new RejectedStale(RESOURCE, Epoch.of(33), Epoch.of(34));

  @Test
  void theCorrectDestinationPassesEveryScenario() {
    PlantedBugTarget target = open(PlantedBug.NONE);
    StaleWrite stale = staleWrite(target);
    assertThat(stale.outcome()).isEqualTo(STALE);
    assertThat(stale.published()).isEmpty();
    assertThat(stale.receipt()).isEmpty();
    assertThat(stale.epoch()).isEqualTo(Epoch.of(34));

    // The new owner reuses the operation ID: nothing was applied under it, so it applies.
    WriteOutcome byNewOwner =
        target.destination().write(token(target, 34, "w1"), JOB, payload(JOB));
    assertThat(byNewOwner).isInstanceOf(Applied.class);
    assertThat(published(target)).contains("op=job-16-0\n");

    // A retry replays the receipt and applies nothing.
    Receipt first = ((Applied) byNewOwner).receipt();
    assertThat(target.destination().write(token(target, 34, "w1"), JOB, payload(JOB)))
        .isEqualTo(new AlreadyApplied(first));
    assertThat(PlantedBugTarget.applyCount(target.destination(), RESOURCE)).isEqualTo(1);
  }

  @Test
  void noEpochCheckAppliesAStaleWrite() {
    StaleWrite stale = staleWrite(open(PlantedBug.NO_EPOCH_CHECK));

    assertThat(stale.outcome()).isInstanceOf(Applied.class);
    assertThat(((Applied) stale.outcome()).receipt().epoch()).isEqualTo(Epoch.of(33));
    assertThat(stale.published()).contains("op=job-16-0\n");
    assertThat(stale.epoch()).as("register still records epochs").isEqualTo(Epoch.of(34));
  }

  @Test
  void checkAfterWriteAnswersStaleButKeepsTheChange() {
    StaleWrite stale = staleWrite(open(PlantedBug.CHECK_AFTER_WRITE));

    assertThat(stale.outcome()).isEqualTo(STALE);
    assertThat(stale.published()).as("the rejected change stays").contains("op=job-16-0\n");
    assertThat(stale.receipt())
        .hasValueSatisfying(receipt -> assertThat(receipt.epoch()).isEqualTo(Epoch.of(33)));
  }

  @Test
  void receiptBeforeChangeLeavesAReceiptForAChangeThatNeverHappened() {
    PlantedBugTarget target = open(PlantedBug.RECEIPT_BEFORE_CHANGE);
    StaleWrite stale = staleWrite(target);

    assertThat(stale.outcome()).isEqualTo(STALE);
    assertThat(stale.published()).isEmpty();
    assertThat(stale.receipt()).as("the receipt of the rejected write").isPresent();
    // The new owner reuses the operation ID and is told it was applied: it never was.
    assertThat(target.destination().write(token(target, 34, "w1"), JOB, payload(JOB)))
        .isEqualTo(new AlreadyApplied(stale.receipt().orElseThrow()));
    assertThat(published(target)).isEmpty();
  }

  @Test
  void retryReappliedAppliesARetryAgainWithANewReceipt() {
    PlantedBugTarget target = open(PlantedBug.RETRY_REAPPLIED);
    FencingToken token = token(target, 5, "w0");
    WriteOutcome first = target.destination().write(token, JOB, payload(JOB));

    WriteOutcome retry = target.destination().write(token, JOB, payload(JOB));

    assertThat(first).isInstanceOf(Applied.class);
    assertThat(retry).isInstanceOf(Applied.class).isNotEqualTo(first);
    assertThat(PlantedBugTarget.applyCount(target.destination(), RESOURCE)).isEqualTo(2);
    assertThat(target.destination().lookup(RESOURCE, JOB)).contains(((Applied) retry).receipt());
  }

  /** What happened when writer A decided on one version and B committed before A's replace. */
  private record Overtaken(
      WriteOutcome a,
      WriteOutcome b,
      Epoch epoch,
      Optional<Receipt> receiptOfB,
      Optional<String> published) {}

  /**
   * A (epoch 33) decides its write; before its replace, B registers 34 and writes {@code job-17-0}.
   * Then A's replace goes to the store, made on the version before B's.
   */
  private static Overtaken overtaken(PlantedBugTarget target, boolean conditional) {
    SqliteFile db = SqliteCasStore.open(target.dirOfCas());
    Destination<InputStream> plain =
        new CasDestination(db, "planted", StepListener.NONE, conditional);
    OperationId jobOfB = OperationId.of("job-17-0");
    WriteOutcome[] b = new WriteOutcome[1];
    StepListener beforeReplaceOfA =
        (step, token, operation) -> {
          if (step == FencingStep.AFTER_APPLY && token.holder().equals("w0") && b[0] == null) {
            plain.register(token(target, 34, "w1"));
            b[0] = plain.write(token(target, 34, "w1"), jobOfB, payload(jobOfB));
          }
        };
    Destination<InputStream> a = new CasDestination(db, "planted", beforeReplaceOfA, conditional);
    plain.register(token(target, 33, "w0"));

    WriteOutcome outcomeOfA = a.write(token(target, 33, "w0"), JOB, payload(JOB));

    return new Overtaken(
        outcomeOfA,
        b[0],
        plain.currentEpoch(RESOURCE),
        plain.lookup(RESOURCE, jobOfB),
        PlantedBugTarget.read(plain, RESOURCE).map(bytes -> new String(bytes, UTF_8)));
  }

  @Test
  void unconditionalCasLetsADecisionOnAnOldVersionOverwriteANewerOwner() {
    Overtaken overtaken = overtaken(open(PlantedBug.UNCONDITIONAL_CAS), false);

    assertThat(overtaken.b()).isInstanceOf(Applied.class);
    assertThat(overtaken.a())
        .as("A's decision on the old version lands")
        .isInstanceOf(Applied.class);
    assertThat(overtaken.epoch()).as("the registered epoch moved back").isEqualTo(Epoch.of(33));
    assertThat(overtaken.receiptOfB()).as("B's acknowledged write is gone").isEmpty();
    assertThat(overtaken.published()).contains("op=job-16-0\n");
  }

  @Test
  void theConditionalCasStoreRereadsAndRejectsTheOvertakenWriter() {
    Overtaken overtaken = overtaken(open(PlantedBug.UNCONDITIONAL_CAS), true);

    assertThat(overtaken.b()).isInstanceOf(Applied.class);
    assertThat(overtaken.a()).isEqualTo(STALE);
    assertThat(overtaken.epoch()).isEqualTo(Epoch.of(34));
    assertThat(overtaken.receiptOfB()).isPresent();
    assertThat(overtaken.published()).contains("op=job-17-0\n");
  }

  @Test
  void settingsAreCheckedWithTheFixInTheMessage() {
    PlantedBugTargetFactory factory = new PlantedBugTargetFactory();
    assertThatThrownBy(() -> factory.open(Map.of("dir", dir.toString())))
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("setting bug is missing");
    assertThatThrownBy(() -> factory.open(Map.of("bug", "typo", "dir", dir.toString())))
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining(
            "none | no-epoch-check | check-after-write | unconditional-cas |"
                + " receipt-before-change | retry-reapplied");
    assertThatThrownBy(() -> factory.open(Map.of("bug", "none")))
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("setting dir is missing");
  }
}
