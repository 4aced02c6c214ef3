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

import dev.fenceline.spi.AlreadyApplied;
import dev.fenceline.spi.Applied;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingStep;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.Lease;
import dev.fenceline.spi.LeaseIssuer;
import dev.fenceline.spi.LeaseLostException;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Pointer;
import dev.fenceline.spi.PointerState;
import dev.fenceline.spi.PointerStore;
import dev.fenceline.spi.Receipt;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.WriteOutcome;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A session that changes in the middle of a step, its new session on a server that is behind
 * ({@link LaggingZooKeeper}): a transaction refused because of such reads, or a refusal compared
 * with such reads, is not a sign of nodes changed outside Fenceline.
 */
class ZkLaggingSessionTest {

  private ZkTestStores stores;
  private LaggingZooKeeper lagging;

  @BeforeEach
  void open() {
    stores = new ZkTestStores(ZkTestStores.shared(), "lagging");
    lagging = new LaggingZooKeeper(stores.ensemble().connectString());
  }

  @AfterEach
  void close() {
    stores.close();
    lagging.close();
  }

  private ZkStore laggingStore() {
    return stores.open(ZkStore.builder(lagging.client()).rootPath(stores.root()));
  }

  /**
   * The lagging client's pointer store {@code tck}, which runs {@code atFirstEpochCheck} once, when
   * its first write has checked the epoch.
   */
  private PointerStore laggingPointers(Runnable atFirstEpochCheck) {
    AtomicBoolean first = new AtomicBoolean(true);
    return laggingStore()
        .pointerStore(
            "tck",
            (step, token, operation) -> {
              if (step == FencingStep.AFTER_EPOCH_CHECK && first.getAndSet(false)) {
                atFirstEpochCheck.run();
              }
            });
  }

  private FencingToken token(ResourceId resource, long epoch, String holder) {
    return new FencingToken(stores.store().id(), resource, Epoch.of(epoch), holder);
  }

  private static Receipt receipt(WriteOutcome outcome) {
    assertThat(outcome).isInstanceOf(Applied.class);
    return ((Applied) outcome).receipt();
  }

  private void expire() {
    stores.ensemble().expireSession(lagging.client());
  }

  /**
   * After the next barrier the session expires, and the new session reads {@code path} from a
   * server that is behind.
   */
  private void expireAfterNextBarrierLaggingOn(String path) {
    lagging.afterNextBarrier(
        () -> {
          lagging.nextSessionLagsOn(path);
          expire();
        });
  }

  /**
   * A retry of operation x, which an older write applied: the session expires after the control
   * node was read, and the new session's read of x's operation node misses it. The swap that
   * follows is refused (x's node exists) although the control node did not change: x is replayed,
   * not reported as nodes written outside Fenceline.
   */
  @Test
  void aRetryWhoseOperationNodeANewSessionReadBehindMissedIsReplayed() {
    ResourceId resource = ResourceId.of("lagging/replay");
    PointerStore direct = stores.store().pointerStore("tck");
    Receipt x =
        receipt(direct.write(token(resource, 1, "a"), OperationId.of("x"), Pointer.to("x")));
    receipt(direct.write(token(resource, 1, "a"), OperationId.of("y"), Pointer.to("y")));
    String operationNode = stores.store().paths().operation("tck", resource, OperationId.of("x"));
    PointerStore pointers =
        laggingPointers(
            () -> {
              lagging.nextSessionLagsOn(operationNode);
              expire();
            });

    WriteOutcome outcome =
        pointers.write(token(resource, 1, "a"), OperationId.of("x"), Pointer.to("x"));

    assertThat(outcome).isEqualTo(new AlreadyApplied(x));
    assertThat(direct.history(resource, 10).stream().map(PointerState::operation).toList())
        .containsExactly(OperationId.of("y"), OperationId.of("x"));
  }

  /**
   * A swap refused because another writer got in first; the session expires right after the next
   * read barrier and the new session reads the control node as it was before that writer. The same
   * version as the refused read is no proof of a node changed by hand: the swap is applied.
   */
  @Test
  void aRefusedSwapReadAgainOnANewSessionThatIsBehindIsAppliedNotAnError() {
    ResourceId resource = ResourceId.of("lagging/swap");
    PointerStore direct = stores.store().pointerStore("tck");
    receipt(direct.write(token(resource, 1, "a"), OperationId.of("v1"), Pointer.to("1")));
    String control = stores.store().paths().control(resource);
    PointerStore pointers =
        laggingPointers(
            () -> {
              receipt(
                  direct.write(token(resource, 1, "a"), OperationId.of("other"), Pointer.to("o")));
              expireAfterNextBarrierLaggingOn(control);
            });

    WriteOutcome outcome =
        pointers.write(token(resource, 1, "a"), OperationId.of("w"), Pointer.to("w"));

    assertThat(outcome).isInstanceOf(Applied.class);
    assertThat(direct.history(resource, 10).stream().map(PointerState::operation).toList())
        .containsExactly(OperationId.of("w"), OperationId.of("other"), OperationId.of("v1"));
  }

  /**
   * An acquire refused because another client acquired first; the session expires right after the
   * next clock write and the new session reads the lease node as it was before. The acquire answers
   * that the lease is held, not that the nodes were changed outside Fenceline.
   */
  @Test
  void aRefusedAcquireReadAgainOnANewSessionThatIsBehindSeesTheLeaseHeld() {
    ResourceId resource = ResourceId.of("lagging/acquire");
    LeaseIssuer other = stores.store().leaseIssuer();
    String lease = stores.store().paths().lease(resource);
    LeaseIssuer issuer = laggingStore().leaseIssuer();
    lagging.freezeNextAnswer(lease);
    lagging.afterNextRead(
        lease,
        () -> {
          assertThat(other.tryAcquire(resource, "other", Duration.ofMinutes(5))).isPresent();
          expireAfterNextBarrierLaggingOn(lease);
        });

    assertThat(issuer.tryAcquire(resource, "me", Duration.ofMinutes(5))).isEmpty();
    assertThat(other.status(resource).holder()).contains("other");
    assertThat(List.of(other.status(resource).epoch())).containsExactly(Epoch.of(1));
  }

  /**
   * A reset moved the registered epoch back from 5 to 1; a writer of epoch 2 then reads the control
   * node in a new session on a server that is behind (still epoch 5). Its write is applied: the
   * reset was acknowledged before it began.
   */
  @Test
  void aWriteAfterAResetIsNotRejectedFromANewSessionThatIsBehind() {
    ResourceId resource = ResourceId.of("lagging/reset");
    PointerStore direct = stores.store().pointerStore("tck");
    receipt(direct.write(token(resource, 5, "a"), OperationId.of("v5"), Pointer.to("5")));
    String control = stores.store().paths().control(resource);
    PointerStore pointers = laggingStore().pointerStore("tck");
    lagging.freezeNextAnswer(control);
    assertThat(pointers.currentEpoch(resource)).isEqualTo(Epoch.of(5));
    ((ZkPointerStore) direct).resetRegisteredEpoch(resource, Epoch.of(1), "test");
    expireAfterNextBarrierLaggingOn(control);

    WriteOutcome outcome =
        pointers.write(token(resource, 2, "b"), OperationId.of("v2"), Pointer.to("2"));

    assertThat(outcome).isInstanceOf(Applied.class);
    assertThat(direct.currentEpoch(resource)).isEqualTo(Epoch.of(2));
  }

  /**
   * A renewal decided in the session that holds the lease, whose transaction Curator then sends in
   * a new session (it gave the old one up; the ensemble still has it and its holder node). The
   * holder node dies with the old session, so the renewal does not extend a held lease.
   */
  @Test
  void aRenewalSentOnANewSessionIsALostLease() {
    ResourceId resource = ResourceId.of("lagging/renew");
    LeaseIssuer issuer = laggingStore().leaseIssuer();
    Lease lease = issuer.tryAcquire(resource, "me", Duration.ofMinutes(5)).orElseThrow();
    lagging.beforeNextTransaction(lagging::abandonSession);

    assertThatThrownBy(() -> issuer.renew(lease))
        .isInstanceOf(LeaseLostException.class)
        .hasMessageContaining("session changed while renewing");
  }
}
