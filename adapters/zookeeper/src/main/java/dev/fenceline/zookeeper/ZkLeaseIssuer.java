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

import dev.fenceline.cas.StrictJson;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.Lease;
import dev.fenceline.spi.LeaseIssuer;
import dev.fenceline.spi.LeaseLostException;
import dev.fenceline.spi.LeaseSignals;
import dev.fenceline.spi.LeaseStatus;
import dev.fenceline.spi.LeaseWatch;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StoreException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.curator.framework.api.transaction.CuratorTransactionResult;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.data.Stat;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A {@link LeaseIssuer} on a ZooKeeper ensemble; obtain it from {@link ZkStore#leaseIssuer()}.
 *
 * <p><b>Epochs.</b> Per resource one persistent lease node holds the epoch, the holder and the
 * lease length. It is never deleted and only changed by versioned writes: an acquire reads it and
 * writes epoch + 1 in a multi-operation transaction that fails if anyone changed the node since.
 * ZooKeeper acknowledges a transaction only once a quorum logged it, so an epoch handed out is
 * never handed out again, also after the leader is lost or the whole ensemble restarts.
 *
 * <p><b>Expiry, decided by the ensemble.</b> A lease is held while both hold:
 *
 * <ul>
 *   <li>its ttl has not passed by the ensemble's clock: it runs from the time the leader stamped on
 *       the transaction that granted or last renewed it ({@code mtime}), compared with the time
 *       stamped on a write the issuer makes to {@code <root>/clock} before each decision; and
 *   <li>the holder's ZooKeeper session lives: the granting transaction also creates an ephemeral
 *       {@code holder} node owned by the acquiring client's session, which the ensemble deletes
 *       when it expires the session (the client was cut off for longer than the session timeout, or
 *       closed).
 * </ul>
 *
 * No worker's clock takes part. The ensemble servers' clocks should be synchronized (NTP): after a
 * leader change the new leader's clock stamps the writes, and a skew between servers lengthens or
 * shortens leases by that much (it never lets two leases share an epoch). Renewals must come from
 * the client (session) that acquired the lease.
 *
 * <p>A renewal is decided against the clock write that precedes it, but its transaction is
 * conditioned only on the node versions; if the transaction lands at or after the expiry it was
 * meant to prevent ({@code mtime} of the renewal at or past the old expiry; nobody acquired in
 * between, or the versions would have refused it), the issuer undoes it with a release conditioned
 * on the renewed node's version (one more round trip) and throws {@link LeaseLostException}: an
 * expired lease is never brought back. If that undo cannot be written, the lease stays held, by a
 * holder told it lost it, until the renewed expiry at the latest.
 *
 * <p><b>The holder's belief follows the session.</b> Through {@link #watch} the issuer tells the
 * holder ({@code HeldLease}, {@code EfficiencyLease} of the core module) when the session is in
 * danger: while the connection is suspended the lease is believed at most until the session timeout
 * has passed since the last contact, and a lost session ends the belief at once, so a holder that
 * is cut off stops believing before the ensemble expires its session and another worker acquires.
 *
 * <p>Costs per step (round trips to the ensemble): acquire 4 (clock write, lease read, holder
 * check, transaction), renew 4, release 4 (read barrier, lease read, holder check, transaction),
 * status 3. Thread-safe.
 *
 * <p>Known limit: a release whose answer was lost, re-sent by Curator and refused because another
 * worker acquired the lease in between, answers false although it was applied (its nonce was
 * overwritten); nothing else is affected.
 */
public final class ZkLeaseIssuer implements LeaseIssuer {

  private final ZkStore store;
  private final ZkNodes nodes;
  private final ZkPaths paths;
  private final ZkLeaseWatches watches;

  ZkLeaseIssuer(ZkStore store) {
    this.store = requireNonNull(store, "store is null");
    this.nodes = store.nodes();
    this.paths = store.paths();
    this.watches = new ZkLeaseWatches(store.client(), store.location());
  }

  /**
   * The store's identity ({@link ZkStore#id()}): every issuer on the root path shares the epochs.
   */
  @Override
  public String id() {
    return store.id();
  }

  @Override
  public Optional<Lease> tryAcquire(ResourceId resource, String holder, Duration ttl) {
    return store.call(() -> tryAcquireInCall(resource, holder, ttl));
  }

  private Optional<Lease> tryAcquireInCall(ResourceId resource, String holder, Duration ttl) {
    requireNonNull(resource, "resource is null");
    FencingToken.validateHolder(holder);
    long ttlMillis = ttlMillis("lease " + resource, ttl);
    String action = "acquire the lease on " + resource;
    Current refused = null;
    while (true) {
      ZkNodes.Now now = ensembleNow(action);
      Current current = current(resource, action, true);
      requireProgress(refused, current, now.barrier(), resource, action);
      if (current.held(now.instant())) {
        if (!nodes.holds(now.barrier(), action)) {
          continue; // read in another session than the barrier: read again
        }
        return Optional.empty();
      }
      String nonce = UUID.randomUUID().toString();
      LeaseNode next = new LeaseNode(current.lease().epoch() + 1, holder, ttlMillis, nonce);
      List<CuratorOp> ops = new ArrayList<>();
      ops.add(nodes.setData(paths.lease(resource), next.toJson(), current.stat().getVersion()));
      current
          .holder()
          .ifPresent(stat -> ops.add(nodes.delete(paths.holder(resource), stat.getVersion())));
      ops.add(
          nodes.create(
              paths.holder(resource),
              (holder + "@" + next.epoch()).getBytes(StandardCharsets.UTF_8),
              CreateMode.EPHEMERAL));
      Optional<Stat> granted = commit(resource, ops, nonce, true, action);
      if (granted.isPresent()) {
        FencingToken token =
            store.sign(new FencingToken(store.id(), resource, Epoch.of(next.epoch()), holder));
        return Optional.of(
            new Lease(token, expiresAt(granted.get(), ttlMillis), Duration.ofMillis(ttlMillis)));
      }
      refused = unchanged(current, now.barrier(), action);
    }
  }

  /**
   * Sets the lease to end {@code ttl} (whole milliseconds, rounded up; at least 1 ms) after the
   * time the ensemble stamps on the renewing transaction.
   */
  @Override
  public Lease renew(Lease lease, Duration ttl) {
    requireNonNull(lease, "lease is null");
    long ttlMillis = ttlMillis("renew lease " + lease.token(), ttl);
    return store.call(() -> renewInCall(lease, ttl, ttlMillis));
  }

  private Lease renewInCall(Lease lease, Duration ttl, long ttlMillis) {
    ResourceId resource = lease.resource();
    if (!lease.token().issuer().equals(store.id())) {
      throw lost(lease, "it was issued by " + lease.token().issuer() + ", not by " + store.id());
    }
    String action = "renew the lease " + lease.token();
    Current refused = null;
    while (true) {
      ZkNodes.Now now = ensembleNow(action);
      Current current = current(resource, action, false);
      requireProgress(refused, current, now.barrier(), resource, action);
      String reason = reasonLost(current, lease, now.instant(), nodes.sessionId(action));
      if (reason != null) {
        if (!nodes.holds(now.barrier(), action)) {
          continue;
        }
        throw lost(lease, reason);
      }
      String nonce = UUID.randomUUID().toString();
      LeaseNode next =
          new LeaseNode(lease.epoch().value(), lease.token().holder(), ttlMillis, nonce);
      List<CuratorOp> ops =
          List.of(
              nodes.setData(paths.lease(resource), next.toJson(), current.stat().getVersion()),
              nodes.check(paths.holder(resource), current.holder().orElseThrow().getVersion()));
      Optional<Stat> renewed = commit(resource, ops, nonce, true, action);
      if (renewed.isPresent()) {
        // Decided in the lease's session; if Curator sent it in a new one (it gave the old one up,
        // which the ensemble still holds), the holder node dies with the old session.
        if (!nodes.holds(now.barrier(), action) && !ownsHolder(resource, action)) {
          throw lost(
              lease,
              "the client's ZooKeeper session changed while renewing; the lease's holder node"
                  + " belongs to the session it gave up, which the ensemble expires");
        }
        Instant expiredAt = expiresAt(current.stat(), current.lease().ttlMillis());
        if (renewed.get().getMtime() >= expiredAt.toEpochMilli()) {
          throw revived(lease, resource, renewed.get(), ttlMillis, current, expiredAt, action);
        }
        return new Lease(
            lease.token(), expiresAt(renewed.get(), ttlMillis), Duration.ofMillis(ttlMillis));
      }
      refused = unchanged(current, now.barrier(), action);
    }
  }

  /**
   * The renewal landed at or after the expiry it was meant to prevent (the lease expired by the
   * ensemble's clock while the transaction was on its way; nobody acquired, else the versioned
   * write would have failed): an expired lease is never brought back, so the renewal is undone by a
   * release conditioned on the renewed node's version, and the lease is lost. If the undo does not
   * land (the store fails, or the nodes changed), the lease stays held until the renewed expiry but
   * belongs to nobody who still believes it: no other worker acquires meanwhile.
   */
  private LeaseLostException revived(
      Lease lease,
      ResourceId resource,
      Stat renewed,
      long renewedTtlMillis,
      Current current,
      Instant expiredAt,
      String action) {
    String nonce = UUID.randomUUID().toString();
    LeaseNode released =
        new LeaseNode(lease.epoch().value(), null, current.lease().ttlMillis(), nonce);
    List<CuratorOp> ops = new ArrayList<>();
    ops.add(nodes.setData(paths.lease(resource), released.toJson(), renewed.getVersion()));
    current
        .holder()
        .ifPresent(stat -> ops.add(nodes.delete(paths.holder(resource), stat.getVersion())));
    String undo;
    StoreException undoFailed = null;
    try {
      undo =
          commit(resource, ops, nonce, false, action).isPresent()
              ? "the renewal that landed after it was undone"
              : "the lease node changed before the renewal could be undone";
    } catch (StoreException e) {
      undoFailed = e;
      undo =
          "the renewal that landed after it could not be undone ("
              + e.getMessage()
              + "); it ends by itself at "
              + expiresAt(renewed, renewedTtlMillis)
              + " at the latest";
    }
    LeaseLostException lost =
        lost(
            lease,
            "it expired at "
                + expiredAt
                + " by the ensemble's clock while the renewal was on its way; "
                + undo);
    if (undoFailed != null) {
      lost.addSuppressed(undoFailed);
    }
    return lost;
  }

  @Override
  public boolean release(Lease lease) {
    return store.call(() -> releaseInCall(lease));
  }

  private boolean releaseInCall(Lease lease) {
    requireNonNull(lease, "lease is null");
    if (!lease.token().issuer().equals(store.id())) {
      return false; // another issuer's lease is never current here
    }
    ResourceId resource = lease.resource();
    String action = "release the lease " + lease.token();
    Current refused = null;
    while (true) {
      ZkNodes.Barrier barrier = nodes.barrier(action);
      Current current = current(resource, action, false);
      requireProgress(refused, current, barrier, resource, action);
      LeaseNode node = current.lease();
      if (node.epoch() != lease.epoch().value()
          || node.holder() == null
          || !node.holder().equals(lease.token().holder())) {
        if (!nodes.holds(barrier, action)) {
          continue;
        }
        return false;
      }
      String nonce = UUID.randomUUID().toString();
      LeaseNode next = new LeaseNode(node.epoch(), null, node.ttlMillis(), nonce);
      List<CuratorOp> ops = new ArrayList<>();
      ops.add(nodes.setData(paths.lease(resource), next.toJson(), current.stat().getVersion()));
      current
          .holder()
          .ifPresent(stat -> ops.add(nodes.delete(paths.holder(resource), stat.getVersion())));
      if (commit(resource, ops, nonce, false, action).isPresent()) {
        return true;
      }
      refused = unchanged(current, barrier, action);
    }
  }

  @Override
  public LeaseStatus status(ResourceId resource) {
    return store.call(() -> statusInCall(resource));
  }

  private LeaseStatus statusInCall(ResourceId resource) {
    requireNonNull(resource, "resource is null");
    String action = "read the lease status of " + resource;
    ZkNodes.Now now;
    Current current;
    do {
      now = nodes.ensembleNow(action);
      current = current(resource, action, false);
    } while (!nodes.holds(now.barrier(), action));
    LeaseNode node = current.lease();
    if (node.epoch() == 0) {
      return new LeaseStatus(resource, Epoch.NONE, Optional.empty(), Optional.empty(), false);
    }
    if (node.holder() == null) {
      return new LeaseStatus(
          resource, Epoch.of(node.epoch()), Optional.empty(), Optional.empty(), false);
    }
    return new LeaseStatus(
        resource,
        Epoch.of(node.epoch()),
        Optional.of(node.holder()),
        Optional.of(expiresAt(current.stat(), node.ttlMillis())),
        current.held(now.instant()));
  }

  /**
   * Follows the Curator client's connection state for {@code lease} (see {@link ZkLeaseWatches}),
   * also on a client the application passed to {@link ZkStore#builder(
   * org.apache.curator.framework.CuratorFramework)}: a suspended connection bounds the holder's
   * belief by the session timeout from the last contact, a lost or new session ends it, and a
   * reconnection in the same session asks for a renewal (which alone lifts the bound). A lease of
   * another issuer is not watched.
   */
  @Override
  public LeaseWatch watch(Lease lease, LeaseSignals signals) {
    requireNonNull(lease, "lease is null");
    requireNonNull(signals, "signals is null");
    if (!lease.token().issuer().equals(store.id())) {
      return LeaseWatch.NONE;
    }
    return watches.watch(lease.token(), signals);
  }

  /** The watches of this issuer's leases (tests drive their connection states). */
  ZkLeaseWatches watches() {
    return watches;
  }

  @Override
  public String toString() {
    return "ZkLeaseIssuer[" + store.location() + "]";
  }

  /** {@link ZkNodes#ensembleNow}, recording the answered write as a contact of the session. */
  private ZkNodes.Now ensembleNow(String action) {
    long sent = System.nanoTime();
    ZkNodes.Now now = nodes.ensembleNow(action);
    watches.contact(sent);
    return now;
  }

  // ---------------------------------------------------------------------------------------------

  /**
   * Refuses to try again when ZooKeeper refused a transaction although neither the lease node nor
   * the holder node changed since they were read: a node was changed outside Fenceline, and trying
   * again would be refused for ever. {@code refused} is only kept from a session that read it
   * ({@link #unchanged}); {@code now} only counts if read in the session of its {@code barrier}: a
   * new session may read from a server that is behind and show the nodes as the refused step did.
   */
  private void requireProgress(
      Current refused, Current now, ZkNodes.Barrier barrier, ResourceId resource, String action) {
    if (refused != null
        && nodes.holds(barrier, action)
        && refused.stat().getVersion() == now.stat().getVersion()
        && refused.holder().map(Stat::getCzxid).equals(now.holder().map(Stat::getCzxid))
        && refused.holder().map(Stat::getVersion).equals(now.holder().map(Stat::getVersion))) {
      throw new StoreException(
          "Cannot "
              + action
              + " at "
              + store.location()
              + ": ZooKeeper refused the transaction although the lease node "
              + paths.lease(resource)
              + " and its holder node did not change; they were changed outside Fenceline"
              + " (restore them from a backup)",
          null,
          false);
    }
  }

  /**
   * {@code current}, the read of a refused transaction, to compare the next read with; null if the
   * session changed since {@code barrier} (the read may have come from a server that is behind).
   */
  private Current unchanged(Current current, ZkNodes.Barrier barrier, String action) {
    return nodes.holds(barrier, action) ? current : null;
  }

  /** The lease node as read (epoch 0 and no stat version if it does not exist) and the holder. */
  private record Current(LeaseNode lease, Stat stat, Optional<Stat> holder) {

    boolean held(Instant now) {
      return lease.holder() != null
          && holder.isPresent()
          && now.isBefore(expiresAt(stat, lease.ttlMillis()));
    }
  }

  /**
   * Reads the lease node and the holder node. With {@code create}, a missing lease node is created
   * first (epoch 0, free), so every later change is a versioned write of an existing node.
   */
  private Current current(ResourceId resource, String action, boolean create) {
    String path = paths.lease(resource);
    Optional<ZkNodes.Node> read = nodes.read(path, action);
    if (read.isEmpty() && create) {
      nodes.ensure(path, LeaseNode.NONE.toJson(), action);
      read = nodes.read(path, action);
    }
    if (read.isEmpty()) {
      return new Current(LeaseNode.NONE, new Stat(), Optional.empty());
    }
    LeaseNode lease = LeaseNode.parse(read.get().data(), path);
    return new Current(lease, read.get().stat(), nodes.exists(paths.holder(resource), action));
  }

  /**
   * Commits a transaction whose first operation writes the lease node with {@code nonce}.
   *
   * @param holds whether the transaction grants or renews a lease of this client's session (its
   *     holder node must be this session's)
   * @return the lease node's new stat, or empty if another step changed the nodes first (read again
   *     and decide again)
   */
  private Optional<Stat> commit(
      ResourceId resource, List<CuratorOp> ops, String nonce, boolean holds, String action) {
    Optional<List<CuratorTransactionResult>> results = nodes.multi(ops, action);
    if (results.isPresent()) {
      return Optional.of(results.get().get(0).getResultStat());
    }
    // Refused: maybe because Curator re-sent it after a lost answer and the first attempt landed.
    String path = paths.lease(resource);
    if (!store.timeLeftForATry()) {
      throw store.decisionSkipped(
          action,
          "read the lease status of " + resource + " with status(resource)",
          new StoreException("the transaction was refused, maybe after a re-sent try", null));
    }
    try {
      Optional<ZkNodes.Node> read = nodes.read(path, action);
      if (read.isPresent() && nonce.equals(LeaseNode.parse(read.get().data(), path).attempt())) {
        // It landed; but if Curator re-sent it on a new session (the ensemble expired the one it
        // landed on), the lease ended with that session's holder node: decide again.
        if (holds && !ownsHolder(resource, action)) {
          return Optional.empty();
        }
        return Optional.of(read.get().stat());
      }
    } catch (StoreException e) {
      throw store.undecided(e);
    }
    return Optional.empty();
  }

  /** True if the holder node exists and belongs to this client's current session. */
  private boolean ownsHolder(ResourceId resource, String action) {
    Optional<Stat> holder = nodes.exists(paths.holder(resource), action);
    return holder.isPresent() && holder.get().getEphemeralOwner() == nodes.sessionId(action);
  }

  private static String reasonLost(Current current, Lease lease, Instant now, long session) {
    LeaseNode node = current.lease();
    if (node.epoch() < lease.epoch().value()) {
      return "this issuer never handed out epoch " + lease.epoch();
    }
    if (node.epoch() > lease.epoch().value()) {
      return "epoch "
          + node.epoch()
          + " was issued since"
          + (node.holder() == null ? "" : " (to " + node.holder() + ")");
    }
    if (node.holder() == null) {
      return "it was released";
    }
    if (!node.holder().equals(lease.token().holder())) {
      return "epoch "
          + lease.epoch()
          + " is held by "
          + node.holder()
          + ", not by "
          + lease.token().holder();
    }
    if (current.holder().isEmpty()) {
      return "the ensemble expired the ZooKeeper session that acquired it (the holder was cut off"
          + " for longer than the session timeout, or its client was closed)";
    }
    Instant expiresAt = expiresAt(current.stat(), node.ttlMillis());
    if (!now.isBefore(expiresAt)) {
      return "it expired at " + expiresAt + " by the ensemble's clock";
    }
    if (current.holder().get().getEphemeralOwner() != session) {
      return "it belongs to ZooKeeper session 0x"
          + Long.toHexString(current.holder().get().getEphemeralOwner())
          + ", not to this client's session 0x"
          + Long.toHexString(session)
          + " (renew it through the client that acquired it)";
    }
    return null;
  }

  private static Instant expiresAt(Stat stat, long ttlMillis) {
    long mtime = stat.getMtime();
    return Instant.ofEpochMilli(
        mtime > Long.MAX_VALUE - ttlMillis ? Long.MAX_VALUE : mtime + ttlMillis);
  }

  private static LeaseLostException lost(Lease lease, String reason) {
    return new LeaseLostException(
        lease.token(),
        "Cannot renew lease "
            + lease.token()
            + ": "
            + reason
            + " (stop working on it; acquire again for a new epoch)");
  }

  /**
   * {@code ttl} in whole milliseconds, rounded up so that the stored lease never ends before the
   * ttl asked for; the lease returned carries this stored ttl.
   */
  private static long ttlMillis(String action, Duration ttl) {
    requireNonNull(ttl, "ttl is null");
    if (ttl.isNegative() || ttl.toMillis() < 1) {
      throw new IllegalArgumentException(
          "Cannot " + action + " for " + ttl + ": the ttl must be at least 1 ms (e.g. PT30S)");
    }
    long millis = ttl.toMillis();
    return Duration.ofMillis(millis).equals(ttl) ? millis : millis + 1;
  }

  /**
   * The lease node's content.
   *
   * @param epoch the newest epoch handed out, 0 if none
   * @param holder the holder, or null if released or never leased
   * @param ttlMillis the lease length, counted from the node's {@code mtime}
   * @param attempt the nonce of the transaction that wrote it (recognizes a landed retry)
   */
  record LeaseNode(long epoch, String holder, long ttlMillis, String attempt) {

    static final LeaseNode NONE = new LeaseNode(0, null, 0, "");

    byte[] toJson() {
      ObjectNode root = StrictJson.object();
      root.put("epoch", epoch);
      if (holder == null) {
        root.putNull("holder");
      } else {
        root.put("holder", holder);
      }
      root.put("ttlMs", ttlMillis);
      root.put("attempt", attempt);
      return StrictJson.bytes(root);
    }

    static LeaseNode parse(byte[] data, String path) {
      JsonNode root = StrictJson.root(data, ZkPointerStore.stored("lease node", path));
      try {
        long epoch = StrictJson.longField(root, "epoch");
        long ttl = StrictJson.longField(root, "ttlMs");
        if (epoch < 0 || ttl < 0) {
          throw new IllegalArgumentException(
              "epoch " + epoch + " or ttlMs " + ttl + " is negative");
        }
        String holder = StrictJson.nullableString(root, "holder");
        if (holder != null) {
          FencingToken.validateHolder(holder);
        }
        return new LeaseNode(epoch, holder, ttl, StrictJson.stringField(root, "attempt"));
      } catch (IllegalArgumentException e) {
        throw StrictJson.unreadable(ZkPointerStore.stored("lease node", path), e.getMessage(), e);
      }
    }
  }
}
