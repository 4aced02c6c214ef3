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
package dev.fenceline.chaos.faults;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A TCP proxy on a loopback port in front of one {@code host:port}, for the driver's store faults:
 * every connection accepted is forwarded to the target, byte for byte both ways, until one of the
 * faults is set:
 *
 * <ul>
 *   <li>{@link #cut()}: every forwarded connection is closed, and until {@link #heal()} every new
 *       one is reset as soon as it is accepted (the client sees its connection reset at once);
 *   <li>{@link #delay(Duration)}: every chunk of bytes, both ways, is held for that long after the
 *       proxy read it, in order;
 *   <li>{@link #dropAnswers()}: requests still reach the server, but answer bytes the server sends
 *       are discarded and the connection is closed on both sides right after: the request landed,
 *       the client never learns its outcome.
 * </ul>
 *
 * <p>The target is resolved when a connection is forwarded, so it need not exist when the proxy
 * starts; a target that does not answer gives the client a closed connection. Plain blocking
 * sockets, two daemon threads per forwarded connection and one for the listener, one 16 KiB buffer
 * per direction (the kernel's socket buffers hold the rest, so a slow side slows the other instead
 * of filling memory). {@link #close()} ends every thread it started.
 */
public final class FaultProxy implements AutoCloseable {

  private static final int BUFFER_BYTES = 16 * 1024;
  private static final int CONNECT_TIMEOUT_MILLIS = 2_000;
  private static final long THREAD_STACK_BYTES = 256 * 1024;

  private final String name;
  private final String targetHost;
  private final int targetPort;
  private final ServerSocket listener;
  private final Set<Link> links = new HashSet<>(); // guarded by this
  private final Set<Thread> threads = new HashSet<>(); // guarded by this
  private boolean cut; // guarded by this
  private boolean closed; // guarded by this
  private volatile boolean dropAnswers;

  private final ReentrantLock delayLock = new ReentrantLock();
  private final Condition delayChanged = delayLock.newCondition();
  private long delayNanos; // guarded by delayLock

  private final AtomicLong accepted = new AtomicLong();
  private final AtomicLong refused = new AtomicLong();
  private final AtomicLong droppedAnswers = new AtomicLong();

  private FaultProxy(String name, String targetHost, int targetPort) {
    this.name = name;
    this.targetHost = targetHost;
    this.targetPort = targetPort;
    try {
      listener = new ServerSocket(0, 100, InetAddress.getLoopbackAddress());
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Cannot open a loopback port for the fault proxy in front of " + target(), e);
    }
    start(this::acceptLoop, name + "-accept-" + listener.getLocalPort());
  }

  /**
   * Starts a proxy on an ephemeral loopback port in front of {@code host:port}.
   *
   * @param name names the proxy's threads and appears in {@link #toString()}
   * @throws IllegalArgumentException if the port is not 1 to 65535
   * @throws UncheckedIOException if no loopback port can be opened
   */
  public static FaultProxy start(String name, String host, int port) {
    requireNonNull(name, "name is null");
    requireNonNull(host, "host is null");
    if (port < 1 || port > 65535) {
      throw new IllegalArgumentException(
          "Cannot proxy " + host + ":" + port + ": the port must be 1 to 65535");
    }
    return new FaultProxy(name, host, port);
  }

  /** {@return the proxy's name} */
  public String name() {
    return name;
  }

  /** {@return the address clients connect to} such as {@code 127.0.0.1:41234} */
  public String address() {
    return host() + ":" + port();
  }

  /** {@return the host clients connect to}, the loopback address */
  public String host() {
    return listener.getInetAddress().getHostAddress();
  }

  /** {@return the port clients connect to} */
  public int port() {
    return listener.getLocalPort();
  }

  /** {@return the proxied {@code host:port}} */
  public String target() {
    return (targetHost.contains(":") ? "[" + targetHost + "]" : targetHost) + ":" + targetPort;
  }

  /**
   * Closes every forwarded connection and, until {@link #heal()}, resets every new one as soon as
   * it is accepted. Once this returns, no byte passes the proxy.
   */
  public void cut() {
    List<Link> dropped;
    synchronized (this) {
      cut = true;
      dropped = new ArrayList<>(links);
      links.clear();
    }
    dropped.forEach(Link::close);
    wakeDelayed();
  }

  /**
   * Holds every chunk of bytes, both ways, for {@code delay} after the proxy read it (replacing an
   * earlier delay; zero ends it). Bytes keep their order.
   *
   * @throws IllegalArgumentException if {@code delay} is negative
   */
  public void delay(Duration delay) {
    requireNonNull(delay, "delay is null");
    if (delay.isNegative()) {
      throw new IllegalArgumentException("Cannot delay by " + delay + ": give zero or more");
    }
    delayLock.lock();
    try {
      delayNanos = delay.toNanos();
      delayChanged.signalAll();
    } finally {
      delayLock.unlock();
    }
  }

  /**
   * From now until {@link #heal()}, forwards requests but discards the bytes the server answers and
   * then closes that connection on both sides.
   */
  public void dropAnswers() {
    dropAnswers = true;
  }

  /** Ends every fault: new connections are forwarded, bytes held by a delay go out at once. */
  public void heal() {
    synchronized (this) {
      cut = false;
    }
    dropAnswers = false;
    delay(Duration.ZERO);
  }

  /** {@return how many connections are forwarded right now} */
  public synchronized int openConnections() {
    return links.size();
  }

  /** {@return how many connections were accepted and forwarded so far} */
  public long acceptedConnections() {
    return accepted.get();
  }

  /** {@return how many connections were reset on accept, while cut} */
  public long refusedConnections() {
    return refused.get();
  }

  /** {@return how many answers (chunks of server bytes) were discarded by drop-answers} */
  public long droppedAnswers() {
    return droppedAnswers.get();
  }

  /** {@return the proxy's threads still alive} (for tests: none after {@link #close()} ends) */
  synchronized List<Thread> liveThreads() {
    List<Thread> alive = new ArrayList<>();
    for (Thread thread : threads) {
      if (thread.isAlive()) {
        alive.add(thread);
      }
    }
    return alive;
  }

  /** Stops listening, closes every forwarded connection and ends the proxy's threads. */
  @Override
  public void close() {
    List<Link> dropped;
    synchronized (this) {
      closed = true;
      cut = true;
      dropped = new ArrayList<>(links);
      links.clear();
    }
    closeQuietly(listener);
    dropped.forEach(Link::close);
    wakeDelayed();
  }

  @Override
  public String toString() {
    return "FaultProxy[" + name + " " + address() + " -> " + target() + "]";
  }

  private void wakeDelayed() {
    delayLock.lock();
    try {
      delayChanged.signalAll();
    } finally {
      delayLock.unlock();
    }
  }

  private synchronized void start(Runnable task, String threadName) {
    if (closed) {
      return; // a link registered just before close(): close() closed it
    }
    Thread thread = new Thread(null, task, threadName, THREAD_STACK_BYTES);
    thread.setDaemon(true);
    threads.removeIf(t -> !t.isAlive());
    threads.add(thread);
    thread.start();
  }

  private void acceptLoop() {
    while (true) {
      Socket client;
      try {
        client = listener.accept();
      } catch (IOException e) {
        return; // closed
      }
      if (isCut()) {
        refused.incrementAndGet();
        reset(client);
        continue;
      }
      Socket server = new Socket();
      try {
        server.connect(new InetSocketAddress(targetHost, targetPort), CONNECT_TIMEOUT_MILLIS);
      } catch (IOException e) {
        closeQuietly(server);
        closeQuietly(client);
        continue;
      }
      Link link = new Link(client, server);
      if (!register(link)) {
        refused.incrementAndGet();
        reset(client);
        link.close();
        continue;
      }
      accepted.incrementAndGet();
      String thread = name + "-" + client.getPort();
      start(() -> link.pump(client, server, false), thread + "-up");
      start(() -> link.pump(server, client, true), thread + "-down");
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

  /** Waits until {@code readAt} + the current delay; false if the link closed meanwhile. */
  private boolean awaitDelay(long readAt, Link link) throws InterruptedException {
    delayLock.lock();
    try {
      while (!link.closed) {
        long wait = readAt + delayNanos - System.nanoTime();
        if (delayNanos == 0 || wait <= 0) {
          return true;
        }
        delayChanged.awaitNanos(Math.min(wait, TimeUnit.MILLISECONDS.toNanos(200)));
      }
      return false;
    } finally {
      delayLock.unlock();
    }
  }

  private static void reset(Socket socket) {
    try {
      socket.setSoLinger(true, 0); // RST instead of FIN: the client sees a reset connection
    } catch (IOException ignored) {
      // closing is enough
    }
    closeQuietly(socket);
  }

  private static void closeQuietly(AutoCloseable closeable) {
    try {
      closeable.close();
    } catch (Exception ignored) {
      // closing is all we wanted
    }
  }

  /** One forwarded connection. */
  private final class Link {
    private final Socket client;
    private final Socket server;
    private volatile boolean closed;

    Link(Socket client, Socket server) {
      this.client = client;
      this.server = server;
    }

    void pump(Socket from, Socket to, boolean answers) {
      byte[] buffer = new byte[BUFFER_BYTES];
      try {
        InputStream in = from.getInputStream();
        OutputStream out = to.getOutputStream();
        int read;
        while ((read = in.read(buffer)) >= 0) {
          long readAt = System.nanoTime();
          if (answers && dropAnswers) {
            droppedAnswers.incrementAndGet();
            return; // the finally closes both sides: the answer is lost
          }
          if (!awaitDelay(readAt, this)) {
            return;
          }
          if (answers && dropAnswers) { // set while the answer was delayed
            droppedAnswers.incrementAndGet();
            return;
          }
          out.write(buffer, 0, read);
          out.flush();
        }
      } catch (IOException ignored) {
        // either side closed, or the link was cut
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } finally {
        unregister(this);
        close();
      }
    }

    void close() {
      closed = true;
      closeQuietly(client);
      closeQuietly(server);
    }
  }
}
