package dev.fenceline.zookeeper;

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

/**
 * A TCP forwarder whose answering direction can be held: while {@link #hold() held}, no byte that a
 * target sends reaches the connecting side (the bytes wait, in order, in the proxy and the kernel's
 * buffers); {@link #release()} lets them flow on. Bytes from the connecting side to the targets are
 * always forwarded. Nothing is dropped and no connection is closed, so both ends see a slow link,
 * not a broken one.
 *
 * <p>Used between a ZooKeeper follower and the leader's quorum port: held, the leader's proposals
 * and commits do not reach the follower, which keeps serving its clients from the state it had
 * (behind the leader), while the follower's own requests still reach the leader.
 *
 * <p>{@link #hold()} is exact: once it returns, no further byte is written to a connecting side
 * until {@link #release()}. Plain blocking sockets, two daemon threads per forwarded connection.
 */
final class HoldingProxy implements AutoCloseable {

  private static final int CONNECT_TIMEOUT_MILLIS = 1_000;

  private final List<ServerSocket> listeners = new ArrayList<>();
  private final Set<Socket> sockets = new HashSet<>();
  private final ReentrantLock gate = new ReentrantLock();
  private final Condition released = gate.newCondition();
  private boolean held;
  private boolean closed;

  /** Starts forwarding one new port on {@code host} to each of {@code targets}, in order. */
  HoldingProxy(String host, List<InetSocketAddress> targets) {
    try {
      for (InetSocketAddress target : targets) {
        ServerSocket listener = new ServerSocket(0, 50, InetAddress.getByName(host));
        listeners.add(listener);
        Thread acceptor =
            new Thread(
                () -> accept(listener, target),
                "holding-proxy-" + listener.getLocalPort() + "-to-" + target.getPort());
        acceptor.setDaemon(true);
        acceptor.start();
      }
    } catch (IOException e) {
      close();
      throw new UncheckedIOException("Cannot open a listening port for the holding proxy", e);
    }
  }

  /** The listening port that forwards to the {@code index}th target. */
  int port(int index) {
    return listeners.get(index).getLocalPort();
  }

  /** Stops forwarding the targets' bytes until {@link #release()}; returns once none is written. */
  void hold() {
    gate.lock();
    try {
      held = true;
    } finally {
      gate.unlock();
    }
  }

  /** Forwards the targets' bytes again, those kept while held first. */
  void release() {
    gate.lock();
    try {
      held = false;
      released.signalAll();
    } finally {
      gate.unlock();
    }
  }

  /** Stops listening and closes every forwarded connection. */
  @Override
  public void close() {
    List<Socket> open;
    synchronized (this) {
      closed = true;
      open = new ArrayList<>(sockets);
      sockets.clear();
    }
    // Closing first ends a write blocked while it holds the gate; then the waiting writers wake.
    open.forEach(HoldingProxy::closeQuietly);
    listeners.forEach(HoldingProxy::closeQuietly);
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
      Socket server = new Socket();
      try {
        server.connect(target, CONNECT_TIMEOUT_MILLIS);
      } catch (IOException e) {
        // The target does not listen (a follower has no quorum port open): the connecting side sees
        // what it would see without the proxy, a closed connection.
        closeQuietly(server);
        closeQuietly(client);
        continue;
      }
      if (!register(client, server)) {
        continue;
      }
      String name = "holding-proxy-link-" + client.getPort() + "-" + target.getPort();
      Thread up = new Thread(() -> pump(client, server, false), name + "-up");
      Thread down = new Thread(() -> pump(server, client, true), name + "-down");
      up.setDaemon(true);
      down.setDaemon(true);
      up.start();
      down.start();
    }
  }

  private synchronized boolean register(Socket client, Socket server) {
    if (closed) {
      closeQuietly(client);
      closeQuietly(server);
      return false;
    }
    sockets.add(client);
    sockets.add(server);
    return true;
  }

  private void pump(Socket from, Socket to, boolean holdable) {
    byte[] buffer = new byte[16 * 1024];
    try {
      InputStream in = from.getInputStream();
      OutputStream out = to.getOutputStream();
      int read;
      while ((read = in.read(buffer)) >= 0) {
        if (holdable) {
          writeWhenReleased(out, buffer, read);
        } else {
          out.write(buffer, 0, read);
          out.flush();
        }
      }
    } catch (IOException ignored) {
      // either side closed
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      closeQuietly(from);
      closeQuietly(to);
    }
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
}
