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
package dev.fenceline.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.LeaseLostException;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StoreException;
import dev.fenceline.tck.memory.InMemoryLeaseIssuer;
import dev.fenceline.tck.memory.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** {@link HeldLease#onLost}: who is told, when, why, and how often. */
class LeaseLossTest {

  private static final ResourceId REPORT = ResourceId.of("nightly-report");
  private static final Duration TTL = Duration.ofSeconds(10);
  private static final Duration MARGIN = Duration.ofSeconds(1);

  private final MutableClock issuerClock = new MutableClock(Instant.parse("2026-10-27T01:00:00Z"));
  private final InMemoryLeaseIssuer memory =
      new InMemoryLeaseIssuer(new InMemoryLeaseIssuer.Storage(), issuerClock);
  private final AtomicLong nanos = new AtomicLong(1_000_000_000L);
  private final ScriptedLeaseIssuer issuer = new ScriptedLeaseIssuer(memory, nanos);

  /** Collects the losses a listener saw and the threads it ran on. */
  private static final class Recorder {
    final List<LeaseLoss> losses = new CopyOnWriteArrayList<>();
    final List<String> threads = new CopyOnWriteArrayList<>();
    final CountDownLatch called = new CountDownLatch(1);

    void record(LeaseLoss loss) {
      losses.add(loss);
      threads.add(Thread.currentThread().getName());
      called.countDown();
    }
  }

  private Fenceline manualRenewal() {
    return Fenceline.builder()
        .issuer(issuer)
        .holder("worker-a")
        .leaseTtl(TTL)
        .safetyMargin(MARGIN)
        .renewEvery(Duration.ZERO)
        .clock(nanos::get)
        .build();
  }

  private void takeOver() {
    issuerClock.advance(TTL.plusMillis(1));
    memory.tryAcquire(REPORT, "worker-b", TTL).orElseThrow();
  }

  @Test
  void aRefusedRenewalTellsEachListenerOnceWithTheNewerEpoch() {
    Recorder first = new Recorder();
    Recorder second = new Recorder();
    try (Fenceline fenceline = manualRenewal();
        HeldLease lease = fenceline.tryAcquire(REPORT).orElseThrow()) {
      lease.onLost(first::record);
      lease.onLost(second::record);
      takeOver();

      assertThat(lease.renewNow()).isFalse();
      assertThat(lease.renewNow()).isFalse();

      LeaseLoss loss = lease.loss().orElseThrow();
      assertThat(loss.resource()).isEqualTo(REPORT);
      assertThat(loss.epoch()).isEqualTo(Epoch.of(1));
      assertThat(loss.reason()).isEqualTo(LeaseLoss.Reason.SUPERSEDED);
      assertThat(loss.newerEpoch()).contains(Epoch.of(2));
      assertThat(loss.describe())
          .startsWith("Lost the lease on nightly-report at epoch 1: SUPERSEDED by epoch 2 (");
      assertThat(first.losses).containsExactly(loss);
      assertThat(second.losses).containsExactly(loss);
    }
  }

  @Test
  void aListenerAddedAfterTheLossRunsAtOnce() {
    Recorder late = new Recorder();
    try (Fenceline fenceline = manualRenewal();
        HeldLease lease = fenceline.tryAcquire(REPORT).orElseThrow()) {
      takeOver();
      assertThat(lease.renewNow()).isFalse();

      lease.onLost(late::record);

      assertThat(late.losses).containsExactly(lease.loss().orElseThrow());
      assertThat(late.threads).containsExactly(Thread.currentThread().getName());
    }
  }

  @Test
  void anExpiredLeaseWithoutSuccessorIsRefusedWithoutNewerEpoch() {
    Recorder recorder = new Recorder();
    try (Fenceline fenceline = manualRenewal();
        HeldLease lease = fenceline.tryAcquire(REPORT).orElseThrow()) {
      lease.onLost(recorder::record);
      issuerClock.advance(TTL.plusMillis(1)); // the issuer's clock ran faster than ours

      assertThat(lease.renewNow()).isFalse();

      LeaseLoss loss = recorder.losses.get(0);
      assertThat(loss.reason()).isEqualTo(LeaseLoss.Reason.REFUSED);
      assertThat(loss.newerEpoch()).isEmpty();
      assertThat(loss.detail()).contains("Cannot renew lease");
    }
  }

  @Test
  void concurrentDetectionsTellEachListenerExactlyOnce() throws Exception {
    int racers = 4;
    CountDownLatch allInside = new CountDownLatch(racers);
    Recorder recorder = new Recorder();
    ExecutorService threads = Executors.newFixedThreadPool(racers);
    try (Fenceline fenceline = manualRenewal();
        HeldLease lease = fenceline.tryAcquire(REPORT).orElseThrow()) {
      lease.onLost(recorder::record);
      // Every racer is refused only once all of them are inside a renewal: all detect the loss.
      issuer.renewWith(
          current -> {
            allInside.countDown();
            try {
              allInside.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
            throw new LeaseLostException(current.token(), "Cannot renew lease: expired");
          });
      List<Future<Boolean>> renewals = new ArrayList<>();
      for (int i = 0; i < racers; i++) {
        renewals.add(threads.submit(lease::renewNow));
      }
      for (Future<Boolean> renewal : renewals) {
        assertThat(renewal.get(30, TimeUnit.SECONDS)).isFalse();
      }
      nanos.addAndGet(TTL.toNanos()); // and the deadline passes too
      assertThat(lease.renewNow()).isFalse();

      assertThat(recorder.losses).hasSize(1);
      assertThat(recorder.losses.get(0).reason()).isEqualTo(LeaseLoss.Reason.REFUSED);
    } finally {
      threads.shutdownNow();
    }
  }

  @Test
  void aThrowingListenerDoesNotStopTheOthers() {
    Recorder after = new Recorder();
    try (Fenceline fenceline = manualRenewal();
        HeldLease lease = fenceline.tryAcquire(REPORT).orElseThrow()) {
      lease.onLost(
          loss -> {
            throw new IllegalStateException("listener bug");
          });
      lease.onLost(after::record);
      takeOver();

      assertThat(lease.renewNow()).isFalse();

      assertThat(after.losses).hasSize(1);
    }
  }

  @Test
  void listenersRunWithoutHoldingTheLeaseLock() {
    AtomicReference<Object> seenFromAnotherThread = new AtomicReference<>();
    try (Fenceline fenceline = manualRenewal();
        HeldLease lease = fenceline.tryAcquire(REPORT).orElseThrow()) {
      lease.onLost(
          loss -> {
            // Another thread reads the lease: it would block if this listener held its lock.
            try {
              seenFromAnotherThread.set(
                  CompletableFuture.supplyAsync(lease::state).get(5, TimeUnit.SECONDS));
            } catch (Exception e) {
              seenFromAnotherThread.set(e);
            }
          });
      takeOver();

      assertThat(lease.renewNow()).isFalse();

      assertThat(seenFromAnotherThread.get()).isEqualTo(HeldLease.State.LOST);
    }
  }

  @Test
  void aPassedDeadlineIsALossEvenIfTheIssuerWouldStillRenew() {
    Recorder recorder = new Recorder();
    try (Fenceline fenceline = manualRenewal();
        HeldLease lease = fenceline.tryAcquire(REPORT).orElseThrow()) {
      lease.onLost(recorder::record);
      nanos.addAndGet(TTL.minus(MARGIN).toNanos()); // a stall: no renewal was even attempted

      assertThat(lease.renewNow()).isFalse();

      assertThat(recorder.losses).hasSize(1);
      assertThat(recorder.losses.get(0).reason()).isEqualTo(LeaseLoss.Reason.DEADLINE_PASSED);
      assertThat(lease.state()).isEqualTo(HeldLease.State.LOST);
      assertThat(memory.status(REPORT).held()).isTrue();
    }
    // Closing a lease lost only locally still frees it at the issuer for the next worker.
    assertThat(memory.status(REPORT).held()).isFalse();
  }

  @Test
  void anUnreachableIssuerPastTheDeadlineIsALoss() {
    Recorder recorder = new Recorder();
    try (Fenceline fenceline = manualRenewal();
        HeldLease lease = fenceline.tryAcquire(REPORT).orElseThrow()) {
      lease.onLost(recorder::record);
      issuer.renewWith(
          current -> {
            throw new StoreException("Cannot renew: connection refused", null);
          });

      // Before the deadline a failure is retried, not a loss.
      assertThatThrownBy(lease::renewNow).isInstanceOf(StoreException.class);
      assertThat(lease.state()).isEqualTo(HeldLease.State.HELD);
      assertThat(recorder.losses).isEmpty();

      nanos.addAndGet(TTL.minus(MARGIN).toNanos());

      assertThat(lease.renewNow()).isFalse();
      LeaseLoss loss = recorder.losses.get(0);
      assertThat(loss.reason()).isEqualTo(LeaseLoss.Reason.ISSUER_UNREACHABLE);
      assertThat(loss.detail()).contains("connection refused");
      assertThat(recorder.losses).hasSize(1);
    }
  }

  @Test
  void aRenewalAnsweredAfterTheDeadlineDoesNotReviveTheLease() {
    Recorder recorder = new Recorder();
    try (Fenceline fenceline = manualRenewal();
        HeldLease lease = fenceline.tryAcquire(REPORT).orElseThrow()) {
      lease.onLost(recorder::record);
      issuer.answeringAfter(TTL);

      assertThat(lease.renewNow()).isFalse();

      assertThat(recorder.losses.get(0).reason()).isEqualTo(LeaseLoss.Reason.ISSUER_UNREACHABLE);
      assertThat(lease.isLocallyValid()).isFalse();
    }
  }

  @Test
  void aReleasedLeaseIsNotLost() {
    Recorder recorder = new Recorder();
    try (Fenceline fenceline = manualRenewal()) {
      HeldLease lease = fenceline.tryAcquire(REPORT).orElseThrow();
      lease.onLost(recorder::record);

      lease.close();
      lease.onLost(recorder::record);
      assertThat(lease.renewNow()).isFalse();

      assertThat(lease.loss()).isEmpty();
      assertThat(recorder.losses).isEmpty();
    }
  }

  @Test
  void theDeadlineWatchNoticesALossWhileRenewalIsStuckAtTheIssuer() throws Exception {
    CountDownLatch issuerAnswers = new CountDownLatch(1);
    CountDownLatch renewalStuck = new CountDownLatch(1);
    Recorder recorder = new Recorder();
    issuer.renewWith(
        current -> {
          renewalStuck.countDown();
          try {
            issuerAnswers.await(60, TimeUnit.SECONDS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          return memory.renew(current);
        });
    // Real monotonic time: the watch is a scheduled task on its own thread.
    try (Fenceline fenceline =
            Fenceline.builder()
                .issuer(issuer)
                .holder("worker-a")
                .leaseTtl(Duration.ofMillis(600))
                .safetyMargin(Duration.ofMillis(100))
                .renewEvery(Duration.ofMillis(50))
                .build();
        HeldLease lease = fenceline.tryAcquire(REPORT).orElseThrow()) {
      lease.onLost(recorder::record);
      assertThat(renewalStuck.await(30, TimeUnit.SECONDS)).isTrue();

      assertThat(recorder.called.await(30, TimeUnit.SECONDS)).isTrue();

      LeaseLoss loss = recorder.losses.get(0);
      assertThat(loss.reason()).isEqualTo(LeaseLoss.Reason.ISSUER_UNREACHABLE);
      assertThat(loss.detail()).contains("waiting for the issuer's answer");
      assertThat(recorder.threads).containsExactly("fenceline-lease-deadline");
      assertThat(lease.isLocallyValid()).isFalse();
      issuerAnswers.countDown();
      assertThat(lease.renewNow()).isFalse();
      assertThat(lease.state()).isEqualTo(HeldLease.State.LOST);
      assertThat(recorder.losses).hasSize(1);
    } finally {
      issuerAnswers.countDown();
    }
  }

  @Test
  void theDeadlineWatchNoticesAStallWithoutRenewals() throws Exception {
    Recorder recorder = new Recorder();
    try (Fenceline fenceline =
            Fenceline.builder()
                .issuer(issuer)
                .holder("worker-a")
                .leaseTtl(Duration.ofMillis(300))
                .safetyMargin(Duration.ofMillis(100))
                .renewEvery(Duration.ZERO)
                .build();
        HeldLease lease = fenceline.tryAcquire(REPORT).orElseThrow()) {
      lease.onLost(recorder::record);

      assertThat(recorder.called.await(30, TimeUnit.SECONDS)).isTrue();

      assertThat(recorder.losses.get(0).reason()).isEqualTo(LeaseLoss.Reason.DEADLINE_PASSED);
      assertThat(lease.state()).isEqualTo(HeldLease.State.LOST);
    }
  }

  @Test
  void aLossRecordValidatesItsEpochs() {
    assertThatThrownBy(
            () ->
                new LeaseLoss(
                    REPORT,
                    Epoch.of(3),
                    LeaseLoss.Reason.SUPERSEDED,
                    java.util.Optional.of(Epoch.of(3)),
                    Instant.EPOCH,
                    "x"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("newer epoch 3 is not newer");
    assertThatThrownBy(
            () ->
                new LeaseLoss(
                    REPORT,
                    Epoch.of(3),
                    LeaseLoss.Reason.SUPERSEDED,
                    java.util.Optional.empty(),
                    Instant.EPOCH,
                    "x"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("SUPERSEDED needs the newer epoch");
  }
}
