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
package dev.fenceline.benchmarks;

import dev.fenceline.zookeeper.ZkStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryNTimes;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingCluster;
import org.apache.curator.utils.ZookeeperFactory;
import org.apache.zookeeper.Version;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.client.ZKClientConfig;

/**
 * A three-server ZooKeeper ensemble in this JVM (curator-test {@link TestingCluster}, each server
 * with its own data directory under the work directory) and the one Curator client every ZooKeeper
 * row shares: the raw {@code setData}, Curator's {@code InterProcessSemaphoreMutex} and the {@link
 * ZkStore} (built on that client with {@link ZkStore#builder(CuratorFramework)}), so connection
 * handling costs the same on every row. The client counts its requests ({@link CountingZooKeeper}).
 */
final class ZooKeeperServers implements AutoCloseable {

  /** The ZkStore's root; the raw rows use their own paths beside it. */
  static final String ROOT = "/fenceline-bench";

  private static final int SERVERS = 3;

  private final TestingCluster cluster;
  private final CuratorFramework client;
  private final ZkStore store;
  private final LongAdder requests;

  private ZooKeeperServers(
      TestingCluster cluster, CuratorFramework client, ZkStore store, LongAdder requests) {
    this.cluster = cluster;
    this.client = client;
    this.store = store;
    this.requests = requests;
  }

  /** Starts the ensemble with data under {@code directory} and connects the shared client. */
  static ZooKeeperServers start(Path directory) throws Exception {
    List<InstanceSpec> specs = new ArrayList<>();
    for (int id = 1; id <= SERVERS; id++) {
      Path data = Files.createDirectories(directory.resolve("server-" + id));
      // Ports -1: curator-test picks free ones. Data kept until the work directory goes.
      specs.add(new InstanceSpec(data.toFile(), -1, -1, -1, false, id));
    }
    TestingCluster cluster = new TestingCluster(specs);
    CuratorFramework client = null;
    try {
      cluster.start();
      LongAdder requests = new LongAdder();
      client =
          CuratorFrameworkFactory.builder()
              .connectString(cluster.getConnectString())
              .sessionTimeoutMs((int) ZkStore.DEFAULT_SESSION_TIMEOUT.toMillis())
              .connectionTimeoutMs((int) ZkStore.DEFAULT_CONNECTION_TIMEOUT.toMillis())
              .retryPolicy(new RetryNTimes(3, 100))
              .zookeeperFactory(new Counting(requests))
              .build();
      client.start();
      if (!client.blockUntilConnected(60, TimeUnit.SECONDS)) {
        throw new IllegalStateException(
            "Cannot connect to the ZooKeeper ensemble at "
                + cluster.getConnectString()
                + " within 60 s");
      }
      ZkStore store = ZkStore.builder(client).rootPath(ROOT).build();
      return new ZooKeeperServers(cluster, client, store, requests);
    } catch (Exception e) {
      if (client != null) {
        client.close();
      }
      cluster.close();
      throw e;
    }
  }

  CuratorFramework client() {
    return client;
  }

  ZkStore store() {
    return store;
  }

  /** Requests the shared client has sent so far. */
  long requests() {
    return requests.sum();
  }

  /** What the report shows about the ensemble. */
  Map<String, String> settings() {
    Map<String, String> settings = new LinkedHashMap<>();
    settings.put("version", Version.getFullVersion().replaceAll("[-,].*", "").trim());
    settings.put("servers", SERVERS + " in this JVM (curator-test TestingCluster), one disk");
    // ZooKeeper forces its transaction log to disk before it acknowledges unless this is "no".
    settings.put("zookeeper.forceSync", System.getProperty("zookeeper.forceSync", "yes"));
    settings.put("client", "one Curator client (session 15 s) shared by every row");
    return settings;
  }

  @Override
  public void close() throws IOException {
    try {
      store.close();
      client.close();
    } finally {
      cluster.close();
    }
  }

  /** Makes the shared client's ZooKeeper handles (one per session) counting ones. */
  private record Counting(LongAdder requests) implements ZookeeperFactory {
    @Override
    public ZooKeeper newZooKeeper(
        String connect, int sessionTimeout, Watcher watcher, boolean canBeReadOnly)
        throws Exception {
      return newZooKeeper(connect, sessionTimeout, watcher, canBeReadOnly, new ZKClientConfig());
    }

    @Override
    public ZooKeeper newZooKeeper(
        String connect,
        int sessionTimeout,
        Watcher watcher,
        boolean canBeReadOnly,
        ZKClientConfig config)
        throws Exception {
      return new CountingZooKeeper(
          connect,
          sessionTimeout,
          watcher,
          canBeReadOnly,
          config == null ? new ZKClientConfig() : config,
          requests);
    }
  }
}
