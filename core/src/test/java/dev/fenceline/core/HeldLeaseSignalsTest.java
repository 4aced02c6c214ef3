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

import dev.fenceline.spi.ResourceId;
import dev.fenceline.tck.memory.InMemoryLeaseIssuer;
import dev.fenceline.tck.memory.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/**
 * An issuer's signals between renewals ({@link dev.fenceline.spi.LeaseIssuer#watch}) shorten or end
 * the local belief of {@link HeldLease} and {@link EfficiencyLease}; only a renewal sent after a
 * bound lifts it. The worker's monotonic clock is a fake the test moves.
 */
class HeldLeaseSignalsTest {

  private static final ResourceId REPORT = ResourceId.of("nightly-report");
  private static final Duration TTL = Duration.ofSeconds(10);
  private static final Duration MARGIN = Duration.ofSeconds(2);
  private static final Duration WAIT = Duration.ofSeconds(10);

  private final MutableClock issuerClock = new MutableClock(Instant.parse("2026-10-27T01:00:00Z"));
  private final InMemoryLeaseIssuer memory =
      new InMemoryLeaseIssuer(new InMemoryLeaseIssuer.Storage(), issuerClock);
  private final AtomicLong nanos = new AtomicLong(1_000_000_000L);
  private final ScriptedLeaseIssuer scripted = new ScriptedLeaseIssuer(memory, nanos);
  private final SignallingLeaseIssuer issuer = new SignallingLeaseIssuer(scripted);

  private Fenceline fenceline(Duration renewEvery) {
    return Fenceline.builder()
        .issuer(issuer)
        .holder("worker-a")
        .leaseTtl(TTL)
        .safetyMargin(MARGIN)
        .renewEvery(renewEvery)
        .clock(nanos::get)
        .build();
  }

  private void advance(Duration elapsed) {
    nanos.addAndGet(elapsed.toNanos());
  }

  /** Waits (bounded) for a condition another thread makes true. */
  private static void await(String what, BooleanSupplier condition) {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime() - deadline).as(what + " within " + WAIT).isNegative();
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
    }
  }

  @Test
  void aBoundFromTheIssuerLowersTheLocalDeadlineAndEndsTheBeliefWhenItPasses() {
    try (Fenceline fenceline = fenceline(Duration.ZERO);
        HeldLease lease = fenceline.tryAcquire(REPORT).orElseThrow()) {
      assertThat(lease.remaining()).isEqualTo(Duration.ofSeconds(8));

      issuer.signals().endsWithin(Duration.ofSeconds(3), "the connection was suspended");

      assertThat(lease.remaining()).isEqualTo(Duration.ofSeconds(3));
      advance(Duration.ofSeconds(3));
      assertThat(lease.isLocallyValid()).isFalse();
      assertThat(lease.renewNow()).isFalse();
      LeaseLoss loss = lease.loss().orElseThrow();
      assertThat(loss.reason()).isEqualTo(LeaseLoss.Reason.ISSUER_UNREACHABLE);
      assertThat(loss.detail())
          .isEqualTo(
              "the local deadline passed 0 ms ago, a deadline the issuer lowered: the connection"
                  + " was suspended");
      assertThat(issuer.openWatches()).isZero();
    }
  }

  @Test
  void aBoundLaterThanTheLocalDeadlineChangesNothing() {
    try (Fenceline fenceline = fenceline(Duration.ZERO);
        HeldLease lease = fenceline.tryAcquire(REPORT).orElseThrow()) {
      issuer.signals().endsWithin(Duration.ofSeconds(20), "far away");

      assertThat(lease.remaining()).isEqualTo(Duration.ofSeconds(8));
      advance(Duration.ofSeconds(8));
      assertThat(lease.renewNow()).isFalse();
      assertThat(lease.loss().orElseThrow().reason()).isEqualTo(LeaseLoss.Reason.DEADLINE_PASSED);
    }
  }

  @Test
  void aRenewalSentAfterTheBoundLiftsIt() {
    try (Fenceline fenceline = fenceline(Duration.ZERO);
        HeldLease lease = fenceline.tryAcquire(REPORT).orElseThrow()) {
      issuer.signals().endsWithin(Duration.ofSeconds(3), "the connection was suspended");
      advance(Duration.ofSeconds(1));

      assertThat(lease.renewNow()).isTrue();

      assertThat(lease.remaining()).isEqualTo(Duration.ofSeconds(8));
      advance(Duration.ofSeconds(5));
      assertThat(lease.isLocallyValid()).isTrue();
    }
  }

  /** A suspension while a renewal is under way: its answer proves no contact after it was sent. */
  @Test
  void aRenewalSentBeforeTheBoundKeepsIt() {
    try (Fenceline fenceline = fenceline(Duration.ZERO);
        HeldLease lease = fenceline.tryAcquire(REPORT).orElseThrow()) {
      scripted.renewWith(
          current -> {
            advance(Duration.ofSeconds(1));
            issuer.signals().endsWithin(Duration.ofSeconds(3), "suspended during the renewal");
            return memory.renew(current);
          });

      assertThat(lease.renewNow()).isTrue();

      assertThat(lease.remaining()).isEqualTo(Duration.ofSeconds(3));
      advance(Duration.ofSeconds(1));
      scripted.renewWith(memory::renew);
      assertThat(lease.renewNow()).isTrue();
      assertThat(lease.remaining()).isEqualTo(Duration.ofSeconds(8));
    }
  }

  @Test
  void anEndAtTheIssuerEndsTheBeliefAtOnceAndRunsTheListenersOnTheDeadlineWatch() {
    try (Fenceline fenceline = fenceline(Duration.ZERO);
        HeldLease lease = fenceline.tryAcquire(REPORT).orElseThrow()) {
      CompletableFuture<String> listenerThread = new CompletableFuture<>();
      CompletableFuture<LeaseLoss> lost = new CompletableFuture<>();
      lease.onLost(
          loss -> {
            listenerThread.complete(Thread.currentThread().getName());
            lost.complete(loss);
          });

      issuer.signals().ended("the session expired");

      assertThat(lease.isLocallyValid()).isFalse();
      assertThat(lease.remaining()).isZero();
      LeaseLoss loss = lost.orTimeout(WAIT.toMillis(), TimeUnit.MILLISECONDS).join();
      assertThat(loss.reason()).isEqualTo(LeaseLoss.Reason.ENDED_AT_ISSUER);
      assertThat(loss.detail()).isEqualTo("the session expired");
      assertThat(listenerThread.join()).isEqualTo("fenceline-lease-deadline");
      assertThat(lease.state()).isEqualTo(HeldLease.State.LOST);
      assertThat(lease.renewNow()).isFalse();
      assertThat(issuer.openWatches()).isZero();
    }
  }

  @Test
  void aBoundThatPassesRunsTheListenersWithoutARenewalOrACall() {
    try (Fenceline fenceline = fenceline(Duration.ZERO);
        HeldLease lease = fenceline.tryAcquire(REPORT).orElseThrow()) {
      CompletableFuture<LeaseLoss> lost = new CompletableFuture<>();
      lease.onLost(lost::complete);

      advance(Duration.ofMillis(20));
      issuer.signals().endsWithin(Duration.ofMillis(20), "the connection was suspended");
      advance(Duration.ofMillis(20));

      // The deadline watch checks the bound when it is due and finds it passed.
      LeaseLoss loss = lost.orTimeout(WAIT.toMillis(), TimeUnit.MILLISECONDS).join();
      assertThat(loss.reason()).isEqualTo(LeaseLoss.Reason.ISSUER_UNREACHABLE);
      assertThat(loss.detail()).endsWith("the connection was suspended");
    }
  }

  @Test
  void contactThatComesBackRestoresNothingButAsksForABackgroundRenewal() {
    // Background renewal is on but its period is far away: only the issuer's request renews.
    try (Fenceline fenceline = fenceline(Duration.ofSeconds(7));
        HeldLease lease = fenceline.tryAcquire(REPORT).orElseThrow()) {
      issuer.signals().endsWithin(Duration.ofSeconds(3), "the connection was suspended");
      advance(Duration.ofMillis(1));
      assertThat(lease.remaining()).isEqualTo(Duration.ofSeconds(3).minusMillis(1));

      issuer.signals().renewSoon("reconnected in the same session");

      await("the requested renewal", () -> lease.remaining().compareTo(Duration.ofSeconds(8)) == 0);
      assertThat(lease.state()).isEqualTo(HeldLease.State.HELD);
    }
  }

  @Test
  void signalsAfterCloseAreIgnoredAndCloseStopsTheWatch() {
    try (Fenceline fenceline = fenceline(Duration.ZERO)) {
      HeldLease lease = fenceline.tryAcquire(REPORT).orElseThrow();
      assertThat(issuer.openWatches()).isEqualTo(1);

      lease.close();

      assertThat(issuer.openWatches()).isZero();
      issuer.signals().ended("too late");
      assertThat(lease.state()).isEqualTo(HeldLease.State.RELEASED);
      assertThat(lease.loss()).isEmpty();
      assertThat(memory.status(REPORT).held()).isFalse();
    }
  }

  @Test
  void anEfficiencyLeaseFollowsTheIssuersSignalsToo() {
    try (Fenceline fenceline = fenceline(Duration.ZERO);
        EfficiencyLease lease = fenceline.tryAcquireForEfficiency(REPORT).orElseThrow()) {
      CompletableFuture<LeaseLoss> lost = new CompletableFuture<>();
      lease.onLost(lost::complete);

      issuer.signals().endsWithin(Duration.ofSeconds(1), "the connection was suspended");
      assertThat(lease.remaining()).isEqualTo(Duration.ofSeconds(1));
      issuer.signals().ended("the session expired");

      assertThat(lease.isLocallyValid()).isFalse();
      assertThat(lost.orTimeout(WAIT.toMillis(), TimeUnit.MILLISECONDS).join().reason())
          .isEqualTo(LeaseLoss.Reason.ENDED_AT_ISSUER);
      assertThat(lease.state()).isEqualTo(HeldLease.State.LOST);
    }
  }
}
