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
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingStep;
import dev.fenceline.spi.LeaseLostException;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.ResourceId;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The lab on its own, as {@code new FencelineLab()}: time, expiry, renewal, epochs, workers. */
class FencelineLabTest {

  private static final ResourceId REPORT = ResourceId.of("nightly-report");
  private static final Duration TEN_SECONDS = Duration.ofSeconds(10);

  private final FencelineLab lab = new FencelineLab();

  @AfterEach
  void closeLab() {
    lab.close();
  }

  @Test
  void timeStandsStillUntilTheTestMovesIt() {
    assertThat(lab.clock().instant()).isEqualTo(FencelineLab.START);
    long before = lab.monotonicClock().nanoTime();

    Instant now = lab.advance(Duration.ofSeconds(15));

    assertThat(now).isEqualTo(FencelineLab.START.plusSeconds(15));
    assertThat(lab.clock().instant()).isEqualTo(now);
    assertThat(lab.monotonicClock().nanoTime() - before)
        .isEqualTo(Duration.ofSeconds(15).toNanos());
    assertThatThrownBy(() -> lab.advance(Duration.ofSeconds(-1)))
        .hasMessage("Cannot move the clock back by PT-1S");
  }

  @Test
  void aLeaseLastsExactlyItsTtlOnTheLabsClock() {
    Fenceline a = lab.worker("worker-a", TEN_SECONDS);
    Fenceline b = lab.worker("worker-b", TEN_SECONDS);
    HeldLease leaseA = lab.acquire(a, REPORT);

    lab.advance(Duration.ofSeconds(9));
    assertThat(b.tryAcquire(REPORT)).isEmpty();
    assertThat(lab.issuer().status(REPORT).held()).isTrue();

    lab.advance(Duration.ofSeconds(1));
    assertThat(lab.issuer().status(REPORT).held()).isFalse();
    assertThat(leaseA.isLocallyValid()).isFalse();
    assertThat(lab.acquire(b, REPORT)).hasEpoch(2);
  }

  @Test
  void expireMovesTimeExactlyToTheExpiryOfTheLease() {
    Fenceline a = lab.worker("worker-a", TEN_SECONDS);
    lab.acquire(a, REPORT);
    lab.advance(Duration.ofSeconds(4));

    Duration moved = lab.expire(REPORT);

    assertThat(moved).isEqualTo(Duration.ofSeconds(6));
    assertThat(lab.clock().instant()).isEqualTo(FencelineLab.START.plusSeconds(10));
    assertThat(lab.issuer().status(REPORT).held()).isFalse();
    assertThat(lab.acquire(lab.worker("worker-b"), REPORT)).hasEpoch(2);
  }

  @Test
  void aWorkerNoticesTheLossWhenItNextPublishesAndSendsNothing() {
    Fenceline a = lab.worker("worker-a", TEN_SECONDS);
    InMemoryDestination<String> reports = lab.destination("reports");
    HeldLease leaseA = lab.acquire(a, REPORT);
    lab.expire(REPORT);
    assertThat(leaseA).isHeld(); // no background thread told it yet

    assertThatThrownBy(() -> a.publish(leaseA, reports, OperationId.of("op-1"), "late"))
        .isInstanceOf(LeaseLostException.class)
        .hasMessageContaining("nothing was sent to the destination");

    assertThat(leaseA).isLost();
    assertThat(reports.writes()).isEmpty();
  }

  @Test
  void nothingRenewsALeaseInTheBackground() {
    Set<Thread> before = Thread.getAllStackTraces().keySet();
    Fenceline a = lab.worker("worker-a", TEN_SECONDS);

    lab.acquire(a, REPORT);

    // Fenceline starts its renewal thread when it schedules the first renewal.
    Set<String> started =
        Thread.getAllStackTraces().keySet().stream()
            .filter(thread -> !before.contains(thread))
            .map(Thread::getName)
            .collect(Collectors.toSet());
    assertThat(started).doesNotContain("fenceline-lease-renewal");
  }

  @Test
  void aTestRenewsExplicitlyToModelAHealthyWorker() {
    Fenceline a = lab.worker("worker-a", TEN_SECONDS);
    Fenceline b = lab.worker("worker-b", TEN_SECONDS);
    HeldLease leaseA = lab.acquire(a, REPORT);
    lab.advance(Duration.ofSeconds(6));

    assertThat(leaseA.renewNow()).isTrue();
    lab.advance(Duration.ofSeconds(6));

    assertThat(b.tryAcquire(REPORT)).isEmpty();
    assertThat(lab.expire(REPORT)).isEqualTo(Duration.ofSeconds(4));
    assertThat(lab.acquire(b, REPORT)).hasEpoch(2);
  }

  @Test
  void expireRefusesAResourceNobodyHolds() {
    assertThatThrownBy(() -> lab.expire(REPORT))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage(
            "Cannot expire nightly-report: no lease on it is held at 2026-10-27T02:00:00Z"
                + " (acquire it first)");

    lab.acquire(lab.worker("worker-a"), REPORT).close();

    assertThatThrownBy(() -> lab.expire(REPORT))
        .hasMessage(
            "Cannot expire nightly-report: no lease on it is held at 2026-10-27T02:00:00Z"
                + " (its lease at epoch 1 expired or was released already)");
    assertThat(lab.clock().instant()).isEqualTo(FencelineLab.START);
  }

  @Test
  void acquireSaysWhoHoldsTheResourceAndUntilWhen() {
    lab.acquire(lab.worker("worker-a", TEN_SECONDS), REPORT);
    Fenceline b = lab.worker("worker-b");

    assertThatThrownBy(() -> lab.acquire(b, REPORT))
        .isInstanceOf(AssertionError.class)
        .hasMessage(
            "Cannot acquire nightly-report for worker-b: worker-a holds it at epoch 1 until"
                + " 2026-10-27T02:00:10Z by the lab's clock, now 2026-10-27T02:00:00Z (let it"
                + " expire first: lab.expire(ResourceId.of(\"nightly-report\")) or"
                + " lab.advance(...))");
  }

  @Test
  void skipToEpochMakesTheNextLeaseGetThatEpoch() {
    lab.skipToEpoch(REPORT, 33);

    assertThat(lab.issuer().status(REPORT).epoch()).isEqualTo(Epoch.of(32));
    assertThat(lab.issuer().status(REPORT).held()).isFalse();
    assertThat(lab.acquire(lab.worker("worker-a"), REPORT)).hasEpoch(33);
  }

  @Test
  void skipToEpochRefusesWhatItCannotDo() {
    ResourceId other = ResourceId.of("other");
    assertThatThrownBy(() -> lab.skipToEpoch(other, FencelineLab.MAX_SKIPPED_EPOCHS + 2))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Cannot skip other to epoch 100002: that hands out 100001 epochs, more than 100000"
                + " (ask for a smaller epoch)");
    lab.skipToEpoch(other, FencelineLab.MAX_SKIPPED_EPOCHS + 1);

    HeldLease held = lab.acquire(lab.worker("worker-a"), REPORT);
    assertThatThrownBy(() -> lab.skipToEpoch(REPORT, 33))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage(
            "Cannot skip nightly-report to epoch 33: worker-a holds it at epoch 1 (skip before"
                + " the first acquire)");
    held.close();
    assertThatThrownBy(() -> lab.skipToEpoch(REPORT, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Cannot skip nightly-report to epoch 1: epoch 1 was handed out already and epochs"
                + " never go back (ask for 2 or more)");
    assertThat(lab.issuer().status(REPORT).epoch()).isEqualTo(Epoch.of(1));
  }

  @Test
  void aWorkerNameIsOneWorker() {
    Fenceline a = lab.worker("worker-a");

    assertThat(lab.worker("worker-a")).isSameAs(a);
    assertThatThrownBy(() -> lab.worker("worker-a", TEN_SECONDS))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage(
            "Cannot make worker worker-a: this lab has a worker of that name already (call"
                + " worker(\"worker-a\") to get it, or choose another holder name)");
    assertThatThrownBy(() -> lab.worker(" "))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("holder");
  }

  @Test
  void aWorkersSettingsApplyOnTopOfTheLabs() {
    Fenceline a = lab.worker("worker-a", settings -> settings.leaseTtl(Duration.ofMinutes(5)));

    HeldLease lease = lab.acquire(a, REPORT);

    assertThat(lease.lease().ttl()).isEqualTo(Duration.ofMinutes(5));
    assertThat(lease.token().issuer()).isEqualTo(lab.issuer().id());
  }

  @Test
  void aDestinationNameIsOneDestinationAndEveryDestinationSharesTheRegisteredEpochs() {
    InMemoryDestination<String> reports = lab.destination("reports");
    InMemoryDestination<String> audit = lab.destination("audit");
    assertThat(lab.<String>destination("reports")).isSameAs(reports);
    Fenceline a = lab.worker("worker-a", TEN_SECONDS);
    HeldLease leaseA = lab.acquire(a, REPORT);
    lab.expire(REPORT);
    Fenceline b = lab.worker("worker-b", TEN_SECONDS);
    b.register(lab.acquire(b, REPORT), reports);

    assertThat(audit.write(leaseA.token(), OperationId.of("audit-1"), "late"))
        .isRejectedAsStale()
        .byCurrentEpoch(2);
    assertThatThrownBy(() -> lab.destination("Reports!"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Cannot use destination name \"Reports!\"");
  }

  @Test
  void aClosedLabRefusesNewWork() {
    lab.close();

    assertThatThrownBy(() -> lab.worker("worker-a"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage(
            "Cannot make worker worker-a: the lab was closed after its test (use the lab of this"
                + " test)");
    assertThatThrownBy(() -> lab.destination("reports"))
        .hasMessageStartingWith("Cannot make destination reports: the lab was closed");
    assertThatThrownBy(() -> lab.start("worker-a", () -> 1))
        .hasMessageStartingWith("Cannot start worker-a: the lab was closed");
    assertThatThrownBy(() -> lab.pauseAt(FencingStep.BEFORE_LOCK, "worker-a"))
        .hasMessageStartingWith("Cannot pause worker-a at BEFORE_LOCK: the lab was closed");
    lab.close(); // idempotent
  }

  @Test
  void closeClosesEveryWorker() {
    Fenceline a = lab.worker("worker-a");

    lab.close();

    assertThatThrownBy(() -> a.tryAcquire(REPORT))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("this Fenceline is closed");
  }
}
