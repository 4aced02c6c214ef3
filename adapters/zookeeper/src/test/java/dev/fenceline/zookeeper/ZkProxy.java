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
import java.net.InetAddress;
import java.net.InetSocketAddress;

/**
 * A {@link TcpProxy} between clients and a {@link ZkEnsemble}: one loopback listening port per
 * server, each forwarding to that server. A client whose connect string is {@link #connectString()}
 * reaches the ensemble only through this proxy, so {@link #cut()} partitions that client from the
 * whole ensemble while clients with the ensemble's own connect string keep working.
 */
final class ZkProxy extends TcpProxy {

  /** Starts forwarding to every server of {@code ensemble}, including servers that are down. */
  ZkProxy(ZkEnsemble ensemble) {
    super(
        "zk-proxy",
        InetAddress.getLoopbackAddress().getHostAddress(),
        ensemble.servers().stream()
            .map(spec -> new InetSocketAddress(spec.getHostname(), spec.getPort()))
            .toList());
  }

  /** The connect string that reaches the ensemble through this proxy only. */
  String connectString() {
    return addresses();
  }
}
