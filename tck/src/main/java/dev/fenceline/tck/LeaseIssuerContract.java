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

import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.Lease;
import dev.fenceline.spi.LeaseIssuer;
import dev.fenceline.spi.LeaseLostException;
import dev.fenceline.spi.LeaseStatus;
import dev.fenceline.spi.ResourceId;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/**
 * The conformance suite every {@link LeaseIssuer} passes (R1, R8, R11 d). Subclass it in the
 * adapter's tests and implement {@link #issuer()} and {@link #restartStore()}.
 */
public abstract class LeaseIssuerContract extends ContractSupport {

  @Test
  void firstAcquireGetsEpochOneAndTheLeaseIsHeld() {
    ResourceId resource = freshResource("first");
    Lease lease = issuer().tryAcquire(resource, "worker-a", longTtl()).orElseThrow();

    assertThat(lease.epoch()).isEqualTo(Epoch.of(1));
    assertThat(lease.token().holder()).isEqualTo("worker-a");
    assertThat(lease.ttl()).isEqualTo(longTtl());
    LeaseStatus status = issuer().status(resource);
    assertThat(status.held()).isTrue();
    assertThat(status.epoch()).isEqualTo(Epoch.of(1));
    assertThat(status.holder()).contains("worker-a");
    assertThat(status.expiresAt()).contains(lease.expiresAt());
  }

  @Test
  void statusOfAnUnknownResourceIsEpochNone() {
    LeaseStatus status = issuer().status(freshResource("unknown"));
    assertThat(status.epoch()).isEqualTo(Epoch.NONE);
    assertThat(status.held()).isFalse();
    assertThat(status.holder()).isEmpty();
  }

  @Test
  void acquireWhileHeldIsRefusedAlsoForTheSameHolder() {
    ResourceId resource = freshResource("held");
    issuer().tryAcquire(resource, "worker-a", longTtl()).orElseThrow();

    assertThat(issuer().tryAcquire(resource, "worker-b", longTtl())).isEmpty();
    assertThat(issuer().tryAcquire(resource, "worker-a", longTtl())).isEmpty();
    assertThat(issuer().status(resource).epoch()).isEqualTo(Epoch.of(1));
  }

  @Test
  void acquireAfterExpiryByTheIssuersClockGetsTheNextEpoch() {
    ResourceId resource = freshResource("expiry");
    Lease a = issuer().tryAcquire(resource, "worker-a", shortTtl()).orElseThrow();
    awaitExpiry(a);
    LeaseStatus expired = issuer().status(resource);
    assertThat(expired.held()).isFalse();
    assertThat(expired.epoch()).isEqualTo(a.epoch());

    Lease b = issuer().tryAcquire(resource, "worker-b", longTtl()).orElseThrow();

    assertThat(b.epoch()).isEqualTo(a.epoch().next());
  }

  @Test
  void renewByTheCurrentHolderKeepsTheTokenAndExtendsTheExpiry() {
    ResourceId resource = freshResource("renew");
    Lease lease = issuer().tryAcquire(resource, "worker-a", longTtl()).orElseThrow();

    Lease renewed = issuer().renew(lease);

    assertThat(renewed.token()).isEqualTo(lease.token());
    assertThat(renewed.expiresAt()).isAfterOrEqualTo(lease.expiresAt());
    assertThat(issuer().status(resource).held()).isTrue();
  }

  @Test
  void renewAfterExpiryThrowsLeaseLost() {
    ResourceId resource = freshResource("renew-expired");
    Lease lease = issuer().tryAcquire(resource, "worker-a", shortTtl()).orElseThrow();
    awaitExpiry(lease);

    assertThatThrownBy(() -> issuer().renew(lease))
        .isInstanceOf(LeaseLostException.class)
        .hasMessageContaining(resource.value())
        .hasMessageContaining("it expired at");
  }

  @Test
  void renewAfterTakeoverThrowsLeaseLostNamingTheNewEpoch() {
    ResourceId resource = freshResource("renew-taken");
    Lease a = issuer().tryAcquire(resource, "worker-a", shortTtl()).orElseThrow();
    awaitExpiry(a);
    Lease b = issuer().tryAcquire(resource, "worker-b", longTtl()).orElseThrow();

    assertThatThrownBy(() -> issuer().renew(a))
        .isInstanceOf(LeaseLostException.class)
        .hasMessageContaining("epoch " + b.epoch() + " was issued since (to worker-b)");
    assertThat(issuer().status(resource).holder()).contains("worker-b");
  }

  @Test
  void renewByAnotherHolderWithTheCurrentEpochIsRefusedAndChangesNothing() {
    ResourceId resource = freshResource("renew-other-holder");
    Lease held = issuer().tryAcquire(resource, "worker-a", longTtl()).orElseThrow();
    LeaseStatus before = issuer().status(resource);
    Lease impostor =
        new Lease(
            new FencingToken(issuer().id(), resource, held.epoch(), "worker-b"),
            held.expiresAt(),
            held.ttl().multipliedBy(2));

    assertThatThrownBy(() -> issuer().renew(impostor))
        .isInstanceOf(LeaseLostException.class)
        .hasMessageContaining("held by worker-a");
    LeaseStatus after = issuer().status(resource);
    assertThat(after.holder()).contains("worker-a");
    assertThat(after.expiresAt()).isEqualTo(before.expiresAt());
    assertThat(issuer().renew(held).token()).isEqualTo(held.token());
  }

  @Test
  void renewOfALeaseWithAnEpochTheIssuerNeverHandedOutIsRefusedAndChangesNothing() {
    ResourceId resource = freshResource("renew-made-up-epoch");
    Lease held = issuer().tryAcquire(resource, "worker-a", longTtl()).orElseThrow();
    LeaseStatus before = issuer().status(resource);
    Lease madeUp =
        new Lease(
            new FencingToken(issuer().id(), resource, held.epoch().next(), "worker-a"),
            held.expiresAt(),
            held.ttl().multipliedBy(2));
    Lease unknownResource =
        new Lease(
            new FencingToken(issuer().id(), freshResource("never-leased"), Epoch.of(1), "worker-a"),
            held.expiresAt(),
            held.ttl());

    assertThatThrownBy(() -> issuer().renew(madeUp))
        .isInstanceOf(LeaseLostException.class)
        .hasMessageContaining("never handed out epoch " + held.epoch().next());
    assertThatThrownBy(() -> issuer().renew(unknownResource))
        .isInstanceOf(LeaseLostException.class)
        .hasMessageContaining("never handed out epoch 1");
    LeaseStatus after = issuer().status(resource);
    assertThat(after.epoch()).isEqualTo(held.epoch());
    assertThat(after.expiresAt()).isEqualTo(before.expiresAt());
  }

  @Test
  void anotherIssuersLeaseWithTheSameResourceEpochAndHolderNeitherRenewsNorReleases() {
    ResourceId resource = freshResource("foreign-lease");
    Lease held = issuer().tryAcquire(resource, "worker-a", longTtl()).orElseThrow();
    LeaseStatus before = issuer().status(resource);
    Lease foreign =
        new Lease(
            new FencingToken("other-issuer", resource, held.epoch(), "worker-a"),
            held.expiresAt(),
            held.ttl().multipliedBy(2));

    assertThatThrownBy(() -> issuer().renew(foreign))
        .isInstanceOf(LeaseLostException.class)
        .hasMessageContaining("issued by other-issuer");
    assertThat(issuer().release(foreign)).isFalse();
    LeaseStatus after = issuer().status(resource);
    assertThat(after.held()).isTrue();
    assertThat(after.holder()).contains("worker-a");
    assertThat(after.expiresAt()).isEqualTo(before.expiresAt());
  }

  @Test
  void releaseByAnotherHolderWithTheCurrentEpochOrOfAnUnknownResourceDoesNothing() {
    ResourceId resource = freshResource("release-other-holder");
    Lease held = issuer().tryAcquire(resource, "worker-a", longTtl()).orElseThrow();
    Lease impostor =
        new Lease(
            new FencingToken(issuer().id(), resource, held.epoch(), "worker-b"),
            held.expiresAt(),
            held.ttl());
    Lease unknownResource =
        new Lease(
            new FencingToken(issuer().id(), freshResource("never-leased"), Epoch.of(1), "worker-a"),
            held.expiresAt(),
            held.ttl());

    assertThat(issuer().release(impostor)).isFalse();
    assertThat(issuer().release(unknownResource)).isFalse();
    LeaseStatus status = issuer().status(resource);
    assertThat(status.held()).isTrue();
    assertThat(status.holder()).contains("worker-a");
    assertThat(issuer().tryAcquire(resource, "worker-b", longTtl())).isEmpty();
  }

  @Test
  void renewAfterReleaseThrowsLeaseLost() {
    ResourceId resource = freshResource("renew-released");
    Lease lease = issuer().tryAcquire(resource, "worker-a", longTtl()).orElseThrow();
    assertThat(issuer().release(lease)).isTrue();

    assertThatThrownBy(() -> issuer().renew(lease))
        .isInstanceOf(LeaseLostException.class)
        .hasMessageContaining("it was released");
  }

  @Test
  void renewWithALongerTtlCountsItFromNowByTheIssuersClock() {
    ResourceId resource = freshResource("renew-longer");
    Lease lease = issuer().tryAcquire(resource, "worker-a", longTtl()).orElseThrow();
    Duration longer = longTtl().multipliedBy(3);

    Lease renewed = issuer().renew(lease, longer);

    assertThat(renewed.token()).isEqualTo(lease.token());
    assertThat(renewed.ttl()).isEqualTo(longer);
    // Granted at t0 until t0 + ttl, renewed at t1 >= t0 until t1 + 3 ttl: at least 2 ttl later.
    assertThat(renewed.expiresAt())
        .isAfterOrEqualTo(lease.expiresAt().plus(longTtl().multipliedBy(2)));
    LeaseStatus status = issuer().status(resource);
    assertThat(status.held()).isTrue();
    assertThat(status.expiresAt()).contains(renewed.expiresAt());
    // The one-argument renew keeps the new ttl.
    assertThat(issuer().renew(renewed).ttl()).isEqualTo(longer);
  }

  @Test
  void renewWithAShorterTtlFreesTheLeaseWhenItPasses() {
    ResourceId resource = freshResource("renew-shorter");
    Lease lease = issuer().tryAcquire(resource, "worker-a", longTtl()).orElseThrow();

    Lease shortened = issuer().renew(lease, shortTtl());

    assertThat(shortened.token()).isEqualTo(lease.token());
    assertThat(shortened.ttl()).isEqualTo(shortTtl());
    assertThat(shortened.expiresAt()).isBefore(lease.expiresAt());
    assertThat(issuer().status(resource).expiresAt()).contains(shortened.expiresAt());
    awaitExpiry(shortened);
    assertThat(issuer().status(resource).held()).isFalse();
    Lease next = issuer().tryAcquire(resource, "worker-b", longTtl()).orElseThrow();
    assertThat(next.epoch()).isEqualTo(lease.epoch().next());
    assertThatThrownBy(() -> issuer().renew(shortened, longTtl()))
        .isInstanceOf(LeaseLostException.class)
        .hasMessageContaining("epoch " + next.epoch() + " was issued since (to worker-b)");
  }

  @Test
  void leasesOfFiftyMillisecondsAndOfOneMillisecondExpireByTheIssuersClock() {
    for (Duration ttl : List.of(Duration.ofMillis(50), Duration.ofMillis(1))) {
      ResourceId acquired = freshResource("acquired-" + ttl.toMillis() + "ms");
      Lease lease = issuer().tryAcquire(acquired, "worker-a", ttl).orElseThrow();
      assertThat(lease.ttl()).isEqualTo(ttl);
      assertThat(issuer().status(acquired).expiresAt()).contains(lease.expiresAt());
      awaitExpiry(lease);
      assertThat(issuer().tryAcquire(acquired, "worker-b", longTtl()).orElseThrow().epoch())
          .isEqualTo(lease.epoch().next());

      ResourceId renewed = freshResource("renewed-" + ttl.toMillis() + "ms");
      Lease held = issuer().tryAcquire(renewed, "worker-a", longTtl()).orElseThrow();
      Lease shortened = issuer().renew(held, ttl);
      assertThat(shortened.ttl()).isEqualTo(ttl);
      awaitExpiry(shortened);
      assertThat(issuer().tryAcquire(renewed, "worker-b", longTtl()).orElseThrow().epoch())
          .isEqualTo(held.epoch().next());
    }
  }

  @Test
  void renewWithAnInvalidTtlIsRefusedNamingItAndChangesNothing() {
    ResourceId resource = freshResource("renew-invalid-ttl");
    Lease lease = issuer().tryAcquire(resource, "worker-a", longTtl()).orElseThrow();
    LeaseStatus before = issuer().status(resource);

    assertThatThrownBy(() -> issuer().renew(lease, Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Cannot renew lease " + lease.token())
        .hasMessageContaining("PT0S");
    assertThatThrownBy(() -> issuer().renew(lease, Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("PT-1S");
    assertThatThrownBy(() -> issuer().renew(lease, null))
        .isInstanceOf(NullPointerException.class)
        .hasMessageContaining("ttl is null");
    assertThatThrownBy(() -> issuer().renew(null, longTtl()))
        .isInstanceOf(NullPointerException.class)
        .hasMessageContaining("lease is null");

    LeaseStatus after = issuer().status(resource);
    assertThat(after).isEqualTo(before);
    assertThat(issuer().renew(lease).ttl()).isEqualTo(longTtl());
  }

  @Test
  void renewWithATtlAfterExpiryReleaseOrTakeoverThrowsLeaseLostAndChangesNothing() {
    ResourceId expiredResource = freshResource("renew-ttl-expired");
    Lease expired = issuer().tryAcquire(expiredResource, "worker-a", shortTtl()).orElseThrow();
    awaitExpiry(expired);
    ResourceId releasedResource = freshResource("renew-ttl-released");
    Lease released = issuer().tryAcquire(releasedResource, "worker-a", longTtl()).orElseThrow();
    assertThat(issuer().release(released)).isTrue();
    ResourceId takenResource = freshResource("renew-ttl-taken");
    Lease stale = issuer().tryAcquire(takenResource, "worker-a", shortTtl()).orElseThrow();
    awaitExpiry(stale);
    Lease newer = issuer().tryAcquire(takenResource, "worker-b", longTtl()).orElseThrow();
    LeaseStatus takenBefore = issuer().status(takenResource);

    assertThatThrownBy(() -> issuer().renew(expired, longTtl()))
        .isInstanceOf(LeaseLostException.class)
        .hasMessageContaining("it expired at");
    assertThatThrownBy(() -> issuer().renew(released, longTtl()))
        .isInstanceOf(LeaseLostException.class)
        .hasMessageContaining("it was released");
    assertThatThrownBy(() -> issuer().renew(stale, longTtl()))
        .isInstanceOf(LeaseLostException.class)
        .hasMessageContaining("epoch " + newer.epoch() + " was issued since (to worker-b)");

    assertThat(issuer().status(expiredResource).held()).isFalse();
    assertThat(issuer().status(releasedResource).held()).isFalse();
    assertThat(issuer().status(takenResource)).isEqualTo(takenBefore);
    assertThat(issuer().tryAcquire(expiredResource, "worker-c", longTtl()).orElseThrow().epoch())
        .isEqualTo(expired.epoch().next());
  }

  @Test
  void releaseFreesTheLeaseAtOnceButKeepsTheEpochGrowing() {
    ResourceId resource = freshResource("release");
    Lease a = issuer().tryAcquire(resource, "worker-a", longTtl()).orElseThrow();

    assertThat(issuer().release(a)).isTrue();
    LeaseStatus released = issuer().status(resource);
    assertThat(released.held()).isFalse();
    assertThat(released.holder()).isEmpty();
    assertThat(released.expiresAt()).isEmpty();
    assertThat(released.epoch()).isEqualTo(a.epoch());
    Lease b = issuer().tryAcquire(resource, "worker-b", longTtl()).orElseThrow();

    assertThat(b.epoch()).isEqualTo(a.epoch().next());
  }

  @Test
  void releasingALeaseThatIsNoLongerCurrentDoesNothing() {
    ResourceId resource = freshResource("release-stale");
    Lease a = issuer().tryAcquire(resource, "worker-a", shortTtl()).orElseThrow();
    awaitExpiry(a);
    Lease b = issuer().tryAcquire(resource, "worker-b", longTtl()).orElseThrow();

    assertThat(issuer().release(a)).isFalse();
    LeaseStatus status = issuer().status(resource);
    assertThat(status.held()).isTrue();
    assertThat(status.epoch()).isEqualTo(b.epoch());
  }

  @Test
  void racingAcquiresGrantExactlyOneLease() {
    ResourceId resource = freshResource("race");
    int workers = 8;
    CountDownLatch start = new CountDownLatch(1);
    List<CompletableFuture<Optional<Lease>>> results = new ArrayList<>();
    for (int i = 0; i < workers; i++) {
      String holder = "worker-" + i;
      results.add(
          Concurrently.start(
              holder,
              () -> {
                awaitQuietly(start);
                return issuer().tryAcquire(resource, holder, longTtl());
              }));
    }
    start.countDown();

    List<Lease> granted =
        results.stream().map(Concurrently::await).flatMap(Optional::stream).toList();

    assertThat(granted).hasSize(1);
    assertThat(granted.get(0).epoch()).isEqualTo(Epoch.of(1));
    assertThat(issuer().status(resource).epoch()).isEqualTo(Epoch.of(1));
  }

  @Test
  void r1_releasingAnExpiredLeaseAfterTheSameHolderGotANewerOneDoesNothing() {
    ResourceId resource = freshResource("release-same-holder");
    Lease first = issuer().tryAcquire(resource, "worker", shortTtl()).orElseThrow();
    awaitExpiry(first);
    Lease second = issuer().tryAcquire(resource, "worker", longTtl()).orElseThrow();
    assertThat(second.epoch()).isEqualTo(first.epoch().next());

    // Same holder name, older epoch: the release must be decided by the epoch, not the name.
    assertThat(issuer().release(first)).isFalse();

    LeaseStatus status = issuer().status(resource);
    assertThat(status.held()).isTrue();
    assertThat(status.epoch()).isEqualTo(second.epoch());
    assertThat(status.holder()).contains("worker");
    assertThat(issuer().renew(second).token()).isEqualTo(second.token());
  }

  @Test
  void r1_racingAcquiresOfAReleasedOrExpiredLeaseGrantOneNewEpochPerRound() {
    // The row exists from round to round: an issuer that reads it without locking it (or without
    // a conditional update) lets several racers see it free and hand out the same epoch twice.
    ResourceId resource = freshResource("race-existing");
    Lease seed = issuer().tryAcquire(resource, "worker-seed", longTtl()).orElseThrow();
    assertThat(issuer().release(seed)).isTrue();
    List<Epoch> handedOut = new ArrayList<>(List.of(seed.epoch()));
    int rounds = 6;
    int workers = 8;
    for (int round = 1; round <= rounds; round++) {
      if (round % 2 == 1) {
        // Odd rounds race for an expired lease, even rounds for the released winner's.
        Lease expiring =
            issuer().tryAcquire(resource, "worker-expiring-" + round, shortTtl()).orElseThrow();
        handedOut.add(expiring.epoch());
        awaitExpiry(expiring);
      }
      Epoch before = issuer().status(resource).epoch();
      CountDownLatch start = new CountDownLatch(1);
      List<CompletableFuture<Optional<Lease>>> results = new ArrayList<>();
      for (int i = 0; i < workers; i++) {
        String holder = "worker-" + round + "-" + i;
        results.add(
            Concurrently.start(
                holder,
                () -> {
                  awaitQuietly(start);
                  return issuer().tryAcquire(resource, holder, longTtl());
                }));
      }
      start.countDown();

      List<Lease> granted =
          results.stream().map(Concurrently::await).flatMap(Optional::stream).toList();

      assertThat(granted)
          .as("leases granted in round %d (epochs handed out before: %s)", round, handedOut)
          .hasSize(1);
      Lease winner = granted.get(0);
      assertThat(winner.epoch()).as("the epoch of round %d", round).isEqualTo(before.next());
      assertThat(issuer().status(resource).epoch()).isEqualTo(winner.epoch());
      handedOut.add(winner.epoch());
      assertThat(issuer().release(winner)).isTrue();
    }
    assertThat(handedOut).doesNotHaveDuplicates().isSorted();
  }

  @Test
  void invalidArgumentsAreRejectedWithoutTouchingTheResource() {
    ResourceId resource = freshResource("invalid");

    assertThatThrownBy(() -> issuer().tryAcquire(resource, "", longTtl()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("holder name");
    assertThatThrownBy(() -> issuer().tryAcquire(resource, "worker-a", Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("PT0S");
    assertThatThrownBy(() -> issuer().tryAcquire(resource, "worker-a", Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("PT-1S");
    assertThat(issuer().status(resource).epoch()).isEqualTo(Epoch.NONE);
  }

  @Test
  void r11d_epochsNeverRollBackAfterTheIssuersStoreRestarts() {
    ResourceId resource = freshResource("restart");
    Epoch last = Epoch.NONE;
    for (int i = 0; i < 3; i++) {
      Lease lease = issuer().tryAcquire(resource, "worker-" + i, longTtl()).orElseThrow();
      assertThat(lease.epoch()).isGreaterThan(last);
      last = lease.epoch();
      assertThat(issuer().release(lease)).isTrue();
    }
    Lease held = issuer().tryAcquire(resource, "worker-held", shortTtl()).orElseThrow();

    restartStore();

    LeaseStatus status = issuer().status(resource);
    assertThat(status.epoch()).isEqualTo(held.epoch());
    awaitExpiry(held);
    Lease after = issuer().tryAcquire(resource, "worker-after", longTtl()).orElseThrow();
    assertThat(after.epoch()).isEqualTo(held.epoch().next());
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
