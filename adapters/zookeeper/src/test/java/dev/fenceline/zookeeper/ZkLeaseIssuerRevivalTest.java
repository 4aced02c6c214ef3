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

import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.Lease;
import dev.fenceline.spi.LeaseLostException;
import dev.fenceline.spi.LeaseStatus;
import dev.fenceline.spi.ResourceId;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.retry.RetryNTimes;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.OpResult;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.client.ZKClientConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A renewal decided while the lease was held but whose transaction lands after the lease expired by
 * the ensemble's clock (nobody acquired meanwhile, so the versioned write succeeds) must not bring
 * the lease back: the renewal is undone and the holder is told the lease is lost.
 */
class ZkLeaseIssuerRevivalTest {

  private static final ResourceId RESOURCE = ResourceId.of("report");

  private ZkTestStores stores;
  private CuratorFramework client;
  private volatile CountDownLatch multiReached;
  private volatile CountDownLatch multiGoesOn;

  @BeforeEach
  void open() {
    stores = new ZkTestStores(ZkTestStores.shared(), "revival");
    client =
        InterceptedClient.start(
            stores.ensemble().connectString(),
            new RetryNTimes(3, 10),
            (connect, sessionTimeout, watcher, canBeReadOnly, config) ->
                new HeldBackMulti(connect, sessionTimeout, watcher, canBeReadOnly, config));
  }

  @AfterEach
  void close() {
    CountDownLatch goOn = multiGoesOn;
    if (goOn != null) {
      goOn.countDown();
    }
    stores.close();
    client.close();
  }

  @Test
  void aRenewalThatLandsAfterTheExpiryIsUndoneAndTheLeaseIsLost() throws Exception {
    ZkStore store = stores.open(ZkStore.builder(client).rootPath(stores.root()));
    Lease lease =
        store.leaseIssuer().tryAcquire(RESOURCE, "a", Duration.ofMillis(1500)).orElseThrow();
    multiReached = new CountDownLatch(1);
    multiGoesOn = new CountDownLatch(1);

    CompletableFuture<Lease> renewal =
        CompletableFuture.supplyAsync(
            () -> store.leaseIssuer().renew(lease, Duration.ofMinutes(1)),
            runnable -> new Thread(runnable, "renewing").start());
    assertThat(multiReached.await(30, TimeUnit.SECONDS)).as("the renewal's transaction").isTrue();
    // Held back after the decision, until the lease expired by the ensemble's clock.
    ZkStore observer = stores.store();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (observer.leaseIssuer().status(RESOURCE).held()) {
      assertThat(System.nanoTime()).as("the lease's expiry").isLessThan(deadline);
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
    }
    multiGoesOn.countDown();

    assertThatThrownBy(() -> renewal.get(30, TimeUnit.SECONDS))
        .hasCauseInstanceOf(LeaseLostException.class)
        .hasMessageContaining("by the ensemble's clock while the renewal was on its way")
        .hasMessageContaining("the renewal that landed after it was undone");
    LeaseStatus after = observer.leaseIssuer().status(RESOURCE);
    assertThat(after.held()).isFalse();
    assertThat(after.epoch()).isEqualTo(Epoch.of(1));
    Lease next =
        observer.leaseIssuer().tryAcquire(RESOURCE, "b", Duration.ofMinutes(1)).orElseThrow();
    assertThat(next.epoch()).isEqualTo(Epoch.of(2));
  }

  /** Holds the first transaction sent while armed until the test lets it go on. */
  private final class HeldBackMulti extends ZooKeeper {
    HeldBackMulti(
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
      CountDownLatch reached = multiReached;
      CountDownLatch goOn = multiGoesOn;
      if (reached != null && reached.getCount() > 0 && goOn != null) {
        reached.countDown();
        if (!goOn.await(60, TimeUnit.SECONDS)) {
          throw new AssertionError("the test did not let the transaction go on");
        }
      }
      return super.multi(ops);
    }
  }
}
