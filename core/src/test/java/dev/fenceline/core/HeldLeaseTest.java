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

import dev.fenceline.spi.Applied;
import dev.fenceline.spi.ConfigurationException;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.Lease;
import dev.fenceline.spi.LeaseIssuer;
import dev.fenceline.spi.LeaseLostException;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Pointer;
import dev.fenceline.spi.RejectedStale;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StepListener;
import dev.fenceline.tck.memory.InMemoryLeaseIssuer;
import dev.fenceline.tck.memory.InMemoryPointerStore;
import dev.fenceline.tck.memory.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class HeldLeaseTest {

  private static final ResourceId REPORT = ResourceId.of("nightly-report");
  private static final Duration TTL = Duration.ofSeconds(10);

  private final MutableClock issuerClock = new MutableClock(Instant.parse("2026-10-27T01:00:00Z"));
  private final InMemoryLeaseIssuer issuer =
      new InMemoryLeaseIssuer(new InMemoryLeaseIssuer.Storage(), issuerClock);
  private final AtomicLong nanos = new AtomicLong(1_000_000_000L);

  private static final Duration MARGIN = Duration.ofSeconds(2);

  /** An issuer whose calls take {@code delay} of the worker's monotonic time. */
  private LeaseIssuer slowIssuer(Duration delay) {
    return new ScriptedLeaseIssuer(issuer, nanos).answeringAfter(delay);
  }

  private Fenceline fenceline(LeaseIssuer leaseIssuer) {
    return Fenceline.builder()
        .issuer(leaseIssuer)
        .holder("worker-a")
        .leaseTtl(TTL)
        .safetyMargin(MARGIN)
        .renewEvery(Duration.ZERO)
        .clock(nanos::get)
        .build();
  }

  @Test
  void theLocalDeadlineCountsFromWhenTheRequestWasSent() {
    try (Fenceline fenceline = fenceline(slowIssuer(Duration.ofSeconds(3)));
        HeldLease lease = fenceline.tryAcquire(REPORT).orElseThrow()) {
      // The answer took 3 s: the issuer's lease may have started any time in those 3 s.
      assertThat(lease.remaining()).isEqualTo(TTL.minus(MARGIN).minusSeconds(3));
      assertThat(lease.isLocallyValid()).isTrue();

      nanos.addAndGet(Duration.ofSeconds(5).toNanos());

      assertThat(lease.isLocallyValid()).isFalse();
      assertThat(lease.remaining()).isZero();
    }
  }

  @Test
  void theLocalDeadlineEndsTheSafetyMarginBeforeTheIssuersExpiry() {
    try (Fenceline fenceline = fenceline(issuer);
        HeldLease lease = fenceline.tryAcquire(REPORT).orElseThrow()) {
      assertThat(lease.remaining()).isEqualTo(Duration.ofSeconds(8));

      Duration elapsed = TTL.minus(MARGIN);
      nanos.addAndGet(elapsed.toNanos());
      issuerClock.advance(elapsed);

      // The issuer still counts the lease as held for the margin; the worker already stopped.
      assertThat(issuer.status(REPORT).held()).isTrue();
      assertThat(lease.isLocallyValid()).isFalse();
      assertThat(lease.remaining()).isZero();
      assertThat(lease.renewNow()).isFalse();
      assertThat(lease.loss().orElseThrow().reason()).isEqualTo(LeaseLoss.Reason.DEADLINE_PASSED);
    }
  }

  @Test
  void theSafetyMarginDefaultsToATenthOfTheTtl() {
    try (Fenceline fenceline =
            Fenceline.builder()
                .issuer(issuer)
                .holder("worker-a")
                .leaseTtl(TTL)
                .renewEvery(Duration.ZERO)
                .clock(nanos::get)
                .build();
        HeldLease lease = fenceline.tryAcquire(REPORT).orElseThrow()) {
      assertThat(lease.remaining()).isEqualTo(Duration.ofSeconds(9));
    }
  }

  @Test
  void aSafetyMarginThatLeavesNoValidityIsRefused() {
    assertThatThrownBy(
            () ->
                Fenceline.builder()
                    .issuer(issuer)
                    .holder("worker-a")
                    .leaseTtl(TTL)
                    .safetyMargin(TTL)
                    .build())
        .isInstanceOf(ConfigurationException.class)
        .hasMessage(
            "Cannot build Fenceline: safety margin PT10S is not shorter than lease ttl PT10S (no"
                + " lease would ever be locally valid; use a tenth of the ttl, e.g. PT1S)");
    assertThatThrownBy(() -> Fenceline.builder().safetyMargin(Duration.ofMillis(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Cannot use safety margin PT-0.001S: it is negative");
    assertThatThrownBy(
            () ->
                Fenceline.builder()
                    .issuer(issuer)
                    .holder("worker-a")
                    .leaseTtl(TTL)
                    .safetyMargin(Duration.ofSeconds(4))
                    .renewEvery(Duration.ofSeconds(6))
                    .build())
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining(
            "renewEvery PT6S is not shorter than lease ttl PT10S minus safety margin PT4S");
  }

  @Test
  void renewalMovesTheLocalDeadline() {
    try (Fenceline fenceline = fenceline(slowIssuer(Duration.ofSeconds(1)));
        HeldLease lease = fenceline.tryAcquire(REPORT).orElseThrow()) {
      nanos.addAndGet(Duration.ofSeconds(5).toNanos());
      assertThat(lease.remaining()).isEqualTo(Duration.ofSeconds(2));

      assertThat(lease.renewNow()).isTrue();

      // Sent 1 s before the answer: ttl - margin - 1 s.
      assertThat(lease.remaining()).isEqualTo(Duration.ofSeconds(7));
    }
  }

  @Test
  void aRefusedRenewalMarksTheLeaseLost() {
    try (Fenceline fenceline = fenceline(issuer);
        HeldLease lease = fenceline.tryAcquire(REPORT).orElseThrow()) {
      issuerClock.advance(TTL.plusMillis(1));
      issuer.tryAcquire(REPORT, "worker-b", TTL).orElseThrow();

      assertThat(lease.renewNow()).isFalse();

      assertThat(lease.state()).isEqualTo(HeldLease.State.LOST);
      assertThat(lease.loss().orElseThrow().reason()).isEqualTo(LeaseLoss.Reason.SUPERSEDED);
      assertThat(lease.isLocallyValid()).isFalse();
      assertThat(lease.renewNow()).isFalse();
    }
  }

  @Test
  void closingReleasesTheLeaseAtTheIssuer() {
    try (Fenceline fenceline = fenceline(issuer)) {
      HeldLease lease = fenceline.tryAcquire(REPORT).orElseThrow();
      assertThat(fenceline.tryAcquire(REPORT)).isEmpty();

      lease.close();
      lease.close();

      assertThat(lease.state()).isEqualTo(HeldLease.State.RELEASED);
      assertThat(issuer.status(REPORT).held()).isFalse();
      assertThat(fenceline.tryAcquire(REPORT).orElseThrow().token().epoch().value()).isEqualTo(2);
    }
  }

  /**
   * A lease known to be lost is refused before the destination sees it; a writer that stalled past
   * that local check (played here by the token overload) is judged by the destination's epoch.
   */
  @Test
  void aLocallyExpiredLeaseIsRefusedAndTheDestinationDecidesForItsToken() {
    InMemoryPointerStore destination =
        new InMemoryPointerStore(
            new InMemoryPointerStore.Storage(), "reports", StepListener.NONE, issuerClock);
    try (Fenceline fenceline = fenceline(issuer);
        HeldLease lease = fenceline.tryAcquire(REPORT).orElseThrow()) {
      nanos.addAndGet(TTL.toNanos() * 2);
      assertThat(lease.isLocallyValid()).isFalse();

      assertThatThrownBy(
              () ->
                  fenceline.publish(
                      lease, destination, OperationId.of("report-0"), Pointer.to("A0")))
          .isInstanceOf(LeaseLostException.class)
          .hasMessageContaining("the lease was lost: DEADLINE_PASSED");
      assertThat(destination.lookup(REPORT, OperationId.of("report-0"))).isEmpty();

      // Locally expired, but no newer owner registered: the destination accepts the write.
      FencingToken stalled = lease.token();
      assertThat(
              fenceline.publish(stalled, destination, OperationId.of("report-1"), Pointer.to("A")))
          .isInstanceOf(Applied.class);

      issuerClock.advance(TTL.plusMillis(1));
      Lease b = issuer.tryAcquire(REPORT, "worker-b", TTL).orElseThrow();
      destination.register(b.token());
      assertThat(
              fenceline.publish(stalled, destination, OperationId.of("report-2"), Pointer.to("A2")))
          .isInstanceOf(RejectedStale.class);
    }
  }

  @Test
  void leasesAreRenewedInTheBackground() throws InterruptedException {
    CountDownLatch renewed = new CountDownLatch(2);
    LeaseIssuer counting =
        new ForwardingLeaseIssuer(issuer) {
          @Override
          public Lease renew(Lease lease) {
            Lease result = issuer.renew(lease);
            renewed.countDown();
            return result;
          }
        };
    try (Fenceline fenceline =
            Fenceline.builder()
                .issuer(counting)
                .holder("worker-a")
                .leaseTtl(TTL)
                .renewEvery(Duration.ofMillis(10))
                .build();
        HeldLease lease = fenceline.tryAcquire(REPORT).orElseThrow()) {
      assertThat(renewed.await(30, TimeUnit.SECONDS)).isTrue();
      assertThat(lease.state()).isEqualTo(HeldLease.State.HELD);
    }
  }
}
