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

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Ports for test servers that keep their ports across restarts.
 *
 * <p>Curator's own choice ({@code InstanceSpec.getRandomPort()}) binds port 0 and closes it again,
 * one port at a time, so the kernel may hand out the same port twice (CI once got a server whose
 * client and election ports were equal, and the ensemble refused to start), and the port comes from
 * the ephemeral range, where any client connection's local port may take it while its server is
 * down for a restart. These ports are held open together until all are chosen (so they differ), lie
 * below the kernel's ephemeral range, and are never handed out twice in this JVM.
 */
final class ServerPorts {

  private static final int LOWEST = 10_000;
  private static final int DEFAULT_EPHEMERAL_LOW = 32_768;
  private static final int ATTEMPTS_PER_PORT = 200;
  private static final Set<Integer> HANDED_OUT = ConcurrentHashMap.newKeySet();

  private ServerPorts() {}

  /** {@code count} different ports, free on every address right now. */
  static List<Integer> take(int count) {
    int highest = ephemeralLow() - 1;
    if (highest - LOWEST < 1_000) {
      throw new IllegalStateException(
          "Cannot choose test server ports: the kernel's ephemeral range starts at "
              + (highest + 1)
              + ", leaving fewer than 1000 ports above "
              + LOWEST
              + " (see /proc/sys/net/ipv4/ip_local_port_range)");
    }
    List<ServerSocket> held = new ArrayList<>();
    try {
      int attempts = 0;
      while (held.size() < count) {
        if (++attempts > ATTEMPTS_PER_PORT * count) {
          throw new IllegalStateException(
              "Cannot find "
                  + count
                  + " free ports between "
                  + LOWEST
                  + " and "
                  + highest
                  + " after "
                  + (attempts - 1)
                  + " tries");
        }
        int port = ThreadLocalRandom.current().nextInt(LOWEST, highest + 1);
        if (!HANDED_OUT.add(port)) {
          continue;
        }
        ServerSocket socket = new ServerSocket();
        try {
          socket.bind(new InetSocketAddress(port));
          held.add(socket);
        } catch (IOException inUse) {
          socket.close();
        }
      }
      return held.stream().map(ServerSocket::getLocalPort).toList();
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot open a socket to choose test server ports", e);
    } finally {
      for (ServerSocket socket : held) {
        try {
          socket.close();
        } catch (IOException ignored) {
          // The port was only held while choosing.
        }
      }
    }
  }

  private static int ephemeralLow() {
    Path range = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
    try {
      // Read line by line: /proc files report size 0, and a read sized by it may stop early.
      try (BufferedReader reader = Files.newBufferedReader(range, StandardCharsets.US_ASCII)) {
        return Integer.parseInt(reader.readLine().trim().split("\\s+")[0]);
      }
    } catch (IOException | RuntimeException notLinux) {
      return DEFAULT_EPHEMERAL_LOW;
    }
  }
}
