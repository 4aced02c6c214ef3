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
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.Collectors;

/**
 * A TCP forwarder between a store and its server, for tests of what the store does when the link or
 * the server misbehaves: one new listening port per target, each forwarding every connection it
 * accepts to that target. Until told otherwise it forwards every byte both ways; then it can
 *
 * <ul>
 *   <li>{@link #hold()} the answers: no byte a target sends reaches the connecting side until
 *       {@link #release()}. They wait, in order, in the proxy and the kernel's buffers; nothing is
 *       dropped and no connection is closed, so both ends see a slow link, not a broken one. Bytes
 *       towards the targets still flow. {@code hold()} is exact: once it returns, no further byte
 *       reaches a connecting side.
 *   <li>{@link #freeze()}: read and drop every byte both ways from then on and keep every
 *       connection open, as a server stopped with SIGSTOP or a network that black-holes the traffic
 *       does.
 *   <li>{@link #cut()} the link: close every forwarded connection and, until {@link #heal()}, close
 *       new ones as soon as they are accepted, so the connecting side sees connection loss at once.
 * </ul>
 *
 * <p>A target that does not listen gives the connecting side what it would get without the proxy: a
 * closed connection. Plain blocking sockets, two daemon threads per forwarded connection.
 */
public class TcpProxy implements AutoCloseable {

  private static final int CONNECT_TIMEOUT_MILLIS = 1_000;

  private final String name;
  private final List<ServerSocket> listeners = new ArrayList<>();
  private final Set<Link> links = new HashSet<>();
  private final ReentrantLock gate = new ReentrantLock();
  private final Condition released = gate.newCondition();
  private boolean held; // guarded by gate
  private volatile boolean frozen;
  private boolean cut; // guarded by this
  private boolean closed; // guarded by this

  /**
   * Starts forwarding one new port on {@code host} to each of {@code targets}, in order; {@code
   * name} names its threads.
   */
  public TcpProxy(String name, String host, List<InetSocketAddress> targets) {
    this.name = name;
    try {
      InetAddress address = InetAddress.getByName(host);
      for (InetSocketAddress target : targets) {
        ServerSocket listener = new ServerSocket(0, 50, address);
        listeners.add(listener);
        Thread acceptor =
            new Thread(
                () -> accept(listener, target),
                name + "-" + listener.getLocalPort() + "-to-" + target.getPort());
        acceptor.setDaemon(true);
        acceptor.start();
      }
    } catch (IOException e) {
      close();
      throw new UncheckedIOException("Cannot open a listening port for the proxy " + name, e);
    }
  }

  /** Starts forwarding one new loopback port to {@code target}. */
  public static TcpProxy to(String name, InetSocketAddress target) {
    return new TcpProxy(name, InetAddress.getLoopbackAddress().getHostAddress(), List.of(target));
  }

  /** The listening port that forwards to the {@code index}th target. */
  public int port(int index) {
    return listeners.get(index).getLocalPort();
  }

  /** The listening port that forwards to the first target. */
  public int port() {
    return port(0);
  }

  /** Every listening address as {@code host:port}, in the targets' order, joined by commas. */
  public String addresses() {
    return listeners.stream()
        .map(listener -> listener.getInetAddress().getHostAddress() + ":" + listener.getLocalPort())
        .collect(Collectors.joining(","));
  }

  /** Stops forwarding the targets' bytes until {@link #release()}; returns once none is written. */
  public void hold() {
    gate.lock();
    try {
      held = true;
    } finally {
      gate.unlock();
    }
  }

  /** Forwards the targets' bytes again, those kept while held first. */
  public void release() {
    gate.lock();
    try {
      held = false;
      released.signalAll();
    } finally {
      gate.unlock();
    }
  }

  /** From now on reads and drops every byte both ways, and keeps every connection open. */
  public void freeze() {
    frozen = true;
  }

  /**
   * Closes every forwarded connection and, until {@link #heal()}, closes new ones as soon as they
   * are accepted.
   */
  public void cut() {
    List<Link> dropped;
    synchronized (this) {
      cut = true;
      dropped = new ArrayList<>(links);
      links.clear();
    }
    dropped.forEach(Link::close);
  }

  /** Forwards new connections again after {@link #cut()}. */
  public synchronized void heal() {
    cut = false;
  }

  /** How many connections are being forwarded right now. */
  public synchronized int openConnections() {
    return links.size();
  }

  /** Stops listening and closes every forwarded connection. */
  @Override
  public void close() {
    List<Link> dropped;
    synchronized (this) {
      closed = true;
      cut = true;
      dropped = new ArrayList<>(links);
      links.clear();
    }
    // Closing first ends a write blocked while it holds the gate; then the held writers wake.
    dropped.forEach(Link::close);
    listeners.forEach(TcpProxy::closeQuietly);
    release();
  }

  private void accept(ServerSocket listener, InetSocketAddress target) {
    while (!listener.isClosed()) {
      Socket client;
      try {
        client = listener.accept();
      } catch (IOException e) {
        return; // the listener was closed
      }
      if (isCut()) {
        closeQuietly(client);
        continue;
      }
      Socket server = new Socket();
      try {
        server.connect(target, CONNECT_TIMEOUT_MILLIS);
      } catch (IOException e) {
        closeQuietly(server);
        closeQuietly(client);
        continue;
      }
      Link link = new Link(client, server);
      if (!register(link)) {
        link.close();
        continue;
      }
      link.start(target);
    }
  }

  private synchronized boolean isCut() {
    return cut || closed;
  }

  // A connection accepted just before cut() must not survive it.
  private synchronized boolean register(Link link) {
    if (cut || closed) {
      return false;
    }
    links.add(link);
    return true;
  }

  private synchronized void unregister(Link link) {
    links.remove(link);
  }

  // The check and the write under one lock: hold() cannot return while a write it should stop runs.
  private void writeWhenReleased(OutputStream out, byte[] buffer, int length)
      throws IOException, InterruptedException {
    gate.lockInterruptibly();
    try {
      while (held) {
        released.await();
      }
      out.write(buffer, 0, length);
      out.flush();
    } finally {
      gate.unlock();
    }
  }

  private static void closeQuietly(AutoCloseable closeable) {
    try {
      closeable.close();
    } catch (Exception ignored) {
      // closing is all we wanted
    }
  }

  /** One forwarded connection: bytes both ways until either side closes or it is cut. */
  private final class Link {
    private final Socket client;
    private final Socket server;

    Link(Socket client, Socket server) {
      this.client = client;
      this.server = server;
    }

    void start(InetSocketAddress target) {
      String thread = name + "-link-" + client.getPort() + "-" + target.getPort();
      Thread up = new Thread(() -> pump(client, server, false), thread + "-up");
      Thread down = new Thread(() -> pump(server, client, true), thread + "-down");
      up.setDaemon(true);
      down.setDaemon(true);
      up.start();
      down.start();
    }

    private void pump(Socket from, Socket to, boolean answers) {
      byte[] buffer = new byte[16 * 1024];
      try {
        InputStream in = from.getInputStream();
        OutputStream out = to.getOutputStream();
        int read;
        while ((read = in.read(buffer)) >= 0) {
          if (frozen) {
            continue; // read and dropped
          }
          if (answers) {
            writeWhenReleased(out, buffer, read);
          } else {
            out.write(buffer, 0, read);
            out.flush();
          }
        }
      } catch (IOException ignored) {
        // either side closed or the link was cut
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } finally {
        unregister(this);
        close();
      }
    }

    void close() {
      closeQuietly(client);
      closeQuietly(server);
    }
  }
}
