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

import static java.util.Objects.requireNonNull;

import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.LeaseSignals;
import dev.fenceline.spi.LeaseWatch;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;

/**
 * Tells the holders of one {@link ZkLeaseIssuer}'s leases what the Curator client's connection
 * state means for them ({@link dev.fenceline.spi.LeaseIssuer#watch}). A lease ends when the
 * ensemble expires the session that created its ephemeral holder node, and the ensemble does so
 * once it has not heard from the client for the session timeout, whatever the lease's ttl says:
 *
 * <ul>
 *   <li>{@link ConnectionState#SUSPENDED} (connection lost) and {@link ConnectionState#READ_ONLY}
 *       (a server without a quorum): the lease cannot be counted on beyond the session timeout from
 *       the last contact, less a tenth for the event's delivery and the clocks' rates ({@link
 *       LeaseSignals#endsWithin}). The last contact is the later of the sending of the last write
 *       this issuer had answered and the suspension minus the client's read timeout (two thirds of
 *       the session timeout: the ZooKeeper client declares the connection lost at the latest when
 *       it has heard nothing for that long).
 *   <li>{@link ConnectionState#LOST} (Curator saw the session expire, or the session timeout pass
 *       while suspended, or a new session): the lease ended ({@link LeaseSignals#ended}).
 *   <li>{@link ConnectionState#RECONNECTED} with the same ZooKeeper handle: nothing is restored,
 *       the holder is asked to renew ({@link LeaseSignals#renewSoon}); a successful renewal lifts
 *       the bound. With another handle (a new session): the lease ended.
 * </ul>
 *
 * <p>The listener is registered on the client only while leases are watched, also on a client the
 * application passed in, and is never proxied ({@link #doNotProxy()}): a circuit-breaking listener
 * manager would hold back the second suspension of a flapping connection. It runs on Curator's
 * event thread, so it only computes and signals.
 */
final class ZkLeaseWatches implements ConnectionStateListener {

  private final CuratorFramework client;
  private final String shown;
  private final Map<Long, Watched> watched = new HashMap<>();
  // Guarded by this.
  private long nextId;
  private boolean listening;
  private boolean contacted;
  private long lastContactNanos;

  /**
   * One watched lease: its token, its holder's signals, and the client handle it was granted on.
   */
  private record Watched(FencingToken token, LeaseSignals signals, long instance) {}

  ZkLeaseWatches(CuratorFramework client, String shown) {
    this.client = requireNonNull(client, "client is null");
    this.shown = requireNonNull(shown, "shown is null");
  }

  /**
   * Records that a write sent at {@code sentNanos} ({@link System#nanoTime()}) was answered: the
   * ensemble heard from this client's session after that moment.
   */
  synchronized void contact(long sentNanos) {
    if (!contacted || sentNanos - lastContactNanos > 0) {
      contacted = true;
      lastContactNanos = sentNanos;
    }
  }

  /** Starts signalling {@code signals} about the lease of {@code token}. */
  LeaseWatch watch(FencingToken token, LeaseSignals signals) {
    requireNonNull(token, "token is null");
    requireNonNull(signals, "signals is null");
    long instance = client.getZookeeperClient().getInstanceIndex();
    long id;
    synchronized (this) {
      id = nextId++;
      watched.put(id, new Watched(token, signals, instance));
      if (!listening) {
        client.getConnectionStateListenable().addListener(this);
        listening = true;
      }
    }
    if (!client.getZookeeperClient().isConnected()) {
      // Suspended between the grant and this watch: the event went by before we listened.
      long now = System.nanoTime();
      signals.endsWithin(bound(now), suspended());
    }
    return () -> unwatch(id);
  }

  private void unwatch(long id) {
    synchronized (this) {
      if (watched.remove(id) != null && watched.isEmpty() && listening) {
        client.getConnectionStateListenable().removeListener(this);
        listening = false;
      }
    }
  }

  /** How many leases are watched now (tests). */
  synchronized int watchedLeases() {
    return watched.size();
  }

  @Override
  public void stateChanged(CuratorFramework changed, ConnectionState state) {
    List<Watched> targets;
    synchronized (this) {
      targets = new ArrayList<>(watched.values());
    }
    if (targets.isEmpty()) {
      return;
    }
    long now = System.nanoTime();
    switch (state) {
      case SUSPENDED, READ_ONLY -> {
        Duration atMost = bound(now);
        String reason = state == ConnectionState.READ_ONLY ? readOnly() : suspended();
        targets.forEach(target -> target.signals().endsWithin(atMost, reason));
      }
      case LOST ->
          targets.forEach(
              target ->
                  target
                      .signals()
                      .ended(
                          "Curator reported the ZooKeeper session lost at "
                              + shown
                              + " (the ensemble expired it, the session timeout passed while the"
                              + " connection was suspended, or the client has a new session); the"
                              + " holder node of the lease "
                              + target.token()
                              + " goes with it"));
      case CONNECTED, RECONNECTED -> {
        long instance = client.getZookeeperClient().getInstanceIndex();
        for (Watched target : targets) {
          if (target.instance() != instance) {
            target
                .signals()
                .ended(
                    "the Curator client reconnected to "
                        + shown
                        + " with another ZooKeeper session than the one that holds the lease "
                        + target.token()
                        + "; the ensemble expires that session with its holder node");
          } else {
            target
                .signals()
                .renewSoon("reconnected to " + shown + " in the session that holds the lease");
          }
        }
      }
    }
  }

  /**
   * Never wrapped by a circuit-breaking listener manager: every suspension must reach the leases.
   */
  @Override
  public boolean doNotProxy() {
    return true;
  }

  /** How long from {@code now} the session that holds the leases can still be counted on. */
  private Duration bound(long now) {
    long session = sessionTimeoutNanos();
    if (session <= 0) {
      return Duration.ZERO; // never connected with a negotiated timeout: nothing to count on
    }
    long contact = now - session * 2 / 3;
    synchronized (this) {
      if (contacted && lastContactNanos - contact > 0) {
        contact = lastContactNanos;
      }
    }
    long endsAt = contact + session - session / 10;
    return Duration.ofNanos(Math.max(0, endsAt - now));
  }

  private long sessionTimeoutNanos() {
    return TimeUnit.MILLISECONDS.toNanos(
        client.getZookeeperClient().getLastNegotiatedSessionTimeoutMs());
  }

  private String suspended() {
    return "the connection to ZooKeeper at "
        + shown
        + " was suspended; the ensemble expires the session that holds the lease (and its holder"
        + " node) once it has not heard from this client for the session timeout of "
        + Duration.ofNanos(sessionTimeoutNanos())
        + ", counted from the last contact";
  }

  private String readOnly() {
    return "the client is connected to a read-only ZooKeeper server at "
        + shown
        + " (no quorum); the ensemble expires the session that holds the lease once it has not"
        + " heard from this client for the session timeout of "
        + Duration.ofNanos(sessionTimeoutNanos());
  }
}
