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

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.test.InstanceSpec;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The ensemble fixture does to a real ensemble what its methods say. */
class ZkEnsembleTest {

  private ZkEnsemble ensemble;
  private ZkClients clients;

  @BeforeEach
  void startEnsemble() {
    ensemble = ZkEnsemble.start();
    clients = new ZkClients(ensemble.connectString());
  }

  @AfterEach
  void stopEnsemble() {
    if (clients != null) {
      clients.close();
    }
    if (ensemble != null) {
      ensemble.close();
    }
  }

  @Test
  void startsThreeServersOneOfThemLeader() throws Exception {
    InstanceSpec leader = ensemble.leader();

    assertThat(ensemble.servers()).hasSize(3).contains(leader);
    for (InstanceSpec server : ensemble.servers()) {
      assertThat(ensemble.mode(server)).isEqualTo(server.equals(leader) ? "leader" : "follower");
    }
    CuratorFramework client = clients.start();
    client.create().forPath("/written", "1".getBytes(UTF_8));
    assertThat(client.getData().forPath("/written")).asString(UTF_8).isEqualTo("1");
  }

  @Test
  void everyServerListensOnThreePortsOfItsOwnBelowTheEphemeralRange() {
    List<Integer> ports = new ArrayList<>();
    for (InstanceSpec server : ensemble.servers()) {
      ports.addAll(List.of(server.getPort(), server.getElectionPort(), server.getQuorumPort()));
    }

    assertThat(ports).hasSize(9).doesNotHaveDuplicates().allMatch(port -> port < 32_768);
    assertThat(ServerPorts.take(50)).doesNotHaveDuplicates().doesNotContainAnyElementsOf(ports);
  }

  @Test
  void killingTheLeaderElectsAnotherAndTheKilledServerRejoinsAsFollower() throws Exception {
    CuratorFramework client = clients.start();
    client.create().forPath("/before", "kept".getBytes(UTF_8));

    InstanceSpec killed = ensemble.killLeader();

    assertThat(ensemble.mode(killed)).isEqualTo("down");
    // Curator retries the connection loss until the two others have elected a leader.
    client.create().forPath("/after");
    assertThat(ensemble.leader()).isNotEqualTo(killed);

    ensemble.restart(killed);
    ensemble.awaitServing(killed);

    assertThat(ensemble.mode(killed)).isEqualTo("follower");
    try (ZkClients direct = new ZkClients(killed.getHostname() + ":" + killed.getPort())) {
      CuratorFramework onKilled = direct.start();
      onKilled.getZookeeperClient().getZooKeeper().sync("/");
      assertThat(onKilled.getData().forPath("/before")).asString(UTF_8).isEqualTo("kept");
    }
  }

  @Test
  void aFullRestartKeepsPersistentNodesWithTheirDataAndVersion() throws Exception {
    CuratorFramework before = clients.start();
    before.create().forPath("/epoch", "7".getBytes(UTF_8));
    before.setData().withVersion(0).forPath("/epoch", "8".getBytes(UTF_8));
    Stat written = before.setData().withVersion(1).forPath("/epoch", "9".getBytes(UTF_8));
    List<String> modesWhileDown = new ArrayList<>();

    ensemble.restartAll(
        () -> ensemble.servers().forEach(server -> modesWhileDown.add(ensemble.mode(server))));

    assertThat(modesWhileDown).containsExactly("down", "down", "down");
    CuratorFramework after = clients.start();
    Stat read = new Stat();
    assertThat(after.getData().storingStatIn(read).forPath("/epoch"))
        .asString(UTF_8)
        .isEqualTo("9");
    assertThat(read.getVersion()).isEqualTo(2);
    assertThat(read.getMzxid()).isEqualTo(written.getMzxid());
    assertThat(read.getMtime()).isEqualTo(written.getMtime());
    // The version goes on from where it was, so a versioned write after the restart is exact.
    assertThat(after.setData().withVersion(2).forPath("/epoch", "10".getBytes(UTF_8)).getVersion())
        .isEqualTo(3);
  }

  @Test
  void expireSessionMakesTheEnsembleDropTheSessionAndCuratorOpensANewOne() throws Exception {
    CuratorFramework owner = clients.start();
    CuratorFramework observer = clients.start();
    ConnectionStates states = ConnectionStates.of(owner);
    owner.create().withMode(CreateMode.EPHEMERAL).forPath("/owned");
    long session = owner.getZookeeperClient().getZooKeeper().getSessionId();

    ensemble.expireSession(owner);

    // Gone on the ensemble at once: no waiting for the session timeout.
    observer.getZookeeperClient().getZooKeeper().sync("/");
    assertThat(observer.checkExists().forPath("/owned")).isNull();
    assertThat(states.await(ConnectionState.RECONNECTED, Duration.ofSeconds(15)))
        .containsSubsequence(ConnectionState.LOST, ConnectionState.RECONNECTED);
    assertThat(owner.getZookeeperClient().getZooKeeper().getSessionId())
        .isNotEqualTo(session)
        .isNotZero();
    owner.create().withMode(CreateMode.EPHEMERAL).forPath("/owned");
  }
}
