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
package dev.fenceline.junit;

import static dev.fenceline.junit.FencelineAssertions.assertThat;
import static dev.fenceline.junit.FencelineAssertions.assertThatThrownBy;

import dev.fenceline.core.Fenceline;
import dev.fenceline.core.HeldLease;
import dev.fenceline.spi.AlreadyApplied;
import dev.fenceline.spi.Applied;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Pointer;
import dev.fenceline.spi.Receipt;
import dev.fenceline.spi.RejectedStale;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StepListener;
import dev.fenceline.spi.WriteOutcome;
import dev.fenceline.tck.memory.InMemoryPointerStore;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Every assertion passes on what it names and fails with a message that says what happened. */
@FencelineTest
class FencelineAssertionsTest {

  private static final ResourceId REPORT = ResourceId.of("nightly-report");
  private static final OperationId OPERATION = OperationId.of("report-2026-10-27");
  private static final Receipt RECEIPT_33 =
      new Receipt("reports", REPORT, OPERATION, Epoch.of(33), Instant.EPOCH, Map.of());
  private static final WriteOutcome APPLIED = new Applied(RECEIPT_33);
  private static final WriteOutcome REPLAYED = new AlreadyApplied(RECEIPT_33);
  private static final WriteOutcome STALE = new RejectedStale(REPORT, Epoch.of(33), Epoch.of(34));

  @Test
  void anAppliedWrite() {
    assertThat(APPLIED).wasApplied().atEpoch(33);

    assertThatThrownBy(() -> assertThat(APPLIED).isRejectedAsStale())
        .isInstanceOf(AssertionError.class)
        .hasMessage(
            "Expected the write to be rejected as stale, but it was applied at epoch 33 as"
                + " operation report-2026-10-27 on reports");
    assertThatThrownBy(() -> assertThat(APPLIED).atEpoch(34))
        .hasMessage(
            "Expected the write to be applied at epoch 34, but it was applied at epoch 33 as"
                + " operation report-2026-10-27 on reports");
  }

  @Test
  void aReplayedWrite() {
    assertThat(REPLAYED).wasAlreadyApplied().atEpoch(33);

    assertThatThrownBy(() -> assertThat(REPLAYED).wasApplied())
        .hasMessage(
            "Expected the write to be applied, but it was answered as already applied (nothing"
                + " changed; the receipt of the earlier write was replayed: at epoch 33 as"
                + " operation report-2026-10-27 on reports)");
  }

  @Test
  void aStaleWrite() {
    assertThat(STALE).isRejectedAsStale().byCurrentEpoch(34);

    assertThatThrownBy(() -> assertThat(STALE).wasApplied())
        .hasMessage(
            "Expected the write to be applied, but it was rejected as stale: epoch 33 is older"
                + " than the current epoch 34 of nightly-report");
    assertThatThrownBy(() -> assertThat(STALE).wasAlreadyApplied())
        .hasMessage(
            "Expected the write to be answered as already applied, but it was rejected as"
                + " stale: epoch 33 is older than the current epoch 34 of nightly-report");
    assertThatThrownBy(() -> assertThat(STALE).byCurrentEpoch(35))
        .hasMessage(
            "Expected the write to be rejected by current epoch 35, but it was rejected as"
                + " stale: epoch 33 is older than the current epoch 34 of nightly-report");
    assertThatThrownBy(() -> assertThat(STALE).atEpoch(33))
        .hasMessage(
            "Expected the write to be applied at epoch 33, but it was rejected as stale: epoch 33"
                + " is older than the current epoch 34 of nightly-report");
    assertThatThrownBy(() -> assertThat(APPLIED).byCurrentEpoch(34))
        .hasMessageStartingWith("Expected the write to be rejected as stale, but it was applied");
  }

  @Test
  void noOutcomeAtAll() {
    assertThatThrownBy(() -> assertThat((WriteOutcome) null).wasApplied())
        .hasMessage("Expected the write to be applied, but there is no outcome (null)");
  }

  @Test
  void aDescriptionGivenWithAsLeadsTheMessage() {
    assertThatThrownBy(() -> assertThat(STALE).as("B's publish").wasApplied())
        .hasMessageStartingWith("[B's publish] Expected the write to be applied, but it was");
  }

  @Test
  void aLease(FencelineLab lab) {
    Fenceline a = lab.worker("worker-a", Duration.ofSeconds(10));
    HeldLease lease = lab.acquire(a, REPORT);
    assertThat(lease).hasEpoch(1).isHeld();

    assertThatThrownBy(() -> assertThat(lease).hasEpoch(2))
        .hasMessage(
            "Expected worker-a's lease on nightly-report to have epoch 2, but it has epoch 1");
    assertThatThrownBy(() -> assertThat(lease).isLost())
        .hasMessage(
            "Expected worker-a's lease on nightly-report at epoch 1 to be LOST, but it is HELD");

    lab.expire(REPORT);
    assertThatThrownBy(() -> assertThat(lease).isLost())
        .hasMessage(
            "Expected worker-a's lease on nightly-report at epoch 1 to be LOST, but it is HELD"
                + " (its local deadline passed: the worker notices when it next renews, publishes"
                + " or registers)");

    lab.acquire(lab.worker("worker-b"), REPORT);
    assertThat(lease.renewNow()).isFalse();
    assertThat(lease).isLost();
    assertThatThrownBy(() -> assertThat(lease).isHeld())
        .hasMessageStartingWith(
            "Expected worker-a's lease on nightly-report at epoch 1 to be HELD, but it is LOST:"
                + " Lost the lease on nightly-report at epoch 1: ");
  }

  @Test
  void aDestinationsWrites(FencelineLab lab, InMemoryDestination<String> reports) {
    Fenceline a = lab.worker("worker-a", Duration.ofSeconds(10));
    Fenceline b = lab.worker("worker-b", Duration.ofSeconds(10));
    HeldLease leaseA = lab.acquire(a, REPORT);
    FencingToken tokenA = leaseA.token();

    assertThatThrownBy(() -> assertThat(reports).hasRejectedAsStale(tokenA))
        .hasMessage(
            "Expected destination to have rejected a write with worker-a's token for"
                + " nightly-report at epoch 1 as stale, but it received no write with that"
                + " token; it received no writes at all");
    assertThatThrownBy(() -> assertThat(reports).hasPublished(REPORT, "B's report"))
        .hasMessage(
            "Expected destination to publish \"B's report\" for nightly-report, but nothing was"
                + " published for nightly-report; it received no writes at all");

    assertThat(a.publish(leaseA, reports, OPERATION, "A's report")).wasApplied();
    assertThat(reports).hasApplied(tokenA).hasPublished(REPORT, "A's report");
    assertThatThrownBy(() -> assertThat(reports).hasRejectedAsStale(tokenA))
        .hasMessage(
            "Expected destination to have rejected a write with worker-a's token for"
                + " nightly-report at epoch 1 as stale, but worker-a wrote report-2026-10-27 at"
                + " epoch 1: applied at epoch 1 as operation report-2026-10-27 on destination");

    lab.expire(REPORT);
    HeldLease leaseB = lab.acquire(b, REPORT);
    assertThat(b.publish(leaseB, reports, OperationId.of("report-2"), "B's report")).wasApplied();
    assertThat(reports.write(tokenA, OperationId.of("report-3"), "late")).isRejectedAsStale();

    assertThat(reports).hasRejectedAsStale(tokenA).hasApplied(leaseB.token());
    assertThatThrownBy(() -> assertThat(reports).hasPublished(REPORT, "A's report"))
        .hasMessage(
            "Expected destination to publish \"A's report\" for nightly-report, but it publishes"
                + " \"B's report\" (applied at epoch 2 as operation report-2)");
    FencingToken neverUsed = new FencingToken(lab.issuer().id(), REPORT, Epoch.of(9), "worker-c");
    assertThatThrownBy(() -> assertThat(reports).hasApplied(neverUsed))
        .hasMessage(
            "Expected destination to have applied a write with worker-c's token for"
                + " nightly-report at epoch 9, but it received no write with that token; writes"
                + " it received: worker-a wrote report-2026-10-27 at epoch 1: applied at epoch 1"
                + " as operation report-2026-10-27 on destination; worker-b wrote report-2 at"
                + " epoch 2: applied at epoch 2 as operation report-2 on destination; worker-a"
                + " wrote report-3 at epoch 1: rejected as stale: epoch 1 is older than the"
                + " current epoch 2 of nightly-report");
  }

  @Test
  void aRecordedDestinationOfYoursCannotBeReadButItsWritesCan(FencelineLab lab) {
    RecordingDestination<Pointer> yours =
        lab.record(
            new InMemoryPointerStore(
                new InMemoryPointerStore.Storage(), "yours", StepListener.NONE, lab.clock()));
    FencingToken token = lab.acquire(lab.worker("worker-a"), REPORT).token();
    yours.write(token, OPERATION, Pointer.to("report-v1"));

    assertThat(yours).hasApplied(token);
    assertThatThrownBy(() -> assertThat(yours).hasPublished(REPORT, Pointer.to("report-v1")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Cannot check what yours publishes: it records the writes to your own destination,"
                + " which it cannot read (read it from your destination)");
  }
}
