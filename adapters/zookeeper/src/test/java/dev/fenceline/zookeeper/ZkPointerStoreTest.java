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
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.fenceline.spi.Applied;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.Lease;
import dev.fenceline.spi.LeaseLostException;
import dev.fenceline.spi.LeaseStatus;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Pointer;
import dev.fenceline.spi.PointerState;
import dev.fenceline.spi.PointerStore;
import dev.fenceline.spi.Receipt;
import dev.fenceline.spi.Registered;
import dev.fenceline.spi.RejectedStale;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StoreException;
import dev.fenceline.spi.WriteOutcome;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * ZooKeeper-specific pointer-store and issuer tests: answers lost after a transaction was applied
 * (Curator re-sends it), the request size limit, node layout and unreadable nodes.
 */
class ZkPointerStoreTest {

  private ZkTestStores stores;
  private LosingZooKeeper losing;

  @BeforeEach
  void open() {
    stores = new ZkTestStores(ZkTestStores.shared(), "pointer");
    losing = new LosingZooKeeper(stores.ensemble().connectString());
  }

  @AfterEach
  void close() {
    stores.close();
    losing.close();
  }

  /** A store whose transactions go through {@link #losing}. */
  private ZkStore losingStore() {
    return stores.open(ZkStore.builder(losing.client()).rootPath(stores.root()));
  }

  private FencingToken token(ResourceId resource, long epoch, String holder) {
    return new FencingToken(stores.store().id(), resource, Epoch.of(epoch), holder);
  }

  private static Receipt receipt(WriteOutcome outcome) {
    assertThat(outcome).isInstanceOf(Applied.class);
    return ((Applied) outcome).receipt();
  }

  private static List<String> operations(List<PointerState> history) {
    return history.stream().map(state -> state.operation().value()).toList();
  }

  @Test
  void aSwapWhoseAnswerWasLostIsAppliedOnceAndAnsweredApplied() {
    PointerStore pointers = losingStore().pointerStore("tck");
    PointerStore reader = stores.store().pointerStore("tck");
    ResourceId resource = ResourceId.of("lost/swap");
    receipt(pointers.write(token(resource, 1, "a"), OperationId.of("v1"), Pointer.to("1")));
    losing.loseNextAnswer(() -> {});

    Receipt v2 =
        receipt(pointers.write(token(resource, 1, "a"), OperationId.of("v2"), Pointer.to("2")));

    assertThat(operations(reader.history(resource, 10))).containsExactly("v2", "v1");
    assertThat(reader.lookup(resource, OperationId.of("v2"))).contains(v2);
  }

  @ParameterizedTest(name = "{0} later writes")
  @ValueSource(ints = {1, 9})
  void aLostAnswerOvertakenByANewerOwnerIsStillApplied(int laterWrites) {
    PointerStore pointers = losingStore().pointerStore("tck");
    PointerStore newOwner = stores.store().pointerStore("tck");
    ResourceId resource = ResourceId.of("lost/overtaken-" + laterWrites);
    receipt(pointers.write(token(resource, 1, "a"), OperationId.of("v1"), Pointer.to("1")));
    List<String> expected = new ArrayList<>();
    // While A's answer is lost, B takes over and writes (9 writes push A's nonce out of the control
    // node's recent writes: A then finds its nonce in its operation node).
    losing.loseNextAnswer(
        () -> {
          for (int i = 1; i <= laterWrites; i++) {
            receipt(
                newOwner.write(
                    token(resource, 3, "b"), OperationId.of("b-" + i), Pointer.to("b" + i)));
            expected.add(0, "b-" + i);
          }
        });

    WriteOutcome outcome =
        pointers.write(token(resource, 2, "a"), OperationId.of("a"), Pointer.to("a"));

    assertThat(outcome)
        .as("A's transaction landed before B registered epoch 3")
        .isInstanceOf(Applied.class);
    assertThat(newOwner.lookup(resource, OperationId.of("a"))).contains(receipt(outcome));
    expected.add("a");
    expected.add("v1");
    assertThat(operations(newOwner.history(resource, 20))).containsExactlyElementsOf(expected);
    assertThat(newOwner.currentEpoch(resource)).isEqualTo(Epoch.of(3));
  }

  @Test
  void aRegistrationWhoseAnswerWasLostIsRegisteredWithThePreviousEpoch() {
    PointerStore pointers = losingStore().pointerStore("tck");
    ResourceId resource = ResourceId.of("lost/register");
    pointers.register(token(resource, 2, "a"));
    losing.loseNextAnswer(() -> {});

    assertThat(pointers.register(token(resource, 3, "b")))
        .isEqualTo(new Registered(resource, Epoch.of(3), Epoch.of(2)));
  }

  /**
   * A reset landed, its answer was lost, and before Curator re-sent it nine registrations moved the
   * epoch on (pushing the reset's nonce out of the recent writes). Applying the reset again would
   * move the epoch back below them; its marker node says it landed.
   */
  @Test
  void aResetWhoseAnswerWasLostIsNeverAppliedAgainOverNewerRegistrations() {
    ZkPointerStore pointers = losingStore().pointerStore("tck");
    PointerStore newOwner = stores.store().pointerStore("tck");
    ResourceId resource = ResourceId.of("lost/reset");
    pointers.register(token(resource, 5, "a"));
    losing.loseNextAnswer(
        () -> {
          for (long epoch = 2; epoch <= 10; epoch++) {
            assertThat(newOwner.register(token(resource, epoch, "b")))
                .isInstanceOf(Registered.class);
          }
        });

    assertThat(pointers.resetRegisteredEpoch(resource, Epoch.of(1), "test: lost answer"))
        .isEqualTo(Epoch.of(5));

    assertThat(newOwner.currentEpoch(resource)).isEqualTo(Epoch.of(10));
    assertThat(newOwner.register(token(resource, 9, "stale"))).isInstanceOf(RejectedStale.class);
  }

  @Test
  void anAcquireWhoseAnswerWasLostGrantsOneLeaseWithOneEpoch() {
    ZkLeaseIssuer issuer = losingStore().leaseIssuer();
    ResourceId resource = ResourceId.of("lost/acquire");
    losing.loseNextAnswer(() -> {});

    Lease lease = issuer.tryAcquire(resource, "worker-a", Duration.ofMinutes(1)).orElseThrow();

    assertThat(lease.epoch()).isEqualTo(Epoch.of(1));
    assertThat(stores.store().leaseIssuer().status(resource).epoch()).isEqualTo(Epoch.of(1));
    assertThat(issuer.renew(lease).token()).isEqualTo(lease.token());
  }

  /**
   * A swap landed and its answer was lost; meanwhile a newer Fenceline (a rolling upgrade) rewrote
   * the control node in a format this version cannot read, so Curator's re-sent transaction is
   * refused and the read that would decide it fails. The swap did land: the failure must say the
   * outcome is unknown (a staged destination deletes the staged blob on a known failure, and the
   * published pointer would name a deleted blob).
   */
  /**
   * An acquire landed and its answer was lost; before Curator re-sent it, the ensemble expired the
   * session, which deleted the holder node the acquire had created. Curator re-sends on a new
   * session, the re-send is refused, and the nonce says the first attempt landed: but that lease
   * ended with its session, and another worker can take over at once. It must never be returned as
   * held.
   */
  @Test
  void anAcquireThatLandedOnASessionExpiredBeforeItsAnswerIsNeverReturnedAsAHeldLease() {
    ZkLeaseIssuer issuer = losingStore().leaseIssuer();
    ResourceId resource = ResourceId.of("lost/acquire-expired");
    losing.loseNextAnswer(() -> stores.ensemble().expireSession(losing.client()));

    Lease lease = issuer.tryAcquire(resource, "worker-a", Duration.ofMinutes(10)).orElseThrow();

    LeaseStatus status = stores.store().leaseIssuer().status(resource);
    assertThat(status.held()).as("the returned lease %s is held", lease.token()).isTrue();
    assertThat(status.epoch()).isEqualTo(lease.epoch()).isEqualTo(Epoch.of(2));
    assertThat(
            stores.store().leaseIssuer().tryAcquire(resource, "worker-b", Duration.ofMinutes(10)))
        .as("another worker cannot take over a held lease")
        .isEmpty();
    assertThat(issuer.renew(lease).token()).isEqualTo(lease.token());
  }

  /** The same for a renewal: the session it landed on ended, and the lease with it. */
  @Test
  void aRenewalThatLandedOnASessionExpiredBeforeItsAnswerIsALostLease() {
    ZkLeaseIssuer issuer = losingStore().leaseIssuer();
    ResourceId resource = ResourceId.of("lost/renew-expired");
    Lease lease = issuer.tryAcquire(resource, "worker-a", Duration.ofMinutes(10)).orElseThrow();
    losing.loseNextAnswer(() -> stores.ensemble().expireSession(losing.client()));

    assertThatThrownBy(() -> issuer.renew(lease))
        .isInstanceOf(LeaseLostException.class)
        .hasMessageContaining("session");
    assertThat(stores.store().leaseIssuer().status(resource).held()).isFalse();
  }

  @Test
  void aFailureWhileDecidingARefusedResendOfASwapLeavesTheOutcomeUnknown() {
    PointerStore pointers = losingStore().pointerStore("tck");
    ResourceId resource = ResourceId.of("lost/undecided-swap");
    receipt(pointers.write(token(resource, 1, "a"), OperationId.of("v1"), Pointer.to("1")));
    losing.loseNextAnswer(() -> rewriteInNewerFormat(stores.store().paths().control(resource)));

    assertThatThrownBy(
            () -> pointers.write(token(resource, 1, "a"), OperationId.of("v2"), Pointer.to("2")))
        .isInstanceOf(StoreException.class)
        .satisfies(
            e ->
                assertThat(((StoreException) e).outcomeUnknown())
                    .as("the swap landed: " + e.getMessage())
                    .isTrue());
    assertThat(exists(stores.store().paths().operation("tck", resource, OperationId.of("v2"))))
        .isTrue();
  }

  @Test
  void aFailureWhileDecidingARefusedResendOfARegistrationLeavesTheOutcomeUnknown() {
    PointerStore pointers = losingStore().pointerStore("tck");
    ResourceId resource = ResourceId.of("lost/undecided-register");
    pointers.register(token(resource, 1, "a"));
    losing.loseNextAnswer(() -> rewriteInNewerFormat(stores.store().paths().control(resource)));

    assertThatThrownBy(() -> pointers.register(token(resource, 2, "a")))
        .isInstanceOf(StoreException.class)
        .satisfies(
            e ->
                assertThat(((StoreException) e).outcomeUnknown())
                    .as("the registration landed: " + e.getMessage())
                    .isTrue());
  }

  @Test
  void aFailureWhileDecidingARefusedResendOfAnAcquireLeavesTheOutcomeUnknown() {
    ZkLeaseIssuer issuer = losingStore().leaseIssuer();
    ResourceId resource = ResourceId.of("lost/undecided-acquire");
    losing.loseNextAnswer(() -> rewriteInNewerFormat(stores.store().paths().lease(resource)));

    assertThatThrownBy(() -> issuer.tryAcquire(resource, "worker-a", Duration.ofMinutes(1)))
        .isInstanceOf(StoreException.class)
        .satisfies(
            e ->
                assertThat(((StoreException) e).outcomeUnknown())
                    .as("the acquire landed: " + e.getMessage())
                    .isTrue());
  }

  /** Another process (a newer version) rewrites {@code path} in a format this one cannot read. */
  private void rewriteInNewerFormat(String path) {
    try {
      stores
          .store()
          .client()
          .setData()
          .forPath(path, "{\"format\":2}".getBytes(StandardCharsets.UTF_8));
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private boolean exists(String path) {
    try {
      return stores.store().client().checkExists().forPath(path) != null;
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  @Test
  void aPointerTooLargeForOneZooKeeperRequestIsRefusedAndNothingIsStored() {
    PointerStore pointers = stores.store().pointerStore("tck");
    ResourceId resource = ResourceId.of("too/large");
    receipt(pointers.write(token(resource, 1, "a"), OperationId.of("v1"), Pointer.to("1")));
    Pointer huge = new Pointer("2", Map.of("blob", "x".repeat(400 * 1024)));

    assertThatThrownBy(() -> pointers.write(token(resource, 2, "a"), OperationId.of("v2"), huge))
        .isInstanceOf(StoreException.class)
        .hasMessageContaining("more than " + ZkPointerStore.MAX_TRANSACTION_BYTES)
        .hasMessageContaining("jute.maxbuffer")
        .satisfies(e -> assertThat(((StoreException) e).outcomeUnknown()).isFalse());
    assertThat(operations(pointers.history(resource, 10))).containsExactly("v1");
    assertThat(pointers.currentEpoch(resource)).isEqualTo(Epoch.of(1));
    assertThat(pointers.lookup(resource, OperationId.of("v2"))).isEmpty();
    // The largest pointer the SPI allows (65 536 three-byte characters) still fits.
    Pointer largest = Pointer.to("\u20ac".repeat(Pointer.MAX_TARGET_LENGTH));
    receipt(pointers.write(token(resource, 2, "a"), OperationId.of("v3"), largest));
    assertThat(pointers.current(resource).orElseThrow().pointer()).isEqualTo(largest);
  }

  @Test
  void aNodeCreatedByHandWhereTheNextVersionGoesIsAnErrorNotAnEndlessRetry() throws Exception {
    PointerStore pointers = stores.store().pointerStore("tck");
    ResourceId resource = ResourceId.of("junk/next-version");
    receipt(pointers.write(token(resource, 1, "a"), OperationId.of("v1"), Pointer.to("1")));
    String junk = stores.store().paths().version("tck", resource, 2);
    stores.store().client().create().forPath(junk, "junk".getBytes(StandardCharsets.UTF_8));

    assertTimeoutPreemptively(
        Duration.ofSeconds(30),
        () ->
            assertThatThrownBy(
                    () ->
                        pointers.write(
                            token(resource, 1, "a"), OperationId.of("v2"), Pointer.to("2")))
                .isInstanceOf(StoreException.class)
                .hasMessageContaining("did not change")
                .hasMessageContaining("changed outside Fenceline")
                .satisfies(e -> assertThat(((StoreException) e).outcomeUnknown()).isFalse()));
    assertThat(operations(pointers.history(resource, 10))).containsExactly("v1");
  }

  @Test
  void aResetOverNodesDeletedByHandIsAnErrorNotAnEndlessRetry() throws Exception {
    ZkPointerStore pointers = stores.store().pointerStore("tck");
    ResourceId resource = ResourceId.of("junk/deleted-area");
    // Someone deleted the pointers area: creating the control node is refused (no parent).
    stores
        .store()
        .client()
        .delete()
        .deletingChildrenIfNeeded()
        .forPath(stores.store().paths().pointers());

    assertTimeoutPreemptively(
        Duration.ofSeconds(30),
        () ->
            assertThatThrownBy(
                    () -> pointers.resetRegisteredEpoch(resource, Epoch.of(3), "test: junk"))
                .isInstanceOf(StoreException.class)
                .hasMessageContaining("did not change"));
  }

  @Test
  void resourcesWhosePathsNestDoNotShareNodes() {
    PointerStore pointers = stores.store().pointerStore("tck");
    List<ResourceId> nested =
        List.of(
            ResourceId.of("k"),
            ResourceId.of("k/holder"),
            ResourceId.of("k/lease"),
            ResourceId.of("k.json"),
            ResourceId.of("k/tck"));
    for (ResourceId resource : nested) {
      for (int version = 1; version <= 3; version++) {
        receipt(
            pointers.write(
                token(resource, version, "a"),
                OperationId.of("op-" + version),
                Pointer.to(resource + "#" + version)));
      }
      Lease lease =
          stores
              .store()
              .leaseIssuer()
              .tryAcquire(resource, "w", Duration.ofMinutes(1))
              .orElseThrow();
      assertThat(lease.epoch()).isEqualTo(Epoch.of(1));
    }
    for (ResourceId resource : nested) {
      assertThat(pointers.history(resource, 10))
          .extracting(state -> state.pointer().target())
          .containsExactly(resource + "#3", resource + "#2", resource + "#1");
      assertThat(pointers.lookup(resource, OperationId.of("op-1")).orElseThrow().resource())
          .isEqualTo(resource);
      assertThat(pointers.currentEpoch(resource)).isEqualTo(Epoch.of(3));
      assertThat(stores.store().leaseIssuer().status(resource).holder()).contains("w");
    }
  }

  @Test
  void theStoreIdentityIsCreatedOnceAndSharedByEveryClientOfTheRootPath() {
    String id = stores.store().id();
    ZkStore other = stores.open(stores.builder());
    ZkStore elsewhere = stores.open(stores.builder().rootPath(stores.root() + "-other"));

    assertThat(id).matches("zk-[A-Za-z0-9._-]+");
    assertThat(other.id()).isEqualTo(id);
    assertThat(other.pointerStore("x").storeId()).isEqualTo(id);
    assertThat(other.leaseIssuer().id()).isEqualTo(id);
    assertThat(elsewhere.id()).isNotEqualTo(id);
  }

  @Test
  void anUnreadableControlNodeIsAnErrorNeverAnEmptyState() throws Exception {
    PointerStore pointers = stores.store().pointerStore("tck");
    ResourceId resource = ResourceId.of("unreadable");
    receipt(pointers.write(token(resource, 4, "a"), OperationId.of("v1"), Pointer.to("1")));
    String path = stores.store().paths().control(resource);
    for (String content :
        List.of("{not json", "{\"format\":2,\"epoch\":5}", "[]", "{\"format\":1,\"epoch\":-1}")) {
      stores.store().client().setData().forPath(path, content.getBytes(StandardCharsets.UTF_8));

      assertThatThrownBy(() -> pointers.currentEpoch(resource))
          .as(content)
          .isInstanceOf(StoreException.class)
          .hasMessageContaining("Cannot read control node " + path);
      assertThatThrownBy(
              () -> pointers.write(token(resource, 9, "a"), OperationId.of("op"), Pointer.to("x")))
          .as(content)
          .isInstanceOf(StoreException.class);
    }
  }
}
