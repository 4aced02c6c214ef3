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

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.retry.RetryNTimes;
import org.apache.zookeeper.AsyncCallback;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.OpResult;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Stat;

/**
 * A Curator client whose ZooKeeper handle records every request it sends to the ensemble (one round
 * trip each), as {@code getData}, {@code exists}, {@code setData}, {@code create}, {@code multi} or
 * {@code sync}.
 */
final class CountingZooKeeper {

  private final List<String> requests = Collections.synchronizedList(new ArrayList<>());
  private final CuratorFramework client;

  CountingZooKeeper(String connectString) {
    client =
        InterceptedClient.start(
            connectString,
            new RetryNTimes(3, 10),
            (connect, sessionTimeout, watcher, canBeReadOnly, config) -> {
              return new Counted(connect, sessionTimeout, watcher, canBeReadOnly, config);
            });
  }

  /** Counts the requests Curator makes through the synchronous and asynchronous API it uses. */
  private final class Counted extends ZooKeeper {
    Counted(
        String connect,
        int sessionTimeout,
        Watcher watcher,
        boolean canBeReadOnly,
        ZKClientConfig config)
        throws java.io.IOException {
      super(connect, sessionTimeout, watcher, canBeReadOnly, config);
    }

    @Override
    public byte[] getData(String path, Watcher watch, Stat stat)
        throws KeeperException, InterruptedException {
      requests.add("getData");
      return super.getData(path, watch, stat);
    }

    @Override
    public Stat exists(String path, Watcher watch) throws KeeperException, InterruptedException {
      requests.add("exists");
      return super.exists(path, watch);
    }

    @Override
    public Stat setData(String path, byte[] data, int version)
        throws KeeperException, InterruptedException {
      requests.add("setData");
      return super.setData(path, data, version);
    }

    @Override
    public String create(
        String path, byte[] data, List<ACL> acl, CreateMode mode, Stat stat, long ttl)
        throws KeeperException, InterruptedException {
      requests.add("create");
      return super.create(path, data, acl, mode, stat, ttl);
    }

    @Override
    public List<OpResult> multi(Iterable<Op> ops) throws InterruptedException, KeeperException {
      requests.add("multi");
      return super.multi(ops);
    }

    @Override
    public void sync(String path, AsyncCallback.VoidCallback callback, Object context) {
      requests.add("sync");
      super.sync(path, callback, context);
    }
  }

  CuratorFramework client() {
    return client;
  }

  /** The requests since the last call, in order. */
  List<String> take() {
    synchronized (requests) {
      List<String> taken = List.copyOf(requests);
      requests.clear();
      return taken;
    }
  }

  void close() {
    client.close();
  }
}
