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
package dev.fenceline.tck;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;

/**
 * A server on the loopback address that accepts every connection and never sends a byte: the
 * "silent server" a store's default timeouts must end a call to (a frozen or half-dead peer that
 * still completes TCP handshakes). Accepted connections stay open until {@link #close()}.
 */
public final class SilentServer implements AutoCloseable {

  private final ServerSocket listener;
  private final List<Socket> accepted = new ArrayList<>();
  private final Thread acceptor;

  private SilentServer(String name) throws IOException {
    listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    acceptor = new Thread(this::acceptAll, "silent-" + name);
    acceptor.setDaemon(true);
    acceptor.start();
  }

  /** Starts a silent server; {@code name} names its thread ({@code silent-<name>}). */
  public static SilentServer start(String name) {
    try {
      return new SilentServer(name);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot start a silent server: " + e.getMessage(), e);
    }
  }

  private void acceptAll() {
    try {
      while (true) {
        Socket socket = listener.accept();
        synchronized (accepted) {
          accepted.add(socket);
        }
      }
    } catch (IOException closed) {
      // close() ends the loop
    }
  }

  /** The port it listens on, at 127.0.0.1. */
  public int port() {
    return listener.getLocalPort();
  }

  /** How many connections it accepted so far (a client that never connected did not time out). */
  public int acceptedConnections() {
    synchronized (accepted) {
      return accepted.size();
    }
  }

  /** Stops accepting and closes every accepted connection. */
  @Override
  public void close() throws IOException {
    listener.close();
    synchronized (accepted) {
      for (Socket socket : accepted) {
        socket.close();
      }
      accepted.clear();
    }
  }
}
