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
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingCluster;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.client.FourLetterWordMain;

/**
 * A real three-server ZooKeeper ensemble in this JVM (curator-test {@link TestingCluster}), with
 * the faults the ZooKeeper adapter must survive: losing the leader, a full ensemble restart, and a
 * session the ensemble expires.
 *
 * <p>Each server keeps its data directory under one temporary root for the whole life of the
 * ensemble ({@code deleteDataDirectoryOnClose=false}), so {@link #restart(InstanceSpec)} and {@link
 * #restartAll()} bring servers back with everything they had committed, on the same ports. {@link
 * #close()} stops the servers and deletes the root.
 *
 * <p>Servers run with curator-test's default tick time of 1000 ms, so sessions may last from 1 s to
 * 20 s.
 *
 * <p>Published in this module's test-jar: other modules' tests start an ensemble with {@link
 * #start()}, connect with {@link #connectString()} and stop it with {@link #close()}; the fault
 * injection stays for this package.
 */
public final class ZkEnsemble implements AutoCloseable {

  /** How many servers the ensemble has; a quorum is a majority of them. */
  static final int SERVERS = 3;

  /** How long {@link #start()}, {@link #awaitQuorum()} and {@link #leader()} wait at most. */
  static final Duration QUORUM_TIMEOUT = Duration.ofSeconds(30);

  private static final int FOUR_LETTER_WORD_TIMEOUT_MILLIS = 1_000;

  private final Path root;
  private final List<InstanceSpec> specs;
  private final TestingCluster cluster;

  private ZkEnsemble(Path root, List<InstanceSpec> specs) {
    this.root = root;
    this.specs = List.copyOf(specs);
    this.cluster = new TestingCluster(this.specs);
  }

  /**
   * Starts three servers, each on its own data directory and free loopback ports, and waits until
   * all three serve (one leader, two followers).
   *
   * @throws IllegalStateException if they do not within {@link #QUORUM_TIMEOUT} each; the servers
   *     are stopped and their directories deleted first
   */
  public static ZkEnsemble start() {
    Path root;
    try {
      root = Files.createTempDirectory("fenceline-zk-ensemble");
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot create a directory for the ZooKeeper ensemble", e);
    }
    List<InstanceSpec> specs = new ArrayList<>();
    for (int serverId = 1; serverId <= SERVERS; serverId++) {
      Path dataDirectory = root.resolve("server-" + serverId);
      try {
        Files.createDirectories(dataDirectory);
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot create " + dataDirectory, e);
      }
    }
    // Chosen once, here, and kept for every restart: client, election and quorum port per server.
    List<Integer> ports = ServerPorts.take(3 * SERVERS);
    for (int serverId = 1; serverId <= SERVERS; serverId++) {
      int first = 3 * (serverId - 1);
      specs.add(
          new InstanceSpec(
              root.resolve("server-" + serverId).toFile(),
              ports.get(first),
              ports.get(first + 1),
              ports.get(first + 2),
              false,
              serverId,
              -1,
              -1,
              null,
              null));
    }
    ZkEnsemble ensemble = new ZkEnsemble(root, specs);
    try {
      ensemble.cluster.start();
      ensemble.awaitAllServing();
      return ensemble;
    } catch (Exception e) {
      RuntimeException failure =
          e instanceof RuntimeException runtime
              ? runtime
              : new IllegalStateException(
                  "Cannot start a " + SERVERS + "-server ZooKeeper ensemble", e);
      try {
        ensemble.close();
      } catch (RuntimeException suppressed) {
        failure.addSuppressed(suppressed);
      }
      throw failure;
    }
  }

  /** The connect string that reaches every server directly, e.g. {@code 127.0.0.1:4001,...}. */
  public String connectString() {
    return cluster.getConnectString();
  }

  /** The three servers, in server-id order; their ports and data directories never change. */
  List<InstanceSpec> servers() {
    return specs;
  }

  /**
   * The server that currently says {@code Mode: leader} to the {@code srvr} four-letter word,
   * asking again until one does.
   *
   * @throws IllegalStateException if no server says so within {@link #QUORUM_TIMEOUT}
   */
  InstanceSpec leader() {
    long deadline = System.nanoTime() + QUORUM_TIMEOUT.toNanos();
    while (true) {
      for (InstanceSpec spec : specs) {
        if ("leader".equals(mode(spec))) {
          return spec;
        }
      }
      if (System.nanoTime() - deadline > 0) {
        throw new IllegalStateException(
            "Cannot find the ZooKeeper leader: no server said 'Mode: leader' within "
                + QUORUM_TIMEOUT
                + " (modes now: "
                + modes()
                + ")");
      }
      pause();
    }
  }

  /**
   * Kills the current leader (as {@link TestingCluster#killServer} does) and returns it; the other
   * two servers elect a new leader on their own. Bring it back with {@link #restart}.
   */
  InstanceSpec killLeader() {
    InstanceSpec leader = leader();
    try {
      cluster.killServer(leader);
    } catch (Exception e) {
      throw new IllegalStateException("Cannot kill ZooKeeper server " + describe(leader), e);
    }
    return leader;
  }

  /**
   * Starts a killed server again on its own data directory and ports. Does not wait for it to join;
   * call {@link #awaitQuorum()} or {@link #awaitServing(InstanceSpec)} when that matters.
   */
  void restart(InstanceSpec server) {
    requireMember(server);
    try {
      cluster.restartServer(server);
    } catch (Exception e) {
      throw new IllegalStateException("Cannot restart ZooKeeper server " + describe(server), e);
    }
  }

  /**
   * Stops every server, checks that none of them accepts a connection any more (the whole ensemble
   * is down at once), starts them all again on the same data directories and ports, and waits until
   * all three serve. Sessions are stored by the ensemble too, so a client whose session timeout
   * outlasts the restart may keep its session.
   */
  void restartAll() {
    restartAll(() -> {});
  }

  /**
   * {@link #restartAll()}, running {@code whileDown} when every server has stopped and none has
   * started yet (to try what clients see then).
   */
  void restartAll(Runnable whileDown) {
    try {
      cluster.stop();
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot stop the ZooKeeper ensemble", e);
    }
    for (InstanceSpec spec : specs) {
      if (accepts(spec)) {
        throw new IllegalStateException(
            "Cannot restart the whole ZooKeeper ensemble: server "
                + describe(spec)
                + " still accepts connections after stop()");
      }
    }
    whileDown.run();
    for (InstanceSpec spec : specs) {
      restart(spec);
    }
    awaitAllServing();
  }

  /**
   * Waits until a majority of the servers serve clients (say {@code Mode: leader} or {@code Mode:
   * follower}) and one of them is the leader.
   *
   * @throws IllegalStateException if that does not happen within {@link #QUORUM_TIMEOUT}
   */
  void awaitQuorum() {
    long deadline = System.nanoTime() + QUORUM_TIMEOUT.toNanos();
    while (true) {
      List<String> modes = modes();
      long serving = modes.stream().filter(m -> m.equals("leader") || m.equals("follower")).count();
      if (modes.contains("leader") && serving > SERVERS / 2) {
        return;
      }
      if (System.nanoTime() - deadline > 0) {
        throw new IllegalStateException(
            "Cannot reach a ZooKeeper quorum within "
                + QUORUM_TIMEOUT
                + ": modes of servers 1.."
                + SERVERS
                + " are "
                + modes
                + " (a server that does not answer is 'down'; see its log for why)");
      }
      pause();
    }
  }

  /** Waits until every server serves clients, one as leader and the others as followers. */
  void awaitAllServing() {
    awaitQuorum();
    specs.forEach(this::awaitServing);
  }

  /** Waits until {@code server} serves clients as leader or follower. */
  void awaitServing(InstanceSpec server) {
    requireMember(server);
    long deadline = System.nanoTime() + QUORUM_TIMEOUT.toNanos();
    while (true) {
      String mode = mode(server);
      if (mode.equals("leader") || mode.equals("follower")) {
        return;
      }
      if (System.nanoTime() - deadline > 0) {
        throw new IllegalStateException(
            "Cannot see ZooKeeper server "
                + describe(server)
                + " serve within "
                + QUORUM_TIMEOUT
                + ": its mode is '"
                + mode
                + "'");
      }
      pause();
    }
  }

  /**
   * Makes the ensemble expire the session of {@code client}, as it does when a client stays away
   * past its session timeout: a second handle attaches to the same session (id and password) and
   * closes it, so the ensemble commits a session close and deletes the session's ephemeral nodes
   * before this method returns. The client itself learns of it when it next talks to a server
   * (Curator then reports {@code LOST} and opens a new session).
   *
   * @throws IllegalStateException if the client has no session or the ensemble did not let the
   *     second handle attach within the session timeout
   */
  void expireSession(CuratorFramework client) {
    ZooKeeper zooKeeper;
    try {
      zooKeeper = client.getZookeeperClient().getZooKeeper();
    } catch (Exception e) {
      throw new IllegalStateException("Cannot expire a session: the client has no ZooKeeper", e);
    }
    long sessionId = zooKeeper.getSessionId();
    byte[] password = zooKeeper.getSessionPasswd();
    int timeoutMillis = zooKeeper.getSessionTimeout();
    if (sessionId == 0) {
      throw new IllegalStateException(
          "Cannot expire a session: the client is not connected (session id 0)");
    }
    CountDownLatch connected = new CountDownLatch(1);
    Watcher watcher =
        event -> {
          if (event.getState() == Watcher.Event.KeeperState.SyncConnected) {
            connected.countDown();
          }
        };
    ZooKeeper twin = null;
    try {
      twin = new ZooKeeper(connectString(), timeoutMillis, watcher, sessionId, password);
      if (!connected.await(Math.max(timeoutMillis, 5_000), TimeUnit.MILLISECONDS)) {
        throw new IllegalStateException(
            "Cannot expire session 0x"
                + Long.toHexString(sessionId)
                + ": a second handle on it did not connect within "
                + timeoutMillis
                + " ms (has it expired already?)");
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while expiring a ZooKeeper session", e);
    } finally {
      if (twin != null) {
        try {
          // close() of a connected handle sends closeSession and waits for the ensemble's answer.
          twin.close();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    }
  }

  /** Stops every server and deletes their data directories. */
  @Override
  public void close() {
    try {
      cluster.close();
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot stop the ZooKeeper ensemble", e);
    } finally {
      deleteRecursively(root);
    }
  }

  /**
   * What the server says after {@code Mode:} to {@code srvr} ({@code leader}, {@code follower},
   * {@code standalone}), {@code not serving} while it has no quorum, or {@code down} when it does
   * not answer at all.
   */
  String mode(InstanceSpec server) {
    return modeOf(server);
  }

  /** {@link #mode(InstanceSpec)} of any server, of this ensemble or not. */
  static String modeOf(InstanceSpec server) {
    String answer;
    try {
      answer =
          FourLetterWordMain.send4LetterWord(
              server.getHostname(),
              server.getPort(),
              "srvr",
              false,
              FOUR_LETTER_WORD_TIMEOUT_MILLIS);
    } catch (Exception e) {
      return "down";
    }
    for (String line : answer.split("\n")) {
      if (line.startsWith("Mode: ")) {
        return line.substring("Mode: ".length()).trim();
      }
    }
    return "not serving";
  }

  private List<String> modes() {
    return specs.stream().map(this::mode).toList();
  }

  private void requireMember(InstanceSpec server) {
    if (!specs.contains(server)) {
      throw new IllegalArgumentException(
          "Cannot use ZooKeeper server " + server + ": it is not one of " + specs);
    }
  }

  private static boolean accepts(InstanceSpec spec) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(spec.getHostname(), spec.getPort()), 1_000);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  private static String describe(InstanceSpec spec) {
    return spec.getServerId() + " (" + spec.getHostname() + ":" + spec.getPort() + ")";
  }

  // Polls an external process state (the servers), bounded by the callers' deadlines.
  static void pause() {
    try {
      Thread.sleep(20);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while waiting for the ZooKeeper ensemble", e);
    }
  }

  static void deleteRecursively(Path directory) {
    if (!Files.exists(directory)) {
      return;
    }
    Set<Path> failed = new HashSet<>();
    try (Stream<Path> paths = Files.walk(directory)) {
      paths
          .sorted(Comparator.reverseOrder())
          .forEach(
              path -> {
                try {
                  Files.deleteIfExists(path);
                } catch (IOException e) {
                  failed.add(path);
                }
              });
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot delete " + directory, e);
    }
    if (!failed.isEmpty()) {
      throw new UncheckedIOException(
          new IOException("Cannot delete " + failed.size() + " files under " + directory));
    }
  }
}
