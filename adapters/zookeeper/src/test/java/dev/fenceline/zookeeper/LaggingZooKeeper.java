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
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.retry.BoundedExponentialBackoffRetry;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.OpResult;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.data.Stat;

/**
 * A Curator client whose next session can start on a server that is behind. ZooKeeper lets that
 * happen: a new session's handle has seen no zxid, so any server accepts it, also one that has not
 * applied the latest commits yet (a handle that only reconnects is refused by such a server). The
 * lag is played, not real: the new session's first read of an armed path answers what the previous
 * session last read there (NoNode if it never read it), as a server that had not applied the
 * changes since would.
 */
final class LaggingZooKeeper {

  private final AtomicInteger handles = new AtomicInteger();
  private final AtomicReference<Lag> armed = new AtomicReference<>();
  private final AtomicReference<Runnable> afterNextBarrier = new AtomicReference<>();
  private final Map<String, Runnable> afterNextRead = new ConcurrentHashMap<>();
  private final AtomicReference<Runnable> beforeNextTransaction = new AtomicReference<>();
  private final Map<String, Answer> lastAnswers = new ConcurrentHashMap<>();
  private final Map<String, Boolean> freezing = new ConcurrentHashMap<>();
  private final Map<String, Answer> frozen = new ConcurrentHashMap<>();
  private final CuratorFramework client;

  private record Lag(int fromHandle, String path) {}

  private record Answer(byte[] data, Stat stat) {}

  LaggingZooKeeper(String connectString) {
    client =
        InterceptedClient.start(
            connectString,
            new BoundedExponentialBackoffRetry(50, 500, 10),
            (connect, sessionTimeout, watcher, canBeReadOnly, config) -> {
              return new Handle(
                  handles.incrementAndGet(),
                  connect,
                  sessionTimeout,
                  watcher,
                  canBeReadOnly,
                  config);
            });
  }

  private final class Handle extends ZooKeeper {
    private static final long CLOSING_TIMEOUT_NANOS = 5_000_000_000L;

    private final int number;
    private volatile boolean abandoned;

    Handle(
        int number,
        String connect,
        int sessionTimeout,
        Watcher watcher,
        boolean canBeReadOnly,
        ZKClientConfig config)
        throws java.io.IOException {
      super(connect, sessionTimeout, watcher, canBeReadOnly, config);
      this.number = number;
    }

    @Override
    public byte[] getData(String path, Watcher watcher, Stat stat)
        throws KeeperException, InterruptedException {
      Lag lag = armed.get();
      if (lag != null
          && number > lag.fromHandle()
          && lag.path().equals(path)
          && armed.compareAndSet(lag, null)) {
        Answer behind = frozen.containsKey(path) ? frozen.get(path) : lastAnswers.get(path);
        if (behind == null) {
          throw new KeeperException.NoNodeException(path);
        }
        if (stat != null) {
          copy(behind.stat(), stat);
        }
        return behind.data().clone();
      }
      byte[] data = super.getData(path, watcher, stat);
      if (stat != null) {
        Stat kept = new Stat();
        copy(stat, kept);
        Answer answer = new Answer(data == null ? new byte[0] : data.clone(), kept);
        lastAnswers.put(path, answer);
        if (freezing.remove(path) != null) {
          frozen.put(path, answer);
        }
      }
      Runnable then = afterNextRead.remove(path);
      if (then != null) {
        meanwhile(then);
      }
      return data;
    }

    @Override
    public Stat setData(String path, byte[] data, int version)
        throws KeeperException, InterruptedException {
      Stat stat = super.setData(path, data, version);
      if (path.endsWith("/clock")) {
        // The issuer's barrier: its write of the clock node.
        Runnable then = afterNextBarrier.getAndSet(null);
        if (then != null) {
          meanwhile(then);
        }
      }
      return stat;
    }

    /** Gives the session up on the client side only (the ensemble is not told). */
    void abandon() {
      abandoned = true;
      getTestable().injectSessionExpiration();
    }

    /**
     * {@code injectSessionExpiration} queues the Expired event before it marks the handle closed;
     * if Curator closes the handle in between, a plain close would still send closeSession and the
     * ensemble would end the session and delete its ephemeral nodes at once (6 of 20 runs here),
     * which an abandoned session never does. So an abandoned handle closes once it is marked.
     */
    @Override
    public synchronized void close() throws InterruptedException {
      if (abandoned) {
        long deadline = System.nanoTime() + CLOSING_TIMEOUT_NANOS;
        while (getState().isAlive() && System.nanoTime() - deadline < 0) {
          Thread.sleep(1); // the marking follows the queued event on the abandoning thread
        }
      }
      super.close();
    }

    @Override
    public java.util.List<OpResult> multi(Iterable<Op> ops)
        throws InterruptedException, KeeperException {
      boolean barrier = true;
      for (Op op : ops) {
        barrier &= op.getType() == ZooDefs.OpCode.check;
      }
      Runnable before = barrier ? null : beforeNextTransaction.getAndSet(null);
      if (before != null) {
        before.run();
      }
      java.util.List<OpResult> results = super.multi(ops);
      Runnable then = barrier ? afterNextBarrier.getAndSet(null) : null;
      if (then != null) {
        meanwhile(then);
      }
      return results;
    }
  }

  /**
   * Runs {@code action} on its own thread: outside the Curator retry loop of the call it interrupts
   * (Curator answers a nested call on the same thread with neither data nor an error).
   */
  private static void meanwhile(Runnable action) {
    Concurrently.await(
        Concurrently.start(
            "meanwhile",
            () -> {
              action.run();
              return null;
            }));
  }

  private static void copy(Stat from, Stat to) {
    to.setCzxid(from.getCzxid());
    to.setMzxid(from.getMzxid());
    to.setCtime(from.getCtime());
    to.setMtime(from.getMtime());
    to.setVersion(from.getVersion());
    to.setCversion(from.getCversion());
    to.setAversion(from.getAversion());
    to.setEphemeralOwner(from.getEphemeralOwner());
    to.setDataLength(from.getDataLength());
    to.setNumChildren(from.getNumChildren());
    to.setPzxid(from.getPzxid());
  }

  /**
   * Runs {@code action} on the calling thread right before the next transaction that is not a read
   * barrier is sent.
   */
  void beforeNextTransaction(Runnable action) {
    beforeNextTransaction.set(action);
  }

  /**
   * Makes this client give up its session without telling the ensemble, as Curator does when it was
   * cut off for a session timeout: the client opens a new session while the ensemble keeps the old
   * one (and its ephemeral nodes) until it expires it itself.
   */
  void abandonSession() {
    Handle handle;
    try {
      handle = (Handle) client.getZookeeperClient().getZooKeeper();
    } catch (Exception e) {
      throw new IllegalStateException("Cannot abandon the session", e);
    }
    handle.abandon();
  }

  CuratorFramework client() {
    return client;
  }

  /**
   * The next session's first read of {@code path} answers what this client last read there (or the
   * answer {@link #freezeNextAnswer} kept), or NoNode if it never read it.
   */
  void nextSessionLagsOn(String path) {
    armed.set(new Lag(handles.get(), path));
  }

  /**
   * Keeps the next answer to a read of {@code path}: a lagging session answers it instead of the
   * last one (a server behind everything since).
   */
  void freezeNextAnswer(String path) {
    freezing.put(path, Boolean.TRUE);
  }

  /** Runs {@code action} right after the next successful read of {@code path} (on any session). */
  void afterNextRead(String path, Runnable action) {
    afterNextRead.put(path, action);
  }

  /**
   * Runs {@code action} right after the next read barrier was answered: a transaction of checks
   * only, or the issuer's write of the clock node.
   */
  void afterNextBarrier(Runnable action) {
    afterNextBarrier.set(action);
  }

  void close() {
    client.close();
  }
}
