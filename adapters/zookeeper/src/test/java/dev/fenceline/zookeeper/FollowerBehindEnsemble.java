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

import dev.fenceline.tck.TcpProxy;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingCluster;

/**
 * A real three-server ZooKeeper ensemble in this JVM whose server 1 can be made to fall behind the
 * leader for as long as a test wants, while it keeps serving its clients: its link to the leader's
 * quorum port runs through a {@link TcpProxy}, and {@link #holdLeaderToFollower()} keeps the
 * leader's proposals and commits from reaching it. The leader commits with the other follower (a
 * quorum of two), so another client's write is acknowledged while server 1 still answers plain
 * reads from its older state; server 1's own requests still reach the leader, and it answers one
 * only after it applied everything committed before it, once the link is released.
 *
 * <p>How: every server gets its own view of the ensemble ({@link TestingCluster}'s per-server
 * specs). Servers 2 and 3 see the real ports; server 1 sees the quorum ports of 2 and 3 as the
 * proxy's ports (whichever of them leads, server 1 reaches it through the proxy). On a fresh
 * ensemble every server has the same zxid and the election picks the highest server id, so server 1
 * is a follower; {@link #start()} checks it.
 *
 * <p>Servers run with a 1 s tick, so sessions last 2 s to 20 s; {@code syncLimit} is 20 ticks, so a
 * hold shorter than 20 s never makes the leader drop the follower or the follower the leader (each
 * closes the link after {@code syncLimit} ticks without a packet). Holds longer than the session
 * timeout of a client of server 1 would let the leader expire that session (the follower reports
 * its clients' pings with its answers to the leader's pings, which are held); the tests hold for
 * well under a second.
 */
final class FollowerBehindEnsemble implements AutoCloseable {

  /** How long {@link #start()} waits for every server to serve. */
  static final Duration QUORUM_TIMEOUT = Duration.ofSeconds(30);

  private static final String HOST = "127.0.0.1";
  private static final int SERVERS = 3;
  private static final int TICK_MILLIS = 1_000;
  private static final int SYNC_LIMIT_TICKS = 20;

  private final Path root;
  private final List<InstanceSpec> specs;
  private final TcpProxy proxy;
  private final TestingCluster cluster;

  private FollowerBehindEnsemble(
      Path root,
      List<InstanceSpec> specs,
      TcpProxy proxy,
      Map<InstanceSpec, Collection<InstanceSpec>> views) {
    this.root = root;
    this.specs = List.copyOf(specs);
    this.proxy = proxy;
    this.cluster = new TestingCluster(views);
  }

  /**
   * Starts the three servers and waits until all serve with server 1 as a follower.
   *
   * @throws IllegalStateException if they do not within {@link #QUORUM_TIMEOUT}, or server 1 leads;
   *     everything is stopped and deleted first
   */
  static FollowerBehindEnsemble start() {
    Path root;
    try {
      root = Files.createTempDirectory("fenceline-zk-follower-behind");
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot create a directory for the ZooKeeper ensemble", e);
    }
    // Held together while chosen, below the ephemeral range (see ServerPorts); the proxy's own
    // listening ports stay bound for the ensemble's whole life.
    List<Integer> ports = ServerPorts.take(3 * SERVERS);
    Map<String, Object> limits =
        Map.of("syncLimit", String.valueOf(SYNC_LIMIT_TICKS), "initLimit", "20");
    List<InstanceSpec> specs = new ArrayList<>();
    for (int serverId = 1; serverId <= SERVERS; serverId++) {
      int first = 3 * (serverId - 1);
      Path data = root.resolve("server-" + serverId);
      try {
        Files.createDirectories(data);
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot create " + data, e);
      }
      specs.add(
          spec(
              data,
              ports.get(first),
              ports.get(first + 1),
              ports.get(first + 2),
              serverId,
              limits));
    }
    TcpProxy proxy =
        new TcpProxy(
            "holding-proxy",
            HOST,
            specs.subList(1, SERVERS).stream()
                .map(spec -> new InetSocketAddress(HOST, spec.getQuorumPort()))
                .toList());
    // Server 1's view: itself, and servers 2 and 3 with their quorum ports behind the proxy. The
    // copies equal the real specs (InstanceSpec equality is host and client port).
    List<InstanceSpec> followerView = new ArrayList<>();
    followerView.add(specs.get(0));
    for (int index = 1; index < SERVERS; index++) {
      InstanceSpec real = specs.get(index);
      followerView.add(
          spec(
              real.getDataDirectory().toPath(),
              real.getPort(),
              real.getElectionPort(),
              proxy.port(index - 1),
              real.getServerId(),
              limits));
    }
    Map<InstanceSpec, Collection<InstanceSpec>> views = new LinkedHashMap<>();
    views.put(specs.get(0), followerView);
    for (int index = 1; index < SERVERS; index++) {
      views.put(specs.get(index), specs);
    }
    FollowerBehindEnsemble ensemble = new FollowerBehindEnsemble(root, specs, proxy, views);
    try {
      ensemble.cluster.start();
      ensemble.awaitAllServing();
      String mode = ZkEnsemble.modeOf(specs.get(0));
      if (!mode.equals("follower")) {
        throw new IllegalStateException(
            "Cannot hold server 1 behind the leader: it is '" + mode + "', not a follower");
      }
      return ensemble;
    } catch (Exception e) {
      RuntimeException failure =
          e instanceof RuntimeException runtime
              ? runtime
              : new IllegalStateException("Cannot start a ZooKeeper ensemble", e);
      try {
        ensemble.close();
      } catch (RuntimeException suppressed) {
        failure.addSuppressed(suppressed);
      }
      throw failure;
    }
  }

  private static InstanceSpec spec(
      Path data, int client, int election, int quorum, int serverId, Map<String, Object> custom) {
    return new InstanceSpec(
        data.toFile(), client, election, quorum, false, serverId, TICK_MILLIS, -1, custom, HOST);
  }

  /** The connect string of server 1 only, the follower that can be held behind. */
  String followerConnectString() {
    return HOST + ":" + specs.get(0).getPort();
  }

  /** The connect string of servers 2 and 3 (the leader and the follower it commits with). */
  String othersConnectString() {
    return HOST + ":" + specs.get(1).getPort() + "," + HOST + ":" + specs.get(2).getPort();
  }

  /**
   * Keeps every byte the leader sends server 1 from reaching it, from now until {@link
   * #releaseLeaderToFollower()}: commits acknowledged meanwhile are not applied on server 1.
   */
  void holdLeaderToFollower() {
    proxy.hold();
  }

  /** Lets the leader's held bytes reach server 1, which then applies the commits it missed. */
  void releaseLeaderToFollower() {
    proxy.release();
  }

  /** Stops every server and the proxy, and deletes the data directories. */
  @Override
  public void close() {
    proxy.release();
    try {
      cluster.close();
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot stop the ZooKeeper ensemble", e);
    } finally {
      proxy.close();
      ZkEnsemble.deleteRecursively(root);
    }
  }

  private void awaitAllServing() {
    long deadline = System.nanoTime() + QUORUM_TIMEOUT.toNanos();
    while (true) {
      List<String> modes = specs.stream().map(ZkEnsemble::modeOf).toList();
      if (modes.stream().allMatch(m -> m.equals("leader") || m.equals("follower"))
          && modes.contains("leader")) {
        return;
      }
      if (System.nanoTime() - deadline > 0) {
        throw new IllegalStateException(
            "Cannot see all "
                + SERVERS
                + " ZooKeeper servers serve within "
                + QUORUM_TIMEOUT
                + ": their modes are "
                + modes);
      }
      ZkEnsemble.pause();
    }
  }
}
