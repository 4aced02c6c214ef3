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
import java.util.stream.Collectors;

/**
 * A TCP forwarder between clients and a {@link ZkEnsemble}: one loopback listening port per server,
 * each forwarding to that server. A client whose connect string is {@link #connectString()} reaches
 * the ensemble only through this proxy, so {@link #cut()} partitions that client from the whole
 * ensemble while clients with the ensemble's own connect string keep working.
 *
 * <p>Plain blocking sockets, two daemon threads per forwarded connection.
 */
final class ZkProxy implements AutoCloseable {

  private static final int CONNECT_TIMEOUT_MILLIS = 1_000;

  private final List<ServerSocket> listeners = new ArrayList<>();
  private final Set<Link> links = new HashSet<>();
  private boolean cut;
  private boolean closed;

  /** Starts forwarding to every server of {@code ensemble}, including servers that are down. */
  ZkProxy(ZkEnsemble ensemble) {
    this(
        ensemble.servers().stream()
            .map(spec -> new InetSocketAddress(spec.getHostname(), spec.getPort()))
            .toList());
  }

  /** Starts forwarding one new loopback port to each of {@code targets}, in order. */
  ZkProxy(List<InetSocketAddress> targets) {
    try {
      for (InetSocketAddress target : targets) {
        ServerSocket listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        listeners.add(listener);
        Thread acceptor =
            new Thread(
                () -> accept(listener, target),
                "zk-proxy-" + listener.getLocalPort() + "-to-" + target.getPort());
        acceptor.setDaemon(true);
        acceptor.start();
      }
    } catch (IOException e) {
      close();
      throw new UncheckedIOException("Cannot open a listening port for the ZooKeeper proxy", e);
    }
  }

  /** The connect string that reaches the ensemble through this proxy only. */
  String connectString() {
    return listeners.stream()
        .map(l -> l.getInetAddress().getHostAddress() + ":" + l.getLocalPort())
        .collect(Collectors.joining(","));
  }

  /**
   * Closes every forwarded connection and, until {@link #heal()}, closes new ones as soon as they
   * are accepted: the client sees connection loss at once and cannot reach any server.
   */
  void cut() {
    List<Link> dropped;
    synchronized (this) {
      cut = true;
      dropped = new ArrayList<>(links);
      links.clear();
    }
    dropped.forEach(Link::close);
  }

  /** Forwards new connections again after {@link #cut()}. */
  synchronized void heal() {
    cut = false;
  }

  /** How many connections are being forwarded right now. */
  synchronized int openConnections() {
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
    dropped.forEach(Link::close);
    for (ServerSocket listener : listeners) {
      closeQuietly(listener);
    }
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
        // The server is down: the client sees what it would see without the proxy, a closed
        // connection.
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
      String name = "zk-proxy-link-" + client.getPort() + "-" + target.getPort();
      Thread up = new Thread(() -> pump(client, server), name + "-up");
      Thread down = new Thread(() -> pump(server, client), name + "-down");
      up.setDaemon(true);
      down.setDaemon(true);
      up.start();
      down.start();
    }

    private void pump(Socket from, Socket to) {
      byte[] buffer = new byte[16 * 1024];
      try {
        InputStream in = from.getInputStream();
        OutputStream out = to.getOutputStream();
        int read;
        while ((read = in.read(buffer)) >= 0) {
          out.write(buffer, 0, read);
          out.flush();
        }
      } catch (IOException ignored) {
        // either side closed or the link was cut
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
