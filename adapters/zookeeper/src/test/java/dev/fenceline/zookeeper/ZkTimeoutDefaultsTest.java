package dev.fenceline.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.fenceline.spi.FencingStep;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Pointer;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StoreException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * With its default timeouts, one call of a ZooKeeper store to an ensemble that stops answering ends
 * with a clear {@link StoreException} well within the default lease ttl (30 s), so the worker
 * learns that the store is gone while its lease still runs.
 */
class ZkTimeoutDefaultsTest {

  /** The default lease ttl ({@code Fenceline.builder()}, YAML {@code lease.ttl}). */
  private static final Duration DEFAULT_TTL = Duration.ofSeconds(30);

  private static final Duration WITHIN_DEFAULT_TTL = DEFAULT_TTL.minusSeconds(5);

  /** The bound the worker needs: it learns of a gone store with time left to stop (issue 18). */
  private static final Duration TARGET = Duration.ofSeconds(22);

  @Test
  void theDefaultsBoundACallToASilentEnsembleWellBelowTheDefaultTtl() {
    // Every try may wait the connection timeout to connect (the session was lost) and then the
    // request timeout for its answer (a frozen server's pending request, or one queued while the
    // connection is down); Curator sleeps at most base × 2^(retry + 1) (capped) between the tries.
    Duration longest =
        ZkStore.DEFAULT_CONNECTION_TIMEOUT
            .plus(ZkStore.REQUEST_TIMEOUT)
            .multipliedBy(ZkStore.RETRIES + 1);
    for (int retry = 0; retry < ZkStore.RETRIES; retry++) {
      Duration sleep = ZkStore.BASE_RETRY_SLEEP.multipliedBy(1L << (retry + 1));
      longest =
          longest.plus(
              sleep.compareTo(ZkStore.MAX_RETRY_SLEEP) < 0 ? sleep : ZkStore.MAX_RETRY_SLEEP);
    }

    assertThat(ZkStore.DEFAULT_CALL_BOUND).isEqualTo(longest);
    assertThat(ZkStore.callBound(ZkStore.DEFAULT_CONNECTION_TIMEOUT)).isEqualTo(longest);
    assertThat(longest).isLessThanOrEqualTo(TARGET);
    // The ensemble ends a holder's leases at most a session timeout after losing it.
    assertThat(ZkStore.DEFAULT_SESSION_TIMEOUT).isLessThanOrEqualTo(DEFAULT_TTL);
  }

  @Test
  void withTheDefaultsACallToAnEnsembleThatFreezesFailsClearlyWithinTheDefaultTtl()
      throws Exception {
    ZkEnsemble ensemble = ZkTestStores.shared();
    InetSocketAddress server =
        new InetSocketAddress(
            ensemble.servers().get(0).getHostname(), ensemble.servers().get(0).getPort());
    try (FreezingProxy proxy = new FreezingProxy(server);
        ZkStore store =
            ZkStore.builder("127.0.0.1:" + proxy.port())
                .rootPath("/timeouts-" + System.nanoTime())
                .followEnsembleConfig(false) // else Curator moves to the servers' own addresses
                .build()) {
      ResourceId resource = ResourceId.of("frozen/with-defaults");
      assertThat(store.leaseIssuer().status(resource).held()).isFalse();
      proxy.freeze();

      long start = System.nanoTime();
      StoreException failure =
          assertTimeoutPreemptively(
              WITHIN_DEFAULT_TTL,
              () ->
                  catchThrowableOfType(
                      StoreException.class,
                      () -> store.leaseIssuer().tryAcquire(resource, "w", DEFAULT_TTL)));
      Duration took = Duration.ofNanos(System.nanoTime() - start);
      System.out.println("frozen ZooKeeper, default timeouts: the call failed after " + took);

      assertThat(failure).isNotNull().hasMessageContaining("connection to the ensemble was lost");
      // The request timeouts ended the wait, not a refusal.
      assertThat(took).isGreaterThanOrEqualTo(ZkStore.REQUEST_TIMEOUT);
      assertThat(took).isLessThanOrEqualTo(ZkStore.DEFAULT_CALL_BOUND.plusSeconds(2));

      // The session is gone now: every try also waits the connection timeout to connect.
      long later = System.nanoTime();
      StoreException again =
          assertTimeoutPreemptively(
              WITHIN_DEFAULT_TTL.plusSeconds(10),
              () ->
                  catchThrowableOfType(
                      StoreException.class, () -> store.leaseIssuer().status(resource)));
      Duration tookAgain = Duration.ofNanos(System.nanoTime() - later);
      System.out.println(
          "frozen ZooKeeper, default timeouts, session lost: the call failed after " + tookAgain);

      assertThat(again)
          .isNotNull()
          .hasMessageContaining("Cannot read the lease status of " + resource)
          .hasMessageContaining("connection to the ensemble was lost");
      assertThat(tookAgain).isLessThanOrEqualTo(TARGET.plusSeconds(1));
    }
  }

  @Test
  void withTheDefaultsASwapWhoseAnswerIsLostToAFrozenEnsembleEndsWithinTheCallBoundInAll()
      throws Exception {
    ZkEnsemble ensemble = ZkTestStores.shared();
    InetSocketAddress server =
        new InetSocketAddress(
            ensemble.servers().get(0).getHostname(), ensemble.servers().get(0).getPort());
    try (FreezingProxy proxy = new FreezingProxy(server);
        ZkStore store =
            ZkStore.builder("127.0.0.1:" + proxy.port())
                .rootPath("/timeouts-" + System.nanoTime())
                .followEnsembleConfig(false)
                .build()) {
      ResourceId resource = ResourceId.of("frozen/swap");
      FencingToken token =
          store.leaseIssuer().tryAcquire(resource, "w", DEFAULT_TTL).orElseThrow().token();
      // The ensemble freezes between the checks and the transaction: its answer never comes, and
      // the read that would decide whether it landed finds the ensemble frozen too.
      ZkPointerStore pointers =
          store.pointerStore(
              "swap",
              (step, t, o) -> {
                if (step == FencingStep.AFTER_APPLY) {
                  proxy.freeze();
                }
              });

      long start = System.nanoTime();
      StoreException failure =
          assertTimeoutPreemptively(
              WITHIN_DEFAULT_TTL.plusSeconds(30),
              () ->
                  catchThrowableOfType(
                      StoreException.class,
                      () -> pointers.write(token, OperationId.of("v1"), Pointer.to("1"))));
      Duration took = Duration.ofNanos(System.nanoTime() - start);
      System.out.println("frozen ZooKeeper, default timeouts: the swap failed after " + took);

      assertThat(failure).isNotNull();
      assertThat(failure.outcomeUnknown()).isTrue();
      assertThat(failure).hasMessageContaining("write operation v1 of " + resource);
      assertThat(took).isLessThanOrEqualTo(WITHIN_DEFAULT_TTL);
    }
  }

  @Test
  void withTheDefaultsOpeningAStoreOnASilentServerFailsClearlyWithinTheConnectionTimeout()
      throws Exception {
    try (FreezingProxy silent = new FreezingProxy(null)) {
      long start = System.nanoTime();
      StoreException failure =
          assertTimeoutPreemptively(
              WITHIN_DEFAULT_TTL,
              () ->
                  catchThrowableOfType(
                      StoreException.class,
                      () ->
                          ZkStore.builder("127.0.0.1:" + silent.port())
                              .followEnsembleConfig(false)
                              .build()));
      Duration took = Duration.ofNanos(System.nanoTime() - start);
      System.out.println("silent ZooKeeper, default timeouts: opening failed after " + took);

      assertThat(failure).isNotNull();
      assertThat(failure.outcomeUnknown()).isFalse();
      assertThat(failure)
          .hasMessageContaining("Cannot connect to ZooKeeper at zookeeper://127.0.0.1:")
          .hasMessageContaining("within " + ZkStore.DEFAULT_CONNECTION_TIMEOUT);
      assertThat(took).isGreaterThanOrEqualTo(ZkStore.DEFAULT_CONNECTION_TIMEOUT.minusMillis(200));
      // The error comes at the time it names (closing the client does not wait for the silent
      // server to answer the end of the session).
      assertThat(took).isLessThanOrEqualTo(ZkStore.DEFAULT_CONNECTION_TIMEOUT.plusMillis(1500));
    }
  }

  /**
   * Forwards to {@code target} until {@link #freeze()}; from then on it reads and drops every byte
   * both ways and keeps every connection open, as a SIGSTOPped server or a black-holing network
   * does. With a null target it never forwards: a server that accepts and never answers.
   */
  private static final class FreezingProxy implements AutoCloseable {
    private final ServerSocket listener;
    private final List<Socket> sockets = Collections.synchronizedList(new ArrayList<>());
    private volatile boolean frozen;

    FreezingProxy(InetSocketAddress target) throws IOException {
      listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
      frozen = target == null;
      Thread acceptor =
          new Thread(
              () -> {
                try {
                  while (true) {
                    Socket client = listener.accept();
                    sockets.add(client);
                    Socket upstream = null;
                    if (target != null) {
                      upstream = new Socket();
                      upstream.connect(target, 1_000);
                      sockets.add(upstream);
                    }
                    pump(client, upstream);
                    if (upstream != null) {
                      pump(upstream, client);
                    }
                  }
                } catch (IOException closed) {
                  // the proxy is closed
                }
              },
              "zk-freezing-proxy");
      acceptor.setDaemon(true);
      acceptor.start();
    }

    int port() {
      return listener.getLocalPort();
    }

    void freeze() {
      frozen = true;
    }

    private void pump(Socket from, Socket to) {
      Thread pump =
          new Thread(
              () -> {
                byte[] buffer = new byte[8192];
                try (InputStream in = from.getInputStream()) {
                  OutputStream out = to == null ? null : to.getOutputStream();
                  int read;
                  while ((read = in.read(buffer)) >= 0) {
                    if (!frozen && out != null) {
                      out.write(buffer, 0, read);
                      out.flush();
                    }
                  }
                } catch (IOException e) {
                  // a side closed
                }
              },
              "zk-freezing-proxy-pump");
      pump.setDaemon(true);
      pump.start();
    }

    @Override
    public void close() throws IOException {
      listener.close();
      synchronized (sockets) {
        for (Socket socket : sockets) {
          socket.close();
        }
      }
    }
  }
}
