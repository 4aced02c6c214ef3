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

import dev.fenceline.spi.AlreadyApplied;
import dev.fenceline.spi.Applied;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingStep;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.Lease;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Pointer;
import dev.fenceline.spi.PointerState;
import dev.fenceline.spi.Receipt;
import dev.fenceline.spi.RejectedStale;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StoreException;
import dev.fenceline.spi.WriteOutcome;
import dev.fenceline.staging.StagedDestination;
import dev.fenceline.tck.Concurrently;
import dev.fenceline.tck.PausePoints;
import dev.fenceline.vfs.VfsBlobStore;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.curator.test.InstanceSpec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ensemble loses its leader or restarts as a whole while Fenceline works on it (R1, R3, R5, R11
 * d). An ensemble of its own: these tests kill servers.
 */
class ZkFailoverTest {

  private static ZkEnsemble ensemble;
  private ZkTestStores stores;
  @TempDir Path directory;

  @BeforeAll
  static void startEnsemble() {
    ensemble = ZkEnsemble.start();
  }

  @AfterAll
  static void stopEnsemble() {
    ensemble.close();
  }

  @BeforeEach
  void open() {
    ensemble.awaitAllServing();
    stores = new ZkTestStores(ensemble, "failover");
  }

  @AfterEach
  void close() {
    stores.close();
  }

  /** What the writers saw, shared by their threads. */
  private static final class Journal {
    final List<Epoch> granted = Collections.synchronizedList(new ArrayList<>());
    final Map<String, Receipt> acknowledged = new ConcurrentHashMap<>();
    final Set<String> unknown = ConcurrentHashMap.newKeySet();
    final Set<String> failedKnown = ConcurrentHashMap.newKeySet();
    final Set<String> rejected = ConcurrentHashMap.newKeySet();
    final AtomicInteger storeErrors = new AtomicInteger();

    /** Counted down by the first failed steps of the writers. */
    final CountDownLatch failures = new CountDownLatch(4);
  }

  @Test
  void
      r1_theLeaderKilledWhileWritersRunHandsOutNoEpochTwiceLosesNoAcknowledgedSwapAndEveryUnknownOutcomeIsResolvedByLookup() {
    ResourceId resource = ResourceId.of("failover/contended");
    Journal journal = new Journal();
    AtomicBoolean stop = new AtomicBoolean();
    CountDownLatch beforeKill = new CountDownLatch(12);
    CountDownLatch afterKill = new CountDownLatch(12);
    AtomicBoolean killed = new AtomicBoolean();
    int writers = 4;
    List<CompletableFuture<Void>> running = new ArrayList<>();
    for (int w = 0; w < writers; w++) {
      String holder = "writer-" + w;
      // One client (session) per writer, as separate processes would have. Half of them give up
      // on a lost connection within about a second, so steps fail while the leader is gone.
      ZkStore own =
          stores.open(
              w % 2 == 0
                  ? stores.builder()
                  : stores.builder().connectionTimeout(Duration.ofMillis(150)));
      running.add(
          Concurrently.start(
              holder,
              () -> {
                write(own, resource, holder, journal, stop, killed, beforeKill, afterKill);
                return null;
              }));
    }

    // And one writer whose transaction is on its way while the leader dies: paused right before
    // it, resumed right after the kill, with a client that gives up within about a second.
    ResourceId inFlight = ResourceId.of("failover/in-flight");
    PausePoints pauses = new PausePoints();
    ZkStore flying = stores.open(stores.builder().connectionTimeout(Duration.ofMillis(150)));
    Lease flyingLease =
        flying.leaseIssuer().tryAcquire(inFlight, "flying", Duration.ofMinutes(1)).orElseThrow();
    PausePoints.Pause beforeCommit = pauses.pauseAt(FencingStep.AFTER_APPLY, "flying");
    CompletableFuture<WriteOutcome> flyingWrite =
        Concurrently.start(
            "flying",
            () ->
                flying
                    .pointerStore("site", pauses)
                    .write(flyingLease.token(), OperationId.of("flying-1"), Pointer.to("f")));
    beforeCommit.awaitReached();

    await(beforeKill);
    InstanceSpec leader = ensemble.killLeader();
    killed.set(true);
    // The two others elect a new leader and the writers go on; then that leader dies too and the
    // ensemble has no quorum: steps in flight fail, their outcome unknown.
    InstanceSpec second = ensemble.killLeader();
    beforeCommit.resume();
    Optional<WriteOutcome> flyingOutcome;
    try {
      flyingOutcome = Optional.of(flyingWrite.join());
    } catch (java.util.concurrent.CompletionException e) {
      assertThat(e.getCause()).isInstanceOf(StoreException.class);
      assertThat(((StoreException) e.getCause()).outcomeUnknown()).isTrue();
      flyingOutcome = Optional.empty();
    }
    await(journal.failures);
    ensemble.restart(leader);
    ensemble.restart(second);
    ensemble.awaitAllServing();
    await(afterKill);
    stop.set(true);
    running.forEach(Concurrently::await);

    // No epoch was handed out twice, and they were handed out in order per grant.
    assertThat(journal.granted).doesNotHaveDuplicates();
    ZkStore reader = stores.open(stores.builder());
    Epoch newest = reader.leaseIssuer().status(resource).epoch();
    assertThat(journal.granted).allSatisfy(epoch -> assertThat(epoch).isLessThanOrEqualTo(newest));
    // Every acknowledged swap is there, with the receipt its writer got.
    var pointers = reader.pointerStore("site");
    for (Map.Entry<String, Receipt> acknowledged : journal.acknowledged.entrySet()) {
      assertThat(pointers.lookup(resource, OperationId.of(acknowledged.getKey())))
          .as("acknowledged %s", acknowledged.getKey())
          .contains(acknowledged.getValue());
    }
    // Every unknown outcome is decided by lookup, and the history is exactly what was applied.
    Set<String> applied = new HashSet<>(journal.acknowledged.keySet());
    for (String operation : journal.unknown) {
      pointers.lookup(resource, OperationId.of(operation)).ifPresent(r -> applied.add(operation));
    }
    for (String operation : journal.failedKnown) {
      assertThat(pointers.lookup(resource, OperationId.of(operation)))
          .as("failed before commit: %s", operation)
          .isEmpty();
    }
    List<PointerState> history = pointers.history(resource, 10_000);
    assertThat(history)
        .extracting(PointerState::operation)
        .extracting(OperationId::value)
        .containsExactlyInAnyOrderElementsOf(applied);
    for (int i = 0; i < history.size(); i++) {
      assertThat(history.get(i).version()).isEqualTo(history.size() - i);
      if (i + 1 < history.size()) {
        assertThat(history.get(i).epoch()).isGreaterThanOrEqualTo(history.get(i + 1).epoch());
      }
    }
    // The in-flight transaction: acknowledged and there, or unknown and decided by lookup.
    Optional<Receipt> flown =
        reader.pointerStore("site").lookup(inFlight, OperationId.of("flying-1"));
    flyingOutcome.ifPresent(outcome -> assertThat(flown).contains(((Applied) outcome).receipt()));
    assertThat(reader.pointerStore("site").history(inFlight, 10))
        .hasSize(flown.isPresent() ? 1 : 0);
    System.out.printf(
        "in flight during the kill: %s; lookup afterwards: %s%n",
        flyingOutcome.map(Object::toString).orElse("outcome unknown"),
        flown.isPresent() ? "applied" : "not applied");
    System.out.printf(
        "leader kill: %d epochs granted, %d swaps acknowledged, %d unknown (%d applied), %d failed"
            + " before commit, %d rejected stale, %d other store errors%n",
        journal.granted.size(),
        journal.acknowledged.size(),
        journal.unknown.size(),
        journal.unknown.stream().filter(applied::contains).count(),
        journal.failedKnown.size(),
        journal.rejected.size(),
        journal.storeErrors.get());
  }

  /** One writer: acquire, publish one pointer, release; until stopped. */
  private static void write(
      ZkStore store,
      ResourceId resource,
      String holder,
      Journal journal,
      AtomicBoolean stop,
      AtomicBoolean killed,
      CountDownLatch beforeKill,
      CountDownLatch afterKill) {
    ZkLeaseIssuer issuer = store.leaseIssuer();
    var pointers = store.pointerStore("site");
    Random random = new Random(holder.hashCode());
    int n = 0;
    while (!stop.get()) {
      Optional<Lease> lease;
      try {
        lease = issuer.tryAcquire(resource, holder, Duration.ofSeconds(5));
      } catch (StoreException e) {
        journal.storeErrors.incrementAndGet();
        journal.failures.countDown();
        continue;
      }
      if (lease.isEmpty()) {
        // Another writer holds it: a short pause keeps four spinning writers off the ensemble.
        java.util.concurrent.locks.LockSupport.parkNanos(
            TimeUnit.MILLISECONDS.toNanos(1 + random.nextInt(3)));
        continue;
      }
      journal.granted.add(lease.get().epoch());
      String operation = holder + "-" + n++;
      try {
        WriteOutcome outcome =
            pointers.write(lease.get().token(), OperationId.of(operation), Pointer.to(operation));
        if (outcome instanceof Applied applied) {
          journal.acknowledged.put(operation, applied.receipt());
          (killed.get() ? afterKill : beforeKill).countDown();
        } else if (outcome instanceof RejectedStale) {
          journal.rejected.add(operation);
        } else {
          throw new AssertionError("a new operation was answered " + outcome);
        }
      } catch (StoreException e) {
        (e.outcomeUnknown() ? journal.unknown : journal.failedKnown).add(operation);
        journal.failures.countDown();
      }
      try {
        issuer.release(lease.get());
      } catch (StoreException e) {
        journal.storeErrors.incrementAndGet();
        journal.failures.countDown();
      }
    }
  }

  @Test
  void aStagedPublishSurvivesALeaderKillBetweenStagingAndTheSwap() throws IOException {
    // Each retry waits up to the connection timeout for the new leader: elections here took 1 s
    // to over 11 s (a loaded 2-core machine), longer than the 5 s of the other tests' stores.
    ZkStore store =
        stores.open(
            stores
                .builder()
                .connectionTimeout(Duration.ofSeconds(15))
                .sessionTimeout(ZkClients.SESSION_TIMEOUT));
    PausePoints pauses = new PausePoints();
    try (VfsBlobStore blobs = VfsBlobStore.open(directory.resolve("site").toUri().toString())) {
      StagedDestination staged =
          StagedDestination.builder(blobs, store.pointerStore("site", pauses)).build();
      ResourceId resource = ResourceId.of("failover/staged");
      Lease lease =
          store.leaseIssuer().tryAcquire(resource, "worker-a", Duration.ofMinutes(1)).orElseThrow();
      staged.register(lease.token());
      byte[] payload = new byte[256 * 1024];
      new Random(7).nextBytes(payload);
      // The pointer store's first step comes after the payload was staged.
      PausePoints.Pause staging = pauses.pauseAt(FencingStep.BEFORE_LOCK, "worker-a");
      CompletableFuture<WriteOutcome> publish =
          Concurrently.start(
              "publisher",
              () ->
                  staged.write(
                      lease.token(),
                      OperationId.of("publish-1"),
                      new ByteArrayInputStream(payload)));
      staging.awaitReached();

      InstanceSpec leader = ensemble.killLeader();
      WriteOutcome outcome;
      try {
        staging.resume(); // the swap runs while the two others elect a new leader
        outcome = Concurrently.await(publish);
      } finally {
        ensemble.restart(leader); // also when the publish failed: the next test needs all three
      }

      assertThat(outcome).isInstanceOf(Applied.class);
      Receipt receipt = ((Applied) outcome).receipt();
      assertThat(receipt.epoch()).isEqualTo(lease.epoch());
      try (InputStream published = staged.openVerified(resource)) {
        assertThat(published.readAllBytes()).isEqualTo(payload);
      }
      ZkStore other = stores.open(stores.builder());
      assertThat(other.pointerStore("site").lookup(resource, OperationId.of("publish-1")))
          .contains(receipt);
      assertThat(other.pointerStore("site").history(resource, 10)).hasSize(1);
      assertThat(
              staged.write(
                  lease.token(), OperationId.of("publish-1"), new ByteArrayInputStream(payload)))
          .isEqualTo(new AlreadyApplied(receipt));
    }
  }

  @Test
  void r11d_aFullEnsembleRestartKeepsEveryEpochPointerAndReceipt() {
    ZkStore before = stores.store();
    Map<ResourceId, Epoch> epochs = new HashMap<>();
    Map<ResourceId, Receipt> receipts = new HashMap<>();
    for (int r = 0; r < 5; r++) {
      ResourceId resource = ResourceId.of("restart/r" + r);
      Lease last = null;
      for (int i = 0; i <= r; i++) {
        last =
            before.leaseIssuer().tryAcquire(resource, "w" + i, Duration.ofMinutes(1)).orElseThrow();
        WriteOutcome outcome =
            before
                .pointerStore("site")
                .write(last.token(), OperationId.of("op-" + i), Pointer.to("t" + i));
        receipts.put(resource, ((Applied) outcome).receipt());
        assertThat(before.leaseIssuer().release(last)).isTrue();
      }
      epochs.put(resource, last.epoch());
    }
    List<StoreException> whileDown = new ArrayList<>();

    stores.restart(
        () -> {
          // Nothing can be decided while every server is down, and nothing is half-written.
          try {
            ZkStore.builder(ensemble.connectString())
                .rootPath(stores.root())
                .connectionTimeout(Duration.ofMillis(300))
                .build()
                .close();
          } catch (StoreException e) {
            whileDown.add(e);
          }
        });

    assertThat(whileDown)
        .singleElement()
        .satisfies(e -> assertThat(e).hasMessageContaining("Cannot connect to ZooKeeper"));
    ZkStore after = stores.store();
    for (Map.Entry<ResourceId, Epoch> entry : epochs.entrySet()) {
      ResourceId resource = entry.getKey();
      assertThat(after.leaseIssuer().status(resource).epoch()).isEqualTo(entry.getValue());
      assertThat(after.pointerStore("site").currentEpoch(resource)).isEqualTo(entry.getValue());
      Receipt receipt = receipts.get(resource);
      assertThat(after.pointerStore("site").lookup(resource, receipt.operation()))
          .contains(receipt);
      assertThat(after.pointerStore("site").history(resource, 100))
          .hasSize((int) entry.getValue().value());
      Lease next =
          after.leaseIssuer().tryAcquire(resource, "w-after", Duration.ofMinutes(1)).orElseThrow();
      assertThat(next.epoch()).isEqualTo(entry.getValue().next());
      FencingToken stale = new FencingToken(after.id(), resource, entry.getValue(), "w-stale");
      after.pointerStore("site").register(next.token());
      assertThat(after.pointerStore("site").write(stale, OperationId.of("late"), Pointer.to("x")))
          .isEqualTo(new RejectedStale(resource, entry.getValue(), next.epoch()));
    }
  }

  private static void await(CountDownLatch latch) {
    try {
      assertThat(latch.await(PausePoints.TIMEOUT.toSeconds(), TimeUnit.SECONDS))
          .as("writers made progress")
          .isTrue();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }
}
