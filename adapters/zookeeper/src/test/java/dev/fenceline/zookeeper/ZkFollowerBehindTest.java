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

import dev.fenceline.spi.Applied;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Pointer;
import dev.fenceline.spi.PointerState;
import dev.fenceline.spi.PointerStore;
import dev.fenceline.spi.Receipt;
import dev.fenceline.spi.RegisterOutcome;
import dev.fenceline.spi.Registered;
import dev.fenceline.spi.RejectedStale;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.WriteOutcome;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.retry.BoundedExponentialBackoffRetry;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.OpResult;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Reads that decide an answer, served by a real follower that is behind the leader within the
 * client's own session ({@link FollowerBehindEnsemble}: the leader's commits are held on their way
 * to server 1 while another client's write commits through the leader and the other follower). A
 * plain read on server 1 then shows the state before that write; the pointer store's read barrier
 * (a check-only transaction, answered by server 1 only after it applied everything committed before
 * it) makes the deciding read see it.
 *
 * <p>Each test: the step under test starts on server 1 while it is behind; the link is released as
 * soon as the step either answered (from server 1's old state, without a transaction) or sent a
 * transaction (which server 1 cannot answer before the release). Every wait is bounded.
 *
 * <p>With {@code ZkStore.barrier} reduced to a plain read, the registration test answers {@code
 * Registered} for the superseded epoch and the lookup test "never applied"; the swap test stays
 * green (its verdict is the versioned transaction's).
 */
class ZkFollowerBehindTest {

  private static final Duration STEP_TIMEOUT = Duration.ofSeconds(10);
  private static final AtomicLong ROOTS = new AtomicLong();

  private static FollowerBehindEnsemble ensemble;
  private static ExecutorService steps;

  /** Completed by the follower client's next transaction, when it is sent. */
  private final AtomicReference<CompletableFuture<Void>> nextTransaction =
      new AtomicReference<>(new CompletableFuture<>());

  private ZkClients others;
  private CuratorFramework followerClient;
  private ZkStore follower;
  private ZkStore writer;

  @BeforeAll
  static void startEnsemble() {
    ensemble = FollowerBehindEnsemble.start();
    steps = Executors.newCachedThreadPool();
  }

  @AfterAll
  static void stopEnsemble() {
    steps.shutdownNow();
    ensemble.close();
  }

  @BeforeEach
  void open() {
    String root = "/behind-" + Long.toString(System.nanoTime(), 36) + "-" + ROOTS.incrementAndGet();
    others = new ZkClients(ensemble.othersConnectString());
    writer = ZkStore.builder(others.start()).rootPath(root).build();
    followerClient =
        InterceptedClient.startPinned(
            ensemble.followerConnectString(),
            Duration.ofSeconds(20),
            new BoundedExponentialBackoffRetry(100, 1_000, 3),
            (connect, sessionTimeout, watcher, canBeReadOnly, config) ->
                new SignallingTransactions(
                    connect, sessionTimeout, watcher, canBeReadOnly, config));
    follower = ZkStore.builder(followerClient).rootPath(root).build();
  }

  @AfterEach
  void close() {
    ensemble.releaseLeaderToFollower();
    if (follower != null) {
      follower.close();
    }
    if (followerClient != null) {
      followerClient.close();
    }
    if (writer != null) {
      writer.close();
    }
    if (others != null) {
      others.close();
    }
  }

  /**
   * The owner of epoch 5 registers it again (as it does before each batch) on server 1, after a new
   * owner registered epoch 6 through the leader. The answer must be {@code RejectedStale(5, 6)}:
   * {@code Registered} would tell the superseded owner that it owns the resource and has cut off
   * every older owner (R5: never decide ownership on a replica that may be behind). It is given
   * without a transaction (the epoch is the one registered), so only the barrier stands between it
   * and server 1's old state.
   */
  @Test
  void aSupersededOwnersRegistrationOnAFollowerBehindTheLeaderIsRejectedStale() throws Exception {
    ResourceId resource = ResourceId.of("behind/register");
    PointerStore onFollower = follower.pointerStore("site");
    FencingToken superseded = token(resource, 5, "old-owner");
    assertThat(onFollower.register(superseded)).isInstanceOf(Registered.class);

    ensemble.holdLeaderToFollower();
    assertThat(writer.pointerStore("site").register(token(resource, 6, "new-owner")))
        .isInstanceOf(Registered.class);
    requireFollowerBehind(resource);

    Answer<RegisterOutcome> again = whileBehind(() -> onFollower.register(superseded));

    assertThat(again.value())
        .as("epoch 5 registered again on a follower behind the leader, where 6 is registered")
        .isEqualTo(new RejectedStale(resource, Epoch.of(5), Epoch.of(6)));
    assertThat(again.beforeRelease())
        .as("answered only once the follower had applied epoch 6 (after the release)")
        .isFalse();
  }

  /**
   * An operation applied through the leader is looked up on server 1 while it is behind. The lookup
   * must find it: "never applied" is what a caller acts on by doing the operation again (R4, R7),
   * the lost-answer case lookups exist for.
   */
  @Test
  void anOperationAppliedThroughTheLeaderIsFoundByALookupOnAFollowerBehindIt() throws Exception {
    ResourceId resource = ResourceId.of("behind/lookup");
    FencingToken token = token(resource, 1, "worker");
    PointerStore onFollower = follower.pointerStore("site");
    receipt(onFollower.write(token, OperationId.of("first"), Pointer.to("1")));

    ensemble.holdLeaderToFollower();
    Receipt applied =
        receipt(writer.pointerStore("site").write(token, OperationId.of("x"), Pointer.to("x")));
    requireFollowerBehind(resource);

    Answer<Optional<Receipt>> found =
        whileBehind(() -> onFollower.lookup(resource, applied.operation()));

    assertThat(found.value())
        .as("lookup of operation x, applied through the leader, on a follower behind it")
        .contains(applied);
    assertThat(found.beforeRelease()).as("answered only after the release").isFalse();
  }

  /**
   * The superseded owner's swap on server 1 while it is behind. Its answer comes from the
   * transaction, not from the read: the swap is a versioned write, which the leader refuses (the
   * control node moved with epoch 6), and server 1 answers the refusal only after it applied epoch
   * 6, so the next read sees it. This holds with or without the read barrier; it pins that the
   * verdict of a swap never rests on a read that may be behind.
   */
  @Test
  void aSupersededWritersSwapOnAFollowerBehindTheLeaderIsRejectedStaleAndChangesNothing()
      throws Exception {
    ResourceId resource = ResourceId.of("behind/swap");
    PointerStore onFollower = follower.pointerStore("site");
    FencingToken superseded = token(resource, 5, "old-owner");
    receipt(onFollower.write(superseded, OperationId.of("v1"), Pointer.to("1")));

    ensemble.holdLeaderToFollower();
    assertThat(writer.pointerStore("site").register(token(resource, 6, "new-owner")))
        .isInstanceOf(Registered.class);
    requireFollowerBehind(resource);

    Answer<WriteOutcome> swap =
        whileBehind(() -> onFollower.write(superseded, OperationId.of("v2"), Pointer.to("2")));

    assertThat(swap.value())
        .as("epoch 5's swap on a follower behind the leader, where 6 is registered")
        .isEqualTo(new RejectedStale(resource, Epoch.of(5), Epoch.of(6)));
    assertThat(swap.beforeRelease()).as("answered only after the release").isFalse();
    assertThat(writer.pointerStore("site").current(resource))
        .map(PointerState::pointer)
        .contains(Pointer.to("1"));
  }

  // ---------------------------------------------------------------------------------------------

  /** A step's answer, and whether it came before the leader's held commits reached server 1. */
  private record Answer<T>(T value, boolean beforeRelease) {}

  /**
   * Runs {@code step} on server 1 while it is behind, and releases the held link as soon as the
   * step answered or sent a transaction (server 1 cannot answer one before the release).
   */
  private <T> Answer<T> whileBehind(Supplier<T> step) throws Exception {
    CompletableFuture<Void> transactionSent = new CompletableFuture<>();
    nextTransaction.set(transactionSent);
    CompletableFuture<T> answer = CompletableFuture.supplyAsync(step, steps);
    try {
      CompletableFuture.anyOf(answer, transactionSent)
          .handle((result, failure) -> null)
          .get(STEP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      throw new AssertionError(
          "The step on server 1 neither answered nor sent a transaction within " + STEP_TIMEOUT);
    }
    boolean beforeRelease = answer.isDone();
    ensemble.releaseLeaderToFollower();
    return new Answer<>(answer.get(STEP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS), beforeRelease);
  }

  /**
   * Checks the setup, independently of the code under test: a plain read on server 1 shows an older
   * version of the control node than a read through servers 2 and 3.
   */
  private void requireFollowerBehind(ResourceId resource) {
    String control = follower.paths().control(resource);
    int onFollower = version(followerClient, control);
    int committed = version(writer.client(), control);
    assertThat(onFollower)
        .as("control node version on server 1 (held behind) vs. through the leader")
        .isLessThan(committed);
  }

  private static int version(CuratorFramework client, String path) {
    try {
      Stat stat = new Stat();
      client.getData().storingStatIn(stat).forPath(path);
      return stat.getVersion();
    } catch (Exception e) {
      throw new IllegalStateException("Cannot read " + path, e);
    }
  }

  private FencingToken token(ResourceId resource, long epoch, String holder) {
    return new FencingToken(writer.id(), resource, Epoch.of(epoch), holder);
  }

  private static Receipt receipt(WriteOutcome outcome) {
    assertThat(outcome).isInstanceOf(Applied.class);
    return ((Applied) outcome).receipt();
  }

  /** A handle that signals {@link #nextTransaction} when it sends a transaction. */
  private final class SignallingTransactions extends ZooKeeper {
    SignallingTransactions(
        String connect,
        int sessionTimeout,
        Watcher watcher,
        boolean canBeReadOnly,
        ZKClientConfig config)
        throws java.io.IOException {
      super(connect, sessionTimeout, watcher, canBeReadOnly, config);
    }

    @Override
    public List<OpResult> multi(Iterable<Op> ops) throws InterruptedException, KeeperException {
      nextTransaction.get().complete(null);
      return super.multi(ops);
    }
  }
}
