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
import dev.fenceline.spi.Capability;
import dev.fenceline.spi.Destination;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.LeaseLostException;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Pointer;
import dev.fenceline.spi.Receipt;
import dev.fenceline.spi.RegisterOutcome;
import dev.fenceline.spi.Registered;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StepListener;
import dev.fenceline.spi.WriteOutcome;
import dev.fenceline.tck.memory.InMemoryLeaseIssuer;
import dev.fenceline.tck.memory.InMemoryPointerStore;
import dev.fenceline.tck.memory.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * {@link Fenceline#publish} and {@link Fenceline#register} refuse a lease that was closed or is
 * known to be lost before any request reaches the destination; the token overload is left to the
 * destination's epoch check.
 */
class PublishRefusesUnusableLeasesTest {

  private static final ResourceId REPORT = ResourceId.of("nightly-report");
  private static final Duration TTL = Duration.ofSeconds(10);

  private final MutableClock issuerClock = new MutableClock(Instant.parse("2026-10-27T01:00:00Z"));
  private final InMemoryLeaseIssuer issuer =
      new InMemoryLeaseIssuer(new InMemoryLeaseIssuer.Storage(), issuerClock);
  private final AtomicLong nanos = new AtomicLong(1_000_000_000L);
  private final CountingDestination site =
      new CountingDestination(
          new InMemoryPointerStore(
              new InMemoryPointerStore.Storage(), "site", StepListener.NONE, issuerClock));

  /** A destination that counts every request it receives and passes it on. */
  private static final class CountingDestination implements Destination<Pointer> {
    private final Destination<Pointer> delegate;
    final AtomicInteger requests = new AtomicInteger();

    CountingDestination(Destination<Pointer> delegate) {
      this.delegate = delegate;
    }

    @Override
    public String name() {
      return delegate.name();
    }

    @Override
    public Set<Capability> capabilities() {
      return delegate.capabilities();
    }

    @Override
    public RegisterOutcome register(FencingToken token) {
      requests.incrementAndGet();
      return delegate.register(token);
    }

    @Override
    public WriteOutcome write(FencingToken token, OperationId operation, Pointer change) {
      requests.incrementAndGet();
      return delegate.write(token, operation, change);
    }

    @Override
    public Optional<Receipt> lookup(ResourceId resource, OperationId operation) {
      return delegate.lookup(resource, operation);
    }

    @Override
    public Epoch currentEpoch(ResourceId resource) {
      return delegate.currentEpoch(resource);
    }
  }

  private Fenceline fenceline(String holder) {
    return Fenceline.builder()
        .issuer(issuer)
        .holder(holder)
        .leaseTtl(TTL)
        .safetyMargin(Duration.ofSeconds(2))
        .renewEvery(Duration.ZERO)
        .clock(nanos::get)
        .build();
  }

  @Test
  void aHeldLeasePublishesAndRegisters() {
    try (Fenceline fenceline = fenceline("worker-a");
        HeldLease lease = fenceline.tryAcquire(REPORT).orElseThrow()) {
      assertThat(fenceline.register(lease, site)).isInstanceOf(Registered.class);
      assertThat(fenceline.publish(lease, site, OperationId.of("op-1"), Pointer.to("r1")))
          .isInstanceOf(Applied.class);
      assertThat(site.requests).hasValue(2);
    }
  }

  @Test
  void aClosedLeaseCannotPublishOrRegisterAndNothingReachesTheDestination() {
    try (Fenceline fenceline = fenceline("worker-a")) {
      HeldLease lease = fenceline.tryAcquire(REPORT).orElseThrow();
      assertThat(fenceline.register(lease, site)).isInstanceOf(Registered.class);
      lease.close();
      // Nobody acquired since: the destination would still see epoch 1 as current.
      assertThat(site.currentEpoch(REPORT)).isEqualTo(Epoch.of(1));

      assertThatThrownBy(
              () -> fenceline.publish(lease, site, OperationId.of("op-1"), Pointer.to("r1")))
          .isInstanceOf(LeaseLostException.class)
          .hasMessage(
              "Cannot publish nightly-report at epoch 1 to site: the lease was closed by this"
                  + " worker (nothing was sent to the destination; acquire the lease again for a"
                  + " new epoch)")
          .satisfies(e -> assertThat(((LeaseLostException) e).token()).isEqualTo(lease.token()));
      assertThatThrownBy(() -> fenceline.register(lease, site))
          .isInstanceOf(LeaseLostException.class)
          .hasMessage(
              "Cannot register nightly-report at epoch 1 at site: the lease was closed by this"
                  + " worker (nothing was sent to the destination; acquire the lease again for a"
                  + " new epoch)");
      assertThat(site.requests).hasValue(1);
      assertThat(site.lookup(REPORT, OperationId.of("op-1"))).isEmpty();
    }
  }

  @Test
  void aSupersededLeaseCannotPublish() {
    try (Fenceline a = fenceline("worker-a");
        Fenceline b = fenceline("worker-b");
        HeldLease leaseA = a.tryAcquire(REPORT).orElseThrow()) {
      issuerClock.advance(TTL);
      HeldLease leaseB = b.tryAcquire(REPORT).orElseThrow();
      nanos.addAndGet(Duration.ofSeconds(1).toNanos()); // A's local deadline has not passed
      assertThat(leaseA.isLocallyValid()).isTrue();
      assertThat(leaseA.renewNow()).isFalse(); // refused: A learns of epoch 2

      assertThatThrownBy(() -> a.publish(leaseA, site, OperationId.of("op-a"), Pointer.to("stale")))
          .isInstanceOf(LeaseLostException.class)
          .hasMessageStartingWith(
              "Cannot publish nightly-report at epoch 1 to site: the lease was lost: SUPERSEDED by"
                  + " epoch 2 (");
      assertThat(site.requests).hasValue(0);
      leaseB.close();
    }
  }

  @Test
  void aLeaseWhoseLocalDeadlinePassedCannotPublishEvenBeforeTheWatchNoticed() {
    try (Fenceline fenceline = fenceline("worker-a");
        HeldLease lease = fenceline.tryAcquire(REPORT).orElseThrow()) {
      nanos.addAndGet(Duration.ofSeconds(8).toNanos());
      assertThat(lease.state()).isEqualTo(HeldLease.State.HELD); // not noticed yet

      assertThatThrownBy(
              () -> fenceline.publish(lease, site, OperationId.of("op-1"), Pointer.to("r1")))
          .isInstanceOf(LeaseLostException.class)
          .hasMessage(
              "Cannot publish nightly-report at epoch 1 to site: the lease was lost:"
                  + " DEADLINE_PASSED (the local deadline passed 0 ms ago without a renewal)"
                  + " (nothing was sent to the destination; acquire the lease again for a new"
                  + " epoch)");
      assertThat(lease.state()).isEqualTo(HeldLease.State.LOST);
      assertThat(site.requests).hasValue(0);
    }
  }

  @Test
  void aLeaseClosedAfterItWasLostNamesBoth() {
    try (Fenceline fenceline = fenceline("worker-a")) {
      HeldLease lease = fenceline.tryAcquire(REPORT).orElseThrow();
      nanos.addAndGet(Duration.ofSeconds(8).toNanos());
      assertThat(lease.renewNow()).isFalse();
      lease.close();

      assertThatThrownBy(() -> fenceline.register(lease, site))
          .isInstanceOf(LeaseLostException.class)
          .hasMessageContaining(
              "Cannot register nightly-report at epoch 1 at site: the lease was closed by this"
                  + " worker after it was lost: DEADLINE_PASSED");
      assertThat(site.requests).hasValue(0);
    }
  }

  /** A token from elsewhere (a parent process): this process knows nothing of its lease. */
  @Test
  void theTokenOverloadLeavesTheDecisionToTheDestination() {
    try (Fenceline fenceline = fenceline("worker-a")) {
      HeldLease lease = fenceline.tryAcquire(REPORT).orElseThrow();
      FencingToken token = lease.token();
      lease.close();

      assertThat(fenceline.publish(token, site, OperationId.of("op-1"), Pointer.to("r1")))
          .isInstanceOf(Applied.class);
      assertThat(site.requests).hasValue(1);
    }
  }
}
