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

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.curator.CuratorZookeeperClient;
import org.apache.curator.RetryPolicy;
import org.apache.curator.ensemble.fixed.FixedEnsembleProvider;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;

/**
 * Builds started, connected Curator clients for tests and closes all of them at the end.
 *
 * <pre>{@code
 * try (ZkClients clients = new ZkClients(ensemble.connectString())) {
 *   CuratorFramework client = clients.start();
 *   ...
 * }
 * }</pre>
 */
final class ZkClients implements AutoCloseable {

  /**
   * Session timeout of {@link #start()}: the longest the servers accept (2 to 20 ticks of 1 s).
   * Tests about leader elections and restarts must not lose the session on the way: with 4 s, a
   * leader election on a loaded 2-core machine outlasted the session and Curator declared it
   * expired. Tests about expiry ask for a shorter one.
   */
  static final Duration SESSION_TIMEOUT = Duration.ofSeconds(20);

  /** How long Curator waits for one connection attempt before it counts as connection loss. */
  static final Duration CONNECTION_TIMEOUT = Duration.ofSeconds(2);

  /** How long {@link #start} waits for the first connection. */
  static final Duration FIRST_CONNECTION_TIMEOUT = Duration.ofSeconds(15);

  private final String connectString;
  private final Deque<CuratorFramework> started = new ArrayDeque<>();

  /** Clients for {@code connectString} (an ensemble's or a {@link ZkProxy}'s). */
  ZkClients(String connectString) {
    this.connectString = connectString;
  }

  /** A started client with the {@link #SESSION_TIMEOUT}, connected to the ensemble. */
  CuratorFramework start() {
    return start(SESSION_TIMEOUT);
  }

  /**
   * A started client that asks for {@code sessionTimeout}, connected to the ensemble. It retries an
   * operation that fails with connection loss 5 times, backing off from 100 ms up to 1 s, and each
   * retry first waits for the connection (at most {@link #CONNECTION_TIMEOUT}): Curator waits for
   * it before the first try only, and a retry while the client is still reconnecting fails at once,
   * so without the wait the retries ran out during a leader election (0.6 s to 1.5 s here, longer
   * on a loaded machine). It only ever uses the connect string given here: it does not follow the
   * ensemble's configuration to the servers' own addresses, so a client of a {@link ZkProxy} stays
   * behind the proxy.
   *
   * @throws IllegalStateException if it does not connect within {@link #FIRST_CONNECTION_TIMEOUT};
   *     the client is closed first
   */
  synchronized CuratorFramework start(Duration sessionTimeout) {
    RetryPolicy backOff = new ExponentialBackoffRetry(100, 5, 1_000);
    AtomicReference<CuratorZookeeperClient> connection = new AtomicReference<>();
    RetryPolicy retry =
        (count, elapsedMs, sleeper) -> {
          if (!backOff.allowRetry(count, elapsedMs, sleeper)) {
            return false;
          }
          CuratorZookeeperClient zk = connection.get();
          if (zk != null && !zk.isConnected()) {
            try {
              zk.blockUntilConnectedOrTimedOut();
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
              return false;
            }
          }
          return true;
        };
    CuratorFramework client =
        CuratorFrameworkFactory.builder()
            // Curator follows the ensemble's own config by default (EnsembleTracker) and would then
            // connect to the servers' real ports, around a ZkProxy. Pin the given connect string.
            .ensembleProvider(new FixedEnsembleProvider(connectString, false))
            .ensembleTracker(false)
            .sessionTimeoutMs(Math.toIntExact(sessionTimeout.toMillis()))
            .connectionTimeoutMs(Math.toIntExact(CONNECTION_TIMEOUT.toMillis()))
            .retryPolicy(retry)
            .build();
    connection.set(client.getZookeeperClient());
    client.start();
    boolean connected;
    try {
      connected =
          client.blockUntilConnected(
              Math.toIntExact(FIRST_CONNECTION_TIMEOUT.toMillis()), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      client.close();
      throw new IllegalStateException("Interrupted while connecting to " + connectString, e);
    }
    if (!connected) {
      client.close();
      throw new IllegalStateException(
          "Cannot connect a Curator client to "
              + connectString
              + " within "
              + FIRST_CONNECTION_TIMEOUT
              + " (is the ensemble up and the proxy healed?)");
    }
    started.push(client);
    return client;
  }

  /** Closes every client this started, newest first. */
  @Override
  public synchronized void close() {
    while (!started.isEmpty()) {
      started.pop().close();
    }
  }
}
