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

import dev.fenceline.tck.Concurrently;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.retry.RetryNTimes;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.OpResult;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;

/**
 * A Curator client whose ZooKeeper handle can lose the answer of its next transaction: the
 * transaction is applied by the ensemble, then the client reports {@code CONNECTIONLOSS} as if the
 * connection had dropped before the answer arrived, and Curator's retry loop sends it again.
 */
final class LosingZooKeeper {

  private final AtomicReference<Runnable> loseNext = new AtomicReference<>();
  private final CuratorFramework client;

  LosingZooKeeper(String connectString) {
    client =
        InterceptedClient.start(
            connectString,
            new RetryNTimes(3, 10),
            (connect, sessionTimeout, watcher, canBeReadOnly, config) -> {
              return new ZooKeeper(connect, sessionTimeout, watcher, canBeReadOnly, config) {
                @Override
                public List<OpResult> multi(Iterable<Op> ops)
                    throws InterruptedException, KeeperException {
                  List<OpResult> results = super.multi(ops);
                  if (readBarrier(ops)) {
                    return results; // the store's read barrier, not a change
                  }
                  Runnable between = loseNext.getAndSet(null);
                  if (between != null) {
                    // Another process acts meanwhile: on its own thread, outside Curator's
                    // retry loop of this call.
                    Concurrently.await(
                        Concurrently.start(
                            "meanwhile",
                            () -> {
                              between.run();
                              return null;
                            }));
                    throw new KeeperException.ConnectionLossException();
                  }
                  return results;
                }
              };
            });
  }

  /** A transaction of version-less checks only: {@link ZkStore#barrier}. */
  private static boolean readBarrier(Iterable<Op> ops) {
    for (Op op : ops) {
      if (op.getType() != ZooDefs.OpCode.check) {
        return false;
      }
    }
    return true;
  }

  CuratorFramework client() {
    return client;
  }

  /**
   * Loses the answer of the next transaction; {@code between} runs after it was applied and before
   * Curator re-sends it.
   */
  void loseNextAnswer(Runnable between) {
    loseNext.set(between);
  }

  void close() {
    client.close();
  }
}
