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
package dev.fenceline.chaos.backends;

import dev.fenceline.chaos.StoreFaults;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingCluster;
import org.apache.zookeeper.client.FourLetterWordMain;

/**
 * A three-server ZooKeeper ensemble (curator-test {@link TestingCluster}, ZooKeeper 3.9.3) in this
 * JVM, each server on its own data directory and ports, kept across restarts. The YAML has a {@code
 * zookeeper} store on it (issuer and pointer store), a {@code vfs} directory, and the staged
 * destination {@code files} (blobs in the directory, pointers in ZooKeeper).
 *
 * <p>Store fault {@code leader-kill}: finds the leader with the {@code srvr} four-letter word and
 * kills it (the other two elect a new leader; calls stall or fail meanwhile); {@link
 * StoreFaults#heal} starts it again on its data directory and waits until it serves.
 */
public final class ZooKeeperBackend implements ChaosBackend {

  /** The faults this backend injects. */
  public static final List<String> FAULTS = List.of("leader-kill");

  /** How long start, leader search and heal wait at most, in milliseconds. */
  private static final long WAIT_MILLIS = 30_000;

  private final Path workDir;
  private final Path files;
  private final List<InstanceSpec> specs;
  private final TestingCluster cluster;
  private final Faults faults = new Faults();
  private InstanceSpec killed;

  private ZooKeeperBackend(Path workDir, List<InstanceSpec> specs) {
    this.workDir = workDir;
    this.files = workDir.resolve("files");
    this.specs = List.copyOf(specs);
    this.cluster = new TestingCluster(this.specs);
  }

  /**
   * Starts three servers with data under {@code workDir} and waits until all three serve.
   *
   * @throws IllegalStateException if they do not within 30 s (the servers are stopped first)
   */
  public static ZooKeeperBackend start(Path workDir) {
    Path root = workDir.toAbsolutePath();
    List<InstanceSpec> specs = new ArrayList<>();
    try {
      Files.createDirectories(root.resolve("files"));
      for (int id = 1; id <= 3; id++) {
        Path data = Files.createDirectories(root.resolve("zk-" + id));
        // Ports -1: curator-test picks free ones, then keeps them for every restart.
        specs.add(new InstanceSpec(data.toFile(), -1, -1, -1, false, id, -1, -1, null, null));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot create the ZooKeeper directories under " + root, e);
    }
    ZooKeeperBackend backend = new ZooKeeperBackend(root, specs);
    try {
      backend.cluster.start();
      for (InstanceSpec spec : specs) {
        backend.awaitServing(spec);
      }
      return backend;
    } catch (Exception e) {
      backend.close();
      throw new IllegalStateException("Cannot start a 3-server ZooKeeper ensemble: " + e, e);
    }
  }

  @Override
  public String name() {
    return "zookeeper";
  }

  @Override
  public String destination() {
    return "files";
  }

  /** {@return the connect string of all three servers} */
  public String connectString() {
    return cluster.getConnectString();
  }

  /** {@return the three servers, in server-id order} */
  public List<InstanceSpec> servers() {
    return specs;
  }

  @Override
  public Path writeConfig(Path dir) {
    String yaml =
        String.join(
            "\n",
            "# ZooKeeper ensemble " + connectString() + ", written by ZooKeeperBackend",
            "stores:",
            "  zk:",
            "    type: zookeeper",
            "    connect-string: " + Yaml.quote(connectString()),
            "    root-path: /fenceline-chaos",
            "    session-timeout: 4s",
            "    connection-timeout: 1s",
            "  dir:",
            "    type: vfs",
            "    uri: " + Yaml.quote(files.toString()),
            "issuer: zk",
            "lease:",
            "  ttl: 5s",
            "destinations:",
            "  files:",
            "    store: dir",
            "    pointer-store: zk",
            "");
    return Yaml.write(dir, yaml);
  }

  @Override
  public StoreFaults storeFaults() {
    return faults;
  }

  @Override
  public Map<String, String> endpoints() {
    Map<String, String> endpoints = new LinkedHashMap<>();
    endpoints.put("connect-string", connectString());
    for (InstanceSpec spec : specs) {
      endpoints.put("server-" + spec.getServerId(), "127.0.0.1:" + spec.getPort());
    }
    endpoints.put("files", files.toString());
    return endpoints;
  }

  /**
   * {@return what {@code server} answers after {@code Mode:} to {@code srvr}} ({@code leader},
   * {@code follower}), {@code not serving} without a quorum, {@code down} if it does not answer.
   */
  public static String mode(InstanceSpec server) {
    String answer;
    try {
      answer =
          FourLetterWordMain.send4LetterWord("127.0.0.1", server.getPort(), "srvr", false, 1_000);
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

  /** {@return the server that says {@code Mode: leader}, asking until one does (30 s at most)} */
  public InstanceSpec leader() {
    long deadline = System.nanoTime() + WAIT_MILLIS * 1_000_000;
    while (true) {
      List<String> modes = new ArrayList<>();
      for (InstanceSpec spec : specs) {
        String mode = mode(spec);
        if (mode.equals("leader")) {
          return spec;
        }
        modes.add(mode);
      }
      if (System.nanoTime() - deadline > 0) {
        throw new IllegalStateException(
            "Cannot find the ZooKeeper leader within 30 s: modes of servers 1..3 are " + modes);
      }
      pause();
    }
  }

  private void awaitServing(InstanceSpec server) {
    long deadline = System.nanoTime() + WAIT_MILLIS * 1_000_000;
    while (true) {
      String mode = mode(server);
      if (mode.equals("leader") || mode.equals("follower")) {
        return;
      }
      if (System.nanoTime() - deadline > 0) {
        throw new IllegalStateException(
            "ZooKeeper server "
                + server.getServerId()
                + " (port "
                + server.getPort()
                + ") does not serve within 30 s: its mode is '"
                + mode
                + "'");
      }
      pause();
    }
  }

  // Polls the servers' state, bounded by the callers' deadlines.
  private static void pause() {
    try {
      Thread.sleep(20);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while waiting for the ZooKeeper ensemble", e);
    }
  }

  @Override
  public synchronized void close() {
    try {
      cluster.close();
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot stop the ZooKeeper ensemble", e);
    }
  }

  private final class Faults implements StoreFaults {

    @Override
    public List<String> kinds() {
      return FAULTS;
    }

    @Override
    public String inject(String kind, Random random) throws Exception {
      if (!kind.equals("leader-kill")) {
        throw new IllegalArgumentException(
            "Cannot inject fault '" + kind + "' on ZooKeeper: the kinds are " + FAULTS);
      }
      synchronized (ZooKeeperBackend.this) {
        if (killed != null) {
          throw new IllegalStateException(
              "Cannot kill the ZooKeeper leader: server "
                  + killed.getServerId()
                  + " is still down (call heal() first)");
        }
        InstanceSpec leader = leader();
        if (!cluster.killServer(leader)) {
          throw new IllegalStateException("Cannot kill ZooKeeper server " + leader.getServerId());
        }
        killed = leader;
        return "killed leader server "
            + leader.getServerId()
            + " (127.0.0.1:"
            + leader.getPort()
            + ")";
      }
    }

    @Override
    public void heal() throws Exception {
      synchronized (ZooKeeperBackend.this) {
        if (killed == null) {
          return;
        }
        cluster.restartServer(killed);
        awaitServing(killed);
        killed = null;
      }
    }

    @Override
    public void close() {
      // The ensemble belongs to the backend; its close() stops it.
    }
  }
}
