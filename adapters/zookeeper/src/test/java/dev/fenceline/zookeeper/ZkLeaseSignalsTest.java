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
package dev.fenceline.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fenceline.core.EfficiencyLease;
import dev.fenceline.core.Fenceline;
import dev.fenceline.core.HeldLease;
import dev.fenceline.core.LeaseLoss;
import dev.fenceline.spi.ResourceId;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.listen.StandardListenerManager;
import org.apache.curator.framework.state.ConnectionState;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The holder's belief follows the ZooKeeper session (issue 18, item 3): the leases are two minutes
 * long, the sessions a few seconds, and a holder cut off from the ensemble must stop believing
 * within the session timeout, before the ensemble expires its session and a second worker acquires.
 * Every wait is bounded and polls a condition.
 */
class ZkLeaseSignalsTest {

  private static final Duration TTL = Duration.ofMinutes(2);
  private static final Duration CUT_SESSION = Duration.ofSeconds(4);
  private static final Duration SLACK = Duration.ofSeconds(1);
  private static final Duration WAIT = Duration.ofSeconds(40);

  private ZkTestStores stores;
  private ZkProxy proxy;
  private ZkClients clients;

  @BeforeEach
  void open() {
    stores = new ZkTestStores(ZkTestStores.shared(), "signals");
    proxy = new ZkProxy(stores.ensemble());
    clients = new ZkClients(proxy.connectString());
  }

  @AfterEach
  void close() {
    proxy.heal();
    stores.close();
    clients.close();
    proxy.close();
  }

  /** A store with its own Curator client that reaches the ensemble only through the proxy. */
  private ZkStore cutOffable() {
    return stores.open(
        ZkStore.builder(proxy.connectString())
            .rootPath(stores.root())
            .followEnsembleConfig(false) // else Curator moves to the servers' own addresses
            .sessionTimeout(CUT_SESSION)
            .connectionTimeout(Duration.ofSeconds(2)));
  }

  private static Fenceline fenceline(ZkStore store, String holder) {
    return Fenceline.builder().issuer(store.leaseIssuer()).holder(holder).leaseTtl(TTL).build();
  }

  private static long sessionTimeoutNanos(ZkStore store) {
    return TimeUnit.MILLISECONDS.toNanos(
        store.client().getZookeeperClient().getLastNegotiatedSessionTimeoutMs());
  }

  /** When a holder's belief ended and its listeners ran, by {@link System#nanoTime()}. */
  private static final class Belief {
    final AtomicLong invalidAt = new AtomicLong();
    final AtomicLong lostAt = new AtomicLong();
    final CompletableFuture<LeaseLoss> loss = new CompletableFuture<>();

    void sample(boolean locallyValid, long now) {
      if (!locallyValid) {
        invalidAt.compareAndSet(0, now);
      }
    }

    void lost(LeaseLoss lost) {
      lostAt.compareAndSet(0, System.nanoTime());
      loss.complete(lost);
    }
  }

  @Test
  void
      holdersCutOffFromTheEnsembleStopBelievingWithinTheSessionTimeoutBeforeASecondWorkerAcquires() {
    // One holder on a client the store built, one on a client the application built and passed in.
    ZkStore own = cutOffable();
    CuratorFramework application = clients.start(CUT_SESSION);
    ZkStore passedIn =
        stores.open(
            ZkStore.builder(application).rootPath(stores.root()).followEnsembleConfig(false));
    ZkStore other = stores.store();
    ResourceId fenced = ResourceId.of("signals/fenced");
    ResourceId efficient = ResourceId.of("signals/efficient");
    try (Fenceline a = fenceline(own, "worker-a");
        Fenceline aPassedIn = fenceline(passedIn, "worker-a2")) {
      HeldLease held = a.tryAcquire(fenced).orElseThrow();
      EfficiencyLease efficiency = aPassedIn.tryAcquireForEfficiency(efficient).orElseThrow();
      Belief heldBelief = new Belief();
      Belief efficiencyBelief = new Belief();
      held.onLost(heldBelief::lost);
      efficiency.onLost(efficiencyBelief::lost);
      long session = Math.max(sessionTimeoutNanos(own), sessionTimeoutNanos(passedIn));
      assertThat(held.remaining()).isGreaterThan(Duration.ofMinutes(1));
      assertThat(efficiency.remaining()).isGreaterThan(Duration.ofMinutes(1));

      long cutAt = System.nanoTime();
      proxy.cut();

      // Worker B asks until the ensemble expired both sessions; A's beliefs are sampled meanwhile.
      long heldTakenAt = 0;
      long efficiencyTakenAt = 0;
      long deadline = cutAt + WAIT.toNanos();
      while (heldTakenAt == 0 || efficiencyTakenAt == 0) {
        long now = System.nanoTime();
        assertThat(now - deadline)
            .as("the ensemble expired A's sessions within " + WAIT)
            .isNegative();
        heldBelief.sample(held.isLocallyValid(), now);
        efficiencyBelief.sample(efficiency.isLocallyValid(), now);
        if (heldTakenAt == 0
            && other.leaseIssuer().tryAcquire(fenced, "worker-b", TTL).isPresent()) {
          heldTakenAt = System.nanoTime();
        }
        if (efficiencyTakenAt == 0
            && other.leaseIssuer().tryAcquire(efficient, "worker-b", TTL).isPresent()) {
          efficiencyTakenAt = System.nanoTime();
        }
        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
      }

      long bound = session + SLACK.toNanos();
      assertBeliefEndedInTime("the HeldLease", heldBelief, cutAt, bound, heldTakenAt);
      assertBeliefEndedInTime(
          "the EfficiencyLease", efficiencyBelief, cutAt, bound, efficiencyTakenAt);
      assertThat(held.isLocallyValid()).isFalse();
      assertThat(held.state()).isEqualTo(HeldLease.State.LOST);
      assertThat(efficiency.isLocallyValid()).isFalse();
      assertThat(efficiency.state()).isEqualTo(HeldLease.State.LOST);
      assertThat(heldBelief.loss.join().detail())
          .contains("the connection to ZooKeeper at zookeeper://")
          .contains("was suspended");

      proxy.heal();
      held.close();
      efficiency.close();
      assertThat(own.leaseIssuer().watches().watchedLeases()).isZero();
    }
  }

  private static void assertBeliefEndedInTime(
      String what, Belief belief, long cutAt, long bound, long takenAt) {
    assertThat(belief.lostAt.get()).as(what + ": onLost ran").isNotZero();
    assertThat(Duration.ofNanos(belief.lostAt.get() - cutAt))
        .as(what + ": onLost ran within the session timeout (+ slack) after the cut")
        .isLessThanOrEqualTo(Duration.ofNanos(bound));
    assertThat(belief.invalidAt.get()).as(what + ": isLocallyValid() turned false").isNotZero();
    assertThat(Duration.ofNanos(belief.invalidAt.get() - cutAt))
        .as(what + ": isLocallyValid() was false within the session timeout (+ slack)")
        .isLessThanOrEqualTo(Duration.ofNanos(bound));
    assertThat(takenAt - belief.lostAt.get())
        .as(what + ": onLost ran before worker B acquired")
        .isPositive();
    assertThat(takenAt - belief.invalidAt.get())
        .as(what + ": the belief ended before worker B acquired")
        .isPositive();
    assertThat(belief.loss.join().reason())
        .isIn(LeaseLoss.Reason.ISSUER_UNREACHABLE, LeaseLoss.Reason.ENDED_AT_ISSUER);
  }

  @Test
  void aSessionTheEnsembleExpiresEndsTheBeliefWithinTheSessionTimeout() {
    ZkStore a = stores.open(stores.builder());
    try (Fenceline fenceline = fenceline(a, "worker-a");
        HeldLease held = fenceline.tryAcquire(ResourceId.of("signals/expired")).orElseThrow()) {
      CompletableFuture<LeaseLoss> lost = new CompletableFuture<>();
      held.onLost(lost::complete);
      long session = sessionTimeoutNanos(a);
      long start = System.nanoTime();

      stores.ensemble().expireSession(a.client());

      LeaseLoss loss =
          lost.orTimeout(
                  TimeUnit.NANOSECONDS.toMillis(session) + SLACK.toMillis(), TimeUnit.MILLISECONDS)
              .join();
      assertThat(System.nanoTime() - start).isLessThanOrEqualTo(session + SLACK.toNanos());
      assertThat(held.isLocallyValid()).isFalse();
      assertThat(loss.reason())
          .isIn(LeaseLoss.Reason.ENDED_AT_ISSUER, LeaseLoss.Reason.ISSUER_UNREACHABLE);
    }
  }

  /**
   * The listener's answers to each state, driven directly on a healthy client: SUSPENDED bounds the
   * belief, RECONNECTED in the same session restores nothing, a renewal does, LOST ends it.
   */
  @Test
  void aSuspensionBoundsTheBeliefAReconnectRestoresNothingARenewalDoesAndLostEndsIt() {
    ZkStore a = stores.open(stores.builder());
    ZkLeaseIssuer issuer = a.leaseIssuer();
    StandardListenerManager<?> listeners =
        (StandardListenerManager<?>) a.client().getConnectionStateListenable();
    int before = listeners.size();
    try (Fenceline fenceline =
            Fenceline.builder()
                .issuer(issuer)
                .holder("worker-a")
                .leaseTtl(TTL)
                .renewEvery(Duration.ZERO)
                .build();
        HeldLease held = fenceline.tryAcquire(ResourceId.of("signals/driven")).orElseThrow()) {
      long acquiredAt = System.nanoTime(); // the acquire's clock write was sent before this
      CompletableFuture<LeaseLoss> lost = new CompletableFuture<>();
      held.onLost(lost::complete);
      Duration sessionBound = Duration.ofNanos(sessionTimeoutNanos(a) * 9 / 10);
      assertThat(issuer.watches().watchedLeases()).isEqualTo(1);
      assertThat(listeners.size()).isEqualTo(before + 1);
      // Let time pass since the last contact: the bound counts from it, not from the suspension.
      long elapsed = TimeUnit.MILLISECONDS.toNanos(300);
      while (System.nanoTime() - acquiredAt < elapsed) {
        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
      }
      long suspendedAfter = System.nanoTime();

      issuer.watches().stateChanged(a.client(), ConnectionState.SUSPENDED);
      assertThat(held.remaining())
          .isPositive()
          .isLessThanOrEqualTo(sessionBound.minusNanos(suspendedAfter - acquiredAt));

      issuer.watches().stateChanged(a.client(), ConnectionState.RECONNECTED);
      assertThat(held.remaining()).as("not restored").isLessThanOrEqualTo(sessionBound);

      assertThat(held.renewNow()).isTrue();
      assertThat(held.remaining()).isGreaterThan(Duration.ofMinutes(1));

      issuer.watches().stateChanged(a.client(), ConnectionState.LOST);
      assertThat(held.isLocallyValid()).isFalse();
      LeaseLoss loss = lost.orTimeout(WAIT.toMillis(), TimeUnit.MILLISECONDS).join();
      assertThat(loss.reason()).isEqualTo(LeaseLoss.Reason.ENDED_AT_ISSUER);
      assertThat(loss.detail()).startsWith("Curator reported the ZooKeeper session lost at");
      assertThat(held.renewNow()).isFalse();
    }
    assertThat(issuer.watches().watchedLeases()).isZero();
    assertThat(listeners.size())
        .as("the listener left the client with the last lease")
        .isEqualTo(before);
  }

  @Test
  void aReconnectInTheSameSessionAsksForABackgroundRenewalThatLiftsTheBound() {
    ZkStore a = stores.open(stores.builder());
    ZkLeaseIssuer issuer = a.leaseIssuer();
    try (Fenceline fenceline =
            Fenceline.builder().issuer(issuer).holder("worker-a").leaseTtl(TTL).build();
        HeldLease held = fenceline.tryAcquire(ResourceId.of("signals/renewed")).orElseThrow()) {
      Duration sessionBound = Duration.ofNanos(sessionTimeoutNanos(a) * 9 / 10);
      issuer.watches().stateChanged(a.client(), ConnectionState.SUSPENDED);
      assertThat(held.remaining()).isLessThanOrEqualTo(sessionBound);

      issuer.watches().stateChanged(a.client(), ConnectionState.RECONNECTED);

      long deadline = System.nanoTime() + WAIT.toNanos();
      while (held.remaining().compareTo(Duration.ofMinutes(1)) <= 0) {
        assertThat(held.state()).isEqualTo(HeldLease.State.HELD);
        assertThat(System.nanoTime() - deadline).as("renewed within " + WAIT).isNegative();
        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
      }
    }
  }
}
