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
