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

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.Watcher;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The proxy partitions its clients, and only them, from the whole ensemble. */
class ZkProxyTest {

  private static final Duration STATE_TIMEOUT = Duration.ofSeconds(15);

  private ZkEnsemble ensemble;
  private ZkProxy proxy;
  private ZkClients direct;
  private ZkClients proxied;

  @BeforeEach
  void start() {
    ensemble = ZkEnsemble.start();
    proxy = new ZkProxy(ensemble);
    direct = new ZkClients(ensemble.connectString());
    proxied = new ZkClients(proxy.connectString());
  }

  /**
   * The proxy's open connections once they number {@code expected}, or the last count seen when
   * {@link #STATE_TIMEOUT} has passed: a connection that either end closed leaves the count only
   * when its link's thread sees the close.
   */
  private int openConnectionsOnceSettled(int expected) throws InterruptedException {
    long deadline = System.nanoTime() + STATE_TIMEOUT.toNanos();
    while (true) {
      int open = proxy.openConnections();
      if (open == expected || System.nanoTime() > deadline) {
        return open;
      }
      Thread.sleep(10);
    }
  }

  @AfterEach
  void stop() {
    for (AutoCloseable closeable : new AutoCloseable[] {proxied, direct, proxy, ensemble}) {
      if (closeable != null) {
        try {
          closeable.close();
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      }
    }
  }

  @Test
  void aProxiedClientTalksToTheEnsembleThroughTheProxy() throws Exception {
    CuratorFramework client = proxied.start();

    client.create().forPath("/through-proxy");

    assertThat(proxy.openConnections()).isEqualTo(1);
    assertThat(direct.start().checkExists().forPath("/through-proxy")).isNotNull();
  }

  @Test
  void aCutShorterThanTheSessionTimeoutSuspendsOnlyTheProxiedClientAndKeepsItsSession()
      throws Exception {
    CuratorFramework cutOff = proxied.start(Duration.ofSeconds(10));
    CuratorFramework other = direct.start();
    ConnectionStates states = ConnectionStates.of(cutOff);
    cutOff.create().withMode(CreateMode.EPHEMERAL).forPath("/held");
    long session = cutOff.getZookeeperClient().getZooKeeper().getSessionId();

    proxy.cut();

    states.await(ConnectionState.SUSPENDED, STATE_TIMEOUT);
    other.create().forPath("/written-during-cut");
    assertThat(proxy.openConnections()).isZero();
    proxy.heal();
    assertThat(states.await(ConnectionState.RECONNECTED, STATE_TIMEOUT))
        .containsExactly(ConnectionState.SUSPENDED, ConnectionState.RECONNECTED);
    // Reconnected through the proxy, not around it.
    assertThat(openConnectionsOnceSettled(1)).isEqualTo(1);
    assertThat(cutOff.getZookeeperClient().getZooKeeper().getSessionId()).isEqualTo(session);
    cutOff.getZookeeperClient().getZooKeeper().sync("/");
    assertThat(cutOff.checkExists().forPath("/written-during-cut")).isNotNull();
    assertThat(other.checkExists().forPath("/held").getEphemeralOwner()).isEqualTo(session);
  }

  @Test
  void aCutLongerThanTheSessionTimeoutLetsTheEnsembleExpireTheSession() throws Exception {
    CuratorFramework cutOff = proxied.start(Duration.ofSeconds(2));
    CuratorFramework other = direct.start();
    ConnectionStates states = ConnectionStates.of(cutOff);
    cutOff.create().withMode(CreateMode.EPHEMERAL).forPath("/held");
    long session = cutOff.getZookeeperClient().getZooKeeper().getSessionId();
    CountDownLatch deleted = new CountDownLatch(1);
    other
        .checkExists()
        .usingWatcher(
            (Watcher)
                event -> {
                  if (event.getType() == Watcher.Event.EventType.NodeDeleted) {
                    deleted.countDown();
                  }
                })
        .forPath("/held");

    proxy.cut();

    states.await(ConnectionState.SUSPENDED, STATE_TIMEOUT);
    assertThat(deleted.await(STATE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS))
        .as("the ensemble expired the cut-off session and deleted its ephemeral node")
        .isTrue();
    proxy.heal();
    assertThat(states.await(ConnectionState.RECONNECTED, STATE_TIMEOUT))
        .containsSubsequence(
            ConnectionState.SUSPENDED, ConnectionState.LOST, ConnectionState.RECONNECTED);
    assertThat(cutOff.getZookeeperClient().getZooKeeper().getSessionId())
        .isNotEqualTo(session)
        .isNotZero();
    assertThat(cutOff.checkExists().forPath("/held")).isNull();
    // The connection the ensemble closed for the expired session is dropped by its link's thread
    // a moment later.
    assertThat(openConnectionsOnceSettled(1)).isEqualTo(1);
  }
}
