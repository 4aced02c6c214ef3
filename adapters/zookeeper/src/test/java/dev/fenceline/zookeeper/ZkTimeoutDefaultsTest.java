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

import static org.assertj.core.api.Assertions.assertThat;

import dev.fenceline.spi.FencingStep;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Pointer;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StoreException;
import dev.fenceline.tck.SilentServer;
import dev.fenceline.tck.TcpProxy;
import dev.fenceline.tck.TimedFailure;
import java.net.InetSocketAddress;
import java.time.Duration;
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
    try (TcpProxy proxy = proxyToOneServer();
        ZkStore store =
            ZkStore.builder("127.0.0.1:" + proxy.port())
                .rootPath("/timeouts-" + System.nanoTime())
                .followEnsembleConfig(false) // else Curator moves to the servers' own addresses
                .build()) {
      ResourceId resource = ResourceId.of("frozen/with-defaults");
      assertThat(store.leaseIssuer().status(resource).held()).isFalse();
      proxy.freeze();

      TimedFailure<StoreException> timed =
          TimedFailure.within(
              WITHIN_DEFAULT_TTL,
              StoreException.class,
              () -> store.leaseIssuer().tryAcquire(resource, "w", DEFAULT_TTL));
      StoreException failure = timed.thrown();
      Duration took = timed.took();
      System.out.println("frozen ZooKeeper, default timeouts: the call failed after " + took);

      assertThat(failure).isNotNull().hasMessageContaining("connection to the ensemble was lost");
      // The request timeouts ended the wait, not a refusal.
      assertThat(took).isGreaterThanOrEqualTo(ZkStore.REQUEST_TIMEOUT);
      assertThat(took).isLessThanOrEqualTo(ZkStore.DEFAULT_CALL_BOUND.plusSeconds(2));

      // The session is gone now: every try also waits the connection timeout to connect.
      TimedFailure<StoreException> timedAgain =
          TimedFailure.within(
              WITHIN_DEFAULT_TTL.plusSeconds(10),
              StoreException.class,
              () -> store.leaseIssuer().status(resource));
      StoreException again = timedAgain.thrown();
      Duration tookAgain = timedAgain.took();
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
    try (TcpProxy proxy = proxyToOneServer();
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

      TimedFailure<StoreException> timed =
          TimedFailure.within(
              WITHIN_DEFAULT_TTL.plusSeconds(30),
              StoreException.class,
              () -> pointers.write(token, OperationId.of("v1"), Pointer.to("1")));
      StoreException failure = timed.thrown();
      Duration took = timed.took();
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
    try (SilentServer silent = SilentServer.start("zookeeper")) {
      TimedFailure<StoreException> timed =
          TimedFailure.within(
              WITHIN_DEFAULT_TTL,
              StoreException.class,
              () ->
                  ZkStore.builder("127.0.0.1:" + silent.port())
                      .followEnsembleConfig(false)
                      .build());
      StoreException failure = timed.thrown();
      Duration took = timed.took();
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
   * A proxy to the first server of the shared ensemble; {@link TcpProxy#freeze()} makes it a
   * SIGSTOPped server or a black-holing network: connections stay open, nothing is answered.
   */
  private static TcpProxy proxyToOneServer() {
    ZkEnsemble ensemble = ZkTestStores.shared();
    InetSocketAddress server =
        new InetSocketAddress(
            ensemble.servers().get(0).getHostname(), ensemble.servers().get(0).getPort());
    return TcpProxy.to("zk-freezing-proxy", server);
  }
}
