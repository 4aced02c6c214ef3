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
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fenceline.spi.Applied;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingStep;
import dev.fenceline.spi.Lease;
import dev.fenceline.spi.LeaseLostException;
import dev.fenceline.spi.LeaseStatus;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Pointer;
import dev.fenceline.spi.PointerState;
import dev.fenceline.spi.PointerStore;
import dev.fenceline.spi.Receipt;
import dev.fenceline.spi.RejectedStale;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StoreException;
import dev.fenceline.spi.WriteOutcome;
import dev.fenceline.tck.Concurrently;
import dev.fenceline.tck.PausePoints;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Sessions and partitions: the ensemble expires a holder's session, and a writer is cut off from
 * the whole ensemble while paused at a pause point (R1, R2, R3). Worker A's lease is long (10
 * minutes): everything that ends it here is the ensemble's doing.
 */
class ZkSessionTest {

  private static final Duration LONG = Duration.ofMinutes(10);

  private ZkTestStores stores;
  private ZkProxy proxy;

  @BeforeEach
  void open() {
    stores = new ZkTestStores(ZkTestStores.shared(), "session");
    proxy = new ZkProxy(stores.ensemble());
  }

  @AfterEach
  void close() {
    stores.close();
    proxy.close();
  }

  /** Worker A's store, reaching the ensemble only through the proxy. */
  private ZkStore cutOffable(Duration connectionTimeout) {
    return stores.open(
        ZkStore.builder(proxy.connectString())
            .rootPath(stores.root())
            .followEnsembleConfig(false) // else Curator moves to the servers' own addresses
            .sessionTimeout(Duration.ofSeconds(4))
            .connectionTimeout(connectionTimeout));
  }

  private static List<String> operations(PointerStore pointers, ResourceId resource) {
    return pointers.history(resource, 10).stream()
        .map(PointerState::operation)
        .map(OperationId::value)
        .toList();
  }

  /** Polls the issuer (an external condition, bounded) until A's lease is no longer held. */
  private void awaitNotHeld(ResourceId resource) {
    long deadline = System.nanoTime() + PausePoints.TIMEOUT.toNanos();
    while (stores.store().leaseIssuer().status(resource).held()) {
      assertThat(System.nanoTime()).as("the ensemble ended the lease in time").isLessThan(deadline);
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
    }
  }

  @Test
  void r1_aHolderWhoseSessionTheEnsembleExpiredIsTakenOverAtOnceAndItsWriteIsRejected() {
    ZkStore a = stores.open(stores.builder());
    ZkStore b = stores.store();
    ResourceId resource = ResourceId.of("session/expired");
    Lease leaseA = a.leaseIssuer().tryAcquire(resource, "worker-a", LONG).orElseThrow();
    Receipt a1 =
        ((Applied)
                a.pointerStore("site")
                    .write(leaseA.token(), OperationId.of("a-1"), Pointer.to("a1")))
            .receipt();
    assertThat(b.leaseIssuer().tryAcquire(resource, "worker-b", LONG)).isEmpty();

    stores.ensemble().expireSession(a.client());

    LeaseStatus status = b.leaseIssuer().status(resource);
    assertThat(status.held()).as("the ensemble ended A's lease with its session").isFalse();
    assertThat(status.epoch()).isEqualTo(leaseA.epoch());
    assertThat(status.expiresAt()).contains(leaseA.expiresAt()); // its ttl had not run out
    Lease leaseB = b.leaseIssuer().tryAcquire(resource, "worker-b", LONG).orElseThrow();
    assertThat(leaseB.epoch()).isEqualTo(leaseA.epoch().next());
    Receipt b1 =
        ((Applied)
                b.pointerStore("site")
                    .write(leaseB.token(), OperationId.of("b-1"), Pointer.to("b1")))
            .receipt();

    // A wakes up (Curator has a new session by now) and writes with its old token.
    WriteOutcome late =
        a.pointerStore("site").write(leaseA.token(), OperationId.of("a-2"), Pointer.to("a2"));

    assertThat(late).isEqualTo(new RejectedStale(resource, leaseA.epoch(), leaseB.epoch()));
    assertThatThrownBy(() -> a.leaseIssuer().renew(leaseA))
        .isInstanceOf(LeaseLostException.class)
        .hasMessageContaining("epoch " + leaseB.epoch() + " was issued since (to worker-b)");
    assertThat(a.leaseIssuer().release(leaseA)).isFalse();
    PointerStore pointers = b.pointerStore("site");
    assertThat(operations(pointers, resource)).containsExactly("b-1", "a-1");
    assertThat(pointers.lookup(resource, OperationId.of("a-1"))).contains(a1);
    assertThat(pointers.lookup(resource, OperationId.of("b-1"))).contains(b1);
    assertThat(pointers.lookup(resource, OperationId.of("a-2"))).isEmpty();
    assertThat(b.leaseIssuer().status(resource).holder()).contains("worker-b");
  }

  @Test
  void aHolderWhoseSessionExpiredCannotRenewEvenBeforeATakeover() {
    ZkStore a = stores.open(stores.builder());
    ResourceId resource = ResourceId.of("session/renew");
    Lease lease = a.leaseIssuer().tryAcquire(resource, "worker-a", LONG).orElseThrow();

    stores.ensemble().expireSession(a.client());

    assertThatThrownBy(() -> a.leaseIssuer().renew(lease))
        .isInstanceOf(LeaseLostException.class)
        .hasMessageContaining("the ensemble expired the ZooKeeper session that acquired it");
    assertThat(stores.store().leaseIssuer().status(resource).epoch()).isEqualTo(lease.epoch());
  }

  @Test
  void aRenewalFromAnotherSessionIsRefused() {
    ZkStore a = stores.open(stores.builder());
    ResourceId resource = ResourceId.of("session/other");
    Lease lease = a.leaseIssuer().tryAcquire(resource, "worker-a", LONG).orElseThrow();

    assertThatThrownBy(() -> stores.store().leaseIssuer().renew(lease))
        .isInstanceOf(LeaseLostException.class)
        .hasMessageContaining("renew it through the client that acquired it");
    assertThat(a.leaseIssuer().renew(lease).token()).isEqualTo(lease.token());
  }

  /**
   * A is paused right before its transaction; the network cuts it off from every server; the
   * ensemble expires its session; B takes over and publishes. When A's network comes back and it
   * resumes, its transaction finds the control node moved on and the epoch check rejects it.
   */
  @Test
  void r1_aWriterCutOffWhilePausedBeforeItsTransactionIsRejectedAfterTheTakeover() {
    PausePoints pauses = new PausePoints();
    ZkStore a = cutOffable(Duration.ofSeconds(2));
    ResourceId resource = ResourceId.of("partition/rejected");
    Lease leaseA = a.leaseIssuer().tryAcquire(resource, "worker-a", LONG).orElseThrow();
    PointerStore pointersA = a.pointerStore("site", pauses);
    assertThat(pointersA.write(leaseA.token(), OperationId.of("a-1"), Pointer.to("a1")))
        .isInstanceOf(Applied.class);
    PausePoints.Pause beforeCommit = pauses.pauseAt(FencingStep.AFTER_APPLY, "worker-a");
    CompletableFuture<WriteOutcome> paused =
        Concurrently.start(
            "worker-a",
            () -> pointersA.write(leaseA.token(), OperationId.of("a-2"), Pointer.to("a2")));
    beforeCommit.awaitReached();

    proxy.cut();
    awaitNotHeld(resource); // the ensemble expired A's session: its holder node is gone
    ZkStore b = stores.store();
    Lease leaseB = b.leaseIssuer().tryAcquire(resource, "worker-b", LONG).orElseThrow();
    assertThat(
            b.pointerStore("site").write(leaseB.token(), OperationId.of("b-1"), Pointer.to("b1")))
        .isInstanceOf(Applied.class);
    proxy.heal();
    beforeCommit.resume();

    assertThat(Concurrently.await(paused))
        .isEqualTo(new RejectedStale(resource, leaseA.epoch(), leaseB.epoch()));
    assertThat(operations(b.pointerStore("site"), resource)).containsExactly("b-1", "a-1");
    assertThat(b.pointerStore("site").lookup(resource, OperationId.of("a-2"))).isEmpty();
    assertThatThrownBy(() -> a.leaseIssuer().renew(leaseA)).isInstanceOf(LeaseLostException.class);
  }

  /**
   * A resumes while still cut off: its transaction cannot be sent, and A cannot tell whether it
   * was, so the outcome is unknown. Once the network is back, {@code lookup} decides it (not
   * applied) and a retry with the same operation ID applies it once.
   */
  @Test
  void aWriterResumedWhileCutOffGetsAnUnknownOutcomeThatLookupDecidesAfterwards() {
    PausePoints pauses = new PausePoints();
    ZkStore a = cutOffable(Duration.ofMillis(500));
    ResourceId resource = ResourceId.of("partition/unknown");
    Lease leaseA = a.leaseIssuer().tryAcquire(resource, "worker-a", LONG).orElseThrow();
    PointerStore pointersA = a.pointerStore("site", pauses);
    PausePoints.Pause beforeCommit = pauses.pauseAt(FencingStep.AFTER_APPLY, "worker-a");
    CompletableFuture<WriteOutcome> paused =
        Concurrently.start(
            "worker-a",
            () -> pointersA.write(leaseA.token(), OperationId.of("a-1"), Pointer.to("a1")));
    beforeCommit.awaitReached();

    proxy.cut();
    beforeCommit.resume();
    assertThatThrownBy(() -> paused.join())
        .isInstanceOf(CompletionException.class)
        .cause()
        .isInstanceOf(StoreException.class)
        .hasMessageContaining("the connection to the ensemble was lost")
        .hasMessageContaining("the write may have been applied")
        .satisfies(e -> assertThat(((StoreException) e).outcomeUnknown()).isTrue());
    proxy.heal();

    assertThat(pointersA.lookup(resource, OperationId.of("a-1"))).isEmpty();
    WriteOutcome retried = pointersA.write(leaseA.token(), OperationId.of("a-1"), Pointer.to("a1"));
    assertThat(retried).isInstanceOf(Applied.class);
    assertThat(pointersA.lookup(resource, OperationId.of("a-1")))
        .contains(((Applied) retried).receipt());
    assertThat(operations(stores.store().pointerStore("site"), resource)).containsExactly("a-1");
    assertThat(stores.store().pointerStore("site").currentEpoch(resource)).isEqualTo(Epoch.of(1));
  }
}
