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

import dev.fenceline.spi.StoreException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.curator.framework.api.transaction.CuratorTransactionResult;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Stat;

/**
 * The operations on a {@link ZkStore}'s nodes that its lease issuer and pointer stores build on:
 * reads, creates under the store's ACL, versioned multi-operation transactions, the read barrier
 * through the quorum and the ensemble's clock. Failures are classified by {@link ZkFailures}.
 */
final class ZkNodes {

  private final CuratorFramework client;
  private final List<ACL> acls;
  private final ZkPaths paths;
  private final String shown;
  private final ZkFailures failures;

  /**
   * @param shown the store's location as shown in messages ({@link ZkStore#location()})
   */
  ZkNodes(CuratorFramework client, List<ACL> acls, ZkPaths paths, String shown) {
    this.client = client;
    this.acls = acls;
    this.paths = paths;
    this.shown = shown;
    this.failures = new ZkFailures(shown);
  }

  /** The client's current session (a new one after the ensemble expired the last). */
  long sessionId(String action) {
    try {
      return client.getZookeeperClient().getZooKeeper().getSessionId();
    } catch (Exception e) {
      throw failure(action + " (read the session)", e, false);
    }
  }

  /** A node's data and its stat. */
  record Node(byte[] data, Stat stat) {}

  /**
   * A point after which this client's reads see every change acknowledged before it was taken, as
   * long as the client keeps its ZooKeeper session ({@link #holds}).
   */
  static final class Barrier {
    private final Object handle;

    private Barrier(Object handle) {
      this.handle = handle;
    }
  }

  /** The ensemble's time at a barrier (see {@link #ensembleNow}). */
  record Now(Instant instant, Barrier barrier) {}

  /**
   * The ensemble's time now: writes the clock node (never refused) and returns the time the leader
   * stamped on the write. The write went through a quorum, so it is also a {@link #barrier}.
   */
  Now ensembleNow(String action) {
    Object handle = handle(action);
    try {
      Stat stat = client.setData().forPath(paths.clock(), new byte[0]);
      return new Now(Instant.ofEpochMilli(stat.getMtime()), new Barrier(handle));
    } catch (Exception e) {
      throw failure(action + " (write the clock node " + paths.clock() + ")", e, false);
    }
  }

  /**
   * Makes the next reads of this client see every change acknowledged before this call (R5): a
   * transaction with one version-less {@code check} of the root, which changes nothing but commits
   * through a quorum like a write, so this client's server has applied everything before it when it
   * answers. ZooKeeper's own {@code sync} is not such a barrier (ZOOKEEPER-1675: a leader that lost
   * its quorum and does not know yet answers it). A read is only covered if the session did not
   * change since ({@link #holds}): a new session may reach a server that is behind.
   */
  Barrier barrier(String action) {
    Object handle = handle(action);
    try {
      client.transaction().forOperations(List.of(check(paths.root(), -1)));
      return new Barrier(handle);
    } catch (Exception e) {
      throw failure(action + " (a read barrier through the quorum)", e, false);
    }
  }

  /** True if this client still has the session it had when {@code barrier} was taken. */
  boolean holds(Barrier barrier, String action) {
    return handle(action) == barrier.handle;
  }

  private Object handle(String action) {
    try {
      return client.getZookeeperClient().getZooKeeper();
    } catch (Exception e) {
      throw failure(action + " (the ZooKeeper session)", e, false);
    }
  }

  /** The node at {@code path}, or empty if it does not exist. */
  Optional<Node> read(String path, String action) {
    try {
      Stat stat = new Stat();
      byte[] data = client.getData().storingStatIn(stat).forPath(path);
      if (stat.getCzxid() == 0) {
        // Curator answered with neither data nor NoNode (it does so when called from inside another
        // Curator operation's retry loop on the same thread): nothing is known about the node.
        throw new StoreException(
            "Cannot "
                + action
                + " at "
                + shown
                + ": ZooKeeper answered the read of "
                + path
                + " with no node and no error (is Fenceline called from inside a Curator"
                + " operation on this thread?)",
            null,
            false);
      }
      return Optional.of(new Node(data == null ? new byte[0] : data, stat));
    } catch (KeeperException.NoNodeException e) {
      return Optional.empty();
    } catch (Exception e) {
      throw failure(action + " (read " + path + ")", e, false);
    }
  }

  /** The stat of the node at {@code path}, or empty if it does not exist. */
  Optional<Stat> exists(String path, String action) {
    try {
      return Optional.ofNullable(client.checkExists().forPath(path));
    } catch (Exception e) {
      throw failure(action + " (check " + path + ")", e, false);
    }
  }

  /**
   * Creates a persistent node with {@code data} unless one exists (its data is then left as it is).
   * A create whose answer was lost and that Curator retried finds its own node: the same.
   */
  void ensure(String path, byte[] data, String action) {
    try {
      client.create().withMode(CreateMode.PERSISTENT).withACL(acls).forPath(path, data);
    } catch (KeeperException.NodeExistsException e) {
      // Created before, by this or another process.
    } catch (Exception e) {
      throw failure(action + " (create " + path + ")", e, false);
    }
  }

  void ensure(String path, String action) {
    ensure(path, new byte[0], action);
  }

  /**
   * Creates the root path and any missing parents ({@code /apps} of {@code /apps/fenceline}), all
   * with the store's ACL. Only the root: below it a missing parent means someone deleted the
   * store's nodes, and recreating them would start the epochs again.
   */
  void ensureRoot() {
    String path = paths.root();
    try {
      client
          .create()
          .creatingParentsIfNeeded()
          .withMode(CreateMode.PERSISTENT)
          .withACL(acls, true)
          .forPath(path, new byte[0]);
    } catch (KeeperException.NodeExistsException e) {
      // Created before, by this or another process.
    } catch (Exception e) {
      throw failure("create the root path " + path, e, false);
    }
  }

  /** A transaction operation that creates {@code path} with {@code data} and the store's ACL. */
  CuratorOp create(String path, byte[] data, CreateMode mode) {
    try {
      return client.transactionOp().create().withMode(mode).withACL(acls).forPath(path, data);
    } catch (Exception e) {
      throw new IllegalStateException("Curator refused to build a create operation", e);
    }
  }

  /**
   * A transaction operation that sets the data of {@code path} if its version is {@code version}.
   */
  CuratorOp setData(String path, byte[] data, int version) {
    try {
      return client.transactionOp().setData().withVersion(version).forPath(path, data);
    } catch (Exception e) {
      throw new IllegalStateException("Curator refused to build a setData operation", e);
    }
  }

  /** A transaction operation that deletes {@code path} if its version is {@code version}. */
  CuratorOp delete(String path, int version) {
    try {
      return client.transactionOp().delete().withVersion(version).forPath(path);
    } catch (Exception e) {
      throw new IllegalStateException("Curator refused to build a delete operation", e);
    }
  }

  /** A transaction operation that checks that {@code path} is at {@code version}. */
  CuratorOp check(String path, int version) {
    try {
      return client.transactionOp().check().withVersion(version).forPath(path);
    } catch (Exception e) {
      throw new IllegalStateException("Curator refused to build a check operation", e);
    }
  }

  /**
   * Runs {@code ops} as one ZooKeeper multi-operation transaction: all or nothing.
   *
   * @return the results, or empty if the ensemble refused the transaction because a version check
   *     or an existence check failed (another step changed a node since it was read; nothing of the
   *     transaction was applied, but an earlier attempt Curator sent after a lost answer may have
   *     been)
   * @throws StoreException if the ensemble could not be reached or refused otherwise; {@link
   *     StoreException#outcomeUnknown()} is true if the transaction may have been applied
   */
  Optional<List<CuratorTransactionResult>> multi(List<CuratorOp> ops, String action) {
    try {
      return Optional.of(client.transaction().forOperations(ops));
    } catch (KeeperException.BadVersionException
        | KeeperException.NodeExistsException
        | KeeperException.NoNodeException e) {
      return Optional.empty();
    } catch (Exception e) {
      throw failure(action, e, true);
    }
  }

  private StoreException failure(String action, Exception e, boolean write) {
    return failures.failure(action, e, write);
  }
}
