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

import dev.fenceline.benchmarks.Row.Operation;
import dev.fenceline.zookeeper.ZkLeaseIssuer;
import dev.fenceline.zookeeper.ZkPointerStore;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.locks.InterProcessSemaphoreMutex;
import org.apache.zookeeper.KeeperException;

/**
 * The rows of the ZooKeeper table, on public API only: {@link ZkPointerStore} and {@link
 * ZkLeaseIssuer} of one {@link dev.fenceline.zookeeper.ZkStore}, and, as their peers, what a
 * Curator user writes without Fenceline: {@code setData} of the same bytes on a node, and {@link
 * InterProcessSemaphoreMutex} acquire + release. Every worker thread has its own node, lock path or
 * resource; all rows share one Curator client.
 */
final class ZkRows {

  static final String RAW_SET_DATA = "raw setData";
  static final String POINTER_SWAP = "pointer swap";
  static final String CURATOR_MUTEX = "curator mutex acquire+release";
  static final String ACQUIRE_RELEASE = "acquire+release (issuer)";

  private ZkRows() {}

  /** The rows of one group; {@code prefix} makes every path and resource of it unique. */
  static List<Row> of(ZooKeeperServers zk, String holder, String prefix) {
    CuratorFramework client = zk.client();
    ZkLeaseIssuer issuer = zk.store().leaseIssuer();
    ZkPointerStore pointers = zk.store().pointerStore("bench-pointers");
    return List.of(
        new Row(
            RAW_SET_DATA,
            Optional.empty(),
            thread -> rawSetData(client, "/bench-raw/" + prefix + "-" + thread)),
        new Row(
            POINTER_SWAP,
            Optional.of(RAW_SET_DATA),
            thread ->
                Publishing.pointerPublish(
                    issuer,
                    pointers,
                    holder + "-t" + thread,
                    Publishing.resource(prefix, "swap", thread))),
        new Row(
            CURATOR_MUTEX,
            Optional.empty(),
            thread -> curatorMutex(client, "/bench-mutex/" + prefix + "-" + thread)),
        new Row(
            ACQUIRE_RELEASE,
            Optional.of(CURATOR_MUTEX),
            thread ->
                Publishing.acquireRelease(
                    issuer, holder + "-t" + thread, Publishing.resource(prefix, "lease", thread))));
  }

  /** {@code setData} of the bytes a pointer swap publishes ({@code value-<n>}) on one node. */
  static Operation rawSetData(CuratorFramework client, String path) throws Exception {
    try {
      client.create().creatingParentsIfNeeded().forPath(path, new byte[0]);
    } catch (KeeperException.NodeExistsException alreadyThere) {
      // opened again (the growth run opens its peer once per dimension)
    }
    long[] count = {0};
    return () -> client.setData().forPath(path, Publishing.value(++count[0]));
  }

  /**
   * Curator's lock for one holder at a time without re-entry, the closest peer of a lease: acquire
   * (30 s at most; this thread is the only user) and release.
   */
  private static Operation curatorMutex(CuratorFramework client, String path) {
    InterProcessSemaphoreMutex mutex = new InterProcessSemaphoreMutex(client, path);
    return () -> {
      if (!mutex.acquire(30, TimeUnit.SECONDS)) {
        throw new IllegalStateException(
            "Curator did not lock " + path + " within 30 s although only this thread uses it");
      }
      mutex.release();
    };
  }
}
