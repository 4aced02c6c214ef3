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

import java.io.IOException;
import java.time.Duration;
import org.apache.curator.RetryPolicy;
import org.apache.curator.ensemble.fixed.FixedEnsembleProvider;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.utils.ZookeeperFactory;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.client.ZKClientConfig;

/**
 * A started Curator client (6 s session, 5 s connection timeout) whose ZooKeeper handles a test
 * makes itself, usually a subclass that intercepts requests (counts them, loses answers, plays a
 * lagging server). Curator makes a new handle for every new session.
 */
final class InterceptedClient {

  /** Makes one ZooKeeper handle, as {@code new ZooKeeper(connect, ..., config)} would. */
  interface Handles {
    ZooKeeper make(
        String connect,
        int sessionTimeout,
        Watcher watcher,
        boolean canBeReadOnly,
        ZKClientConfig config)
        throws IOException;
  }

  private InterceptedClient() {}

  static CuratorFramework start(String connectString, RetryPolicy retry, Handles handles) {
    return start(
        CuratorFrameworkFactory.builder().connectString(connectString).sessionTimeoutMs(6000),
        retry,
        handles);
  }

  /**
   * A started client as {@link #start(String, RetryPolicy, Handles)} makes, that asks for {@code
   * sessionTimeout} and only ever connects to {@code connectString}: it does not follow the
   * ensemble's configuration to other servers (a test that connects it to one server means it).
   */
  static CuratorFramework startPinned(
      String connectString, Duration sessionTimeout, RetryPolicy retry, Handles handles) {
    return start(
        CuratorFrameworkFactory.builder()
            .ensembleProvider(new FixedEnsembleProvider(connectString, false))
            .ensembleTracker(false)
            .sessionTimeoutMs(Math.toIntExact(sessionTimeout.toMillis())),
        retry,
        handles);
  }

  private static CuratorFramework start(
      CuratorFrameworkFactory.Builder builder, RetryPolicy retry, Handles handles) {
    CuratorFramework client =
        builder
            .connectionTimeoutMs(5000)
            .retryPolicy(retry)
            .zookeeperFactory(
                new ZookeeperFactory() {
                  @Override
                  public ZooKeeper newZooKeeper(
                      String connect, int sessionTimeout, Watcher watcher, boolean canBeReadOnly)
                      throws Exception {
                    return newZooKeeper(
                        connect, sessionTimeout, watcher, canBeReadOnly, new ZKClientConfig());
                  }

                  @Override
                  public ZooKeeper newZooKeeper(
                      String connect,
                      int sessionTimeout,
                      Watcher watcher,
                      boolean canBeReadOnly,
                      ZKClientConfig config)
                      throws Exception {
                    return handles.make(
                        connect,
                        sessionTimeout,
                        watcher,
                        canBeReadOnly,
                        config == null ? new ZKClientConfig() : config);
                  }
                })
            .build();
    client.start();
    return client;
  }
}
