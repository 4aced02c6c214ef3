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
package dev.fenceline.chaos.backends;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fenceline.config.FencelineConfig;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StoreException;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.InstanceSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ZooKeeperBackendTest {

  @TempDir Path dir;

  @Test
  void publishesThroughTheYamlAndKeepsEpochsAndReceiptsAcrossALeaderKill() throws Exception {
    try (ZooKeeperBackend backend = ZooKeeperBackend.start(dir.resolve("zk"))) {
      Path yaml = backend.writeConfig(dir);
      try (FencelineConfig config = FencelineConfig.load(yaml)) {
        Probe probe = new Probe(config, dir.resolve("payloads"));
        Probe.Published before = probe.publishNew("files", "r0", "job-1-0");

        InstanceSpec leader = backend.leader();
        String what = backend.storeFaults().inject("leader-kill", new Random(7));
        assertThat(what).contains("server " + leader.getServerId());
        assertThat(ZooKeeperBackend.mode(leader)).isEqualTo("down");
        // The first call after the kill stalls (or fails) while the two others elect a leader;
        // the ensemble keeps a quorum, so calls work again without a heal.
        Probe.Timed first =
            Probe.time(
                () ->
                    config
                        .fenceline()
                        .tryAcquire(ResourceId.of("r-during"))
                        .ifPresent(l -> l.close()));
        assertThat(first.thrown())
            .as(what)
            .satisfiesAnyOf(
                t -> assertThat(t).isNull(), t -> assertThat(t).isInstanceOf(StoreException.class));
        long working =
            Probe.awaitRecovery(
                () ->
                    config
                        .fenceline()
                        .tryAcquire(ResourceId.of("r-during"))
                        .ifPresent(l -> l.close()),
                20_000);
        InstanceSpec newLeader = backend.leader();
        assertThat(newLeader).isNotEqualTo(leader);
        assertThatThrownBy(() -> backend.storeFaults().inject("leader-kill", new Random(8)))
            .isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("heal");

        backend.storeFaults().heal();
        assertThat(ZooKeeperBackend.mode(leader)).isIn("leader", "follower");
        System.out.printf(
            "zookeeper leader-kill: %s; first call %d ms (%s), calls work %d ms after the kill%n",
            what,
            first.millis(),
            first.thrown() == null ? "ok" : first.thrown().getClass().getSimpleName(),
            working);
        // The restarted server has the data committed before and during its absence.
        assertThat(childrenOn(leader, "/fenceline-chaos")).isNotEmpty();
        probe.assertSurvivedAndPublishAgain("files", before, "job-1-1");
      }
      assertThatThrownBy(() -> backend.storeFaults().inject("store-kill", new Random(1)))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("leader-kill");
    }
  }

  private static List<String> childrenOn(InstanceSpec server, String path) throws Exception {
    try (CuratorFramework client =
        CuratorFrameworkFactory.newClient(
            "127.0.0.1:" + server.getPort(), 4_000, 2_000, new RetryOneTime(100))) {
      client.start();
      assertThat(client.blockUntilConnected(10, TimeUnit.SECONDS)).isTrue();
      return client.getChildren().forPath(path);
    }
  }
}
