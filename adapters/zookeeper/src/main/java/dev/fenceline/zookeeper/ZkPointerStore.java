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

import dev.fenceline.cas.CasPointerSteps;
import dev.fenceline.cas.ControlDocument;
import dev.fenceline.cas.ControlDocument.Entry;
import dev.fenceline.cas.StrictJson;
import dev.fenceline.spi.Capability;
import dev.fenceline.spi.Destination;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingStep;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Pointer;
import dev.fenceline.spi.PointerState;
import dev.fenceline.spi.PointerStore;
import dev.fenceline.spi.Receipt;
import dev.fenceline.spi.RegisterOutcome;
import dev.fenceline.spi.RequestFingerprint;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StepListener;
import dev.fenceline.spi.StoreException;
import dev.fenceline.spi.SupportsEpochReset;
import dev.fenceline.spi.WriteOutcome;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.curator.framework.api.transaction.CuratorTransactionResult;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.data.Stat;

/**
 * A {@link PointerStore} on a ZooKeeper ensemble; obtain it from {@link ZkStore#pointerStore}.
 *
 * <p>Per resource one control node holds the registered epoch, its issuer and every destination
 * name's current pointer. A step takes a read barrier, reads the control node with its version,
 * decides, and commits a multi-operation transaction: a {@code setData} of the control node at the
 * version it read (a {@code create} if it had none), with, for a swap, the creation of the
 * pointer's immutable version node and its operation node. ZooKeeper applies all of it or nothing,
 * and refuses it if another step changed the control node since the read: the epoch check, the swap
 * and the receipt are one atomic step (R3), and the refused step reads again and decides again.
 * Nobody waits for a paused writer ({@code COMPARE_AND_SWAP}).
 *
 * <p>Reads that decide anything, and {@link #lookup}, {@link #current}, {@link #history} and {@link
 * #currentEpoch}, come after a read barrier through the quorum ({@link ZkNodes}' check-only
 * transaction; ZooKeeper's {@code sync} is not one), so they see every step acknowledged before
 * they began (R5); an answer given without a transaction (a replay, a refusal, an epoch already
 * registered, a lookup) is read again if the client's session changed after the barrier. {@code
 * lookup} and {@code history} read the immutable nodes, whatever epoch is current. The steps are
 * {@link dev.fenceline.cas.CasPointerSteps}, shared with the S3 pointer store.
 *
 * <p>Lost answers: Curator re-sends a transaction whose answer was lost with the connection; if the
 * first attempt landed, the re-sent one is refused (the version moved). Each transaction carries a
 * nonce (in the operation node for a swap, in the control node's recent writes otherwise), so the
 * refused step reads again and answers as the lost answer would have. A transaction whose outcome
 * cannot be decided fails with {@link StoreException#outcomeUnknown()}: look the operation up.
 *
 * <p>{@link FencingStep}s: {@code BEFORE_LOCK} before the first read, {@code AFTER_EPOCH_CHECK}
 * after each decision, {@code AFTER_APPLY} right before the transaction, {@code AFTER_COMMIT} after
 * it. A listener that throws aborts the step with nothing committed. Thread-safe.
 */
public final class ZkPointerStore implements PointerStore, SupportsEpochReset {

  private static final Set<Capability> CAPABILITIES =
      EnumSet.of(
          Capability.NATIVE_EPOCH_CHECK, Capability.OPERATION_RECORD, Capability.RESULT_LOOKUP);

  /**
   * The most a swap's transaction may carry (control node, version node, operation node), below
   * ZooKeeper's default request limit of 1 MiB with room for paths and framing.
   */
  static final int MAX_TRANSACTION_BYTES = 900 * 1024;

  private final ZkStore store;
  private final ZkNodes nodes;
  private final ZkPaths paths;
  private final String name;
  private final CasPointerSteps<Read> steps;

  ZkPointerStore(ZkStore store, String name, StepListener steps) {
    this.store = requireNonNull(store, "store is null");
    this.nodes = store.nodes();
    this.paths = store.paths();
    this.name = Destination.validateName(name);
    this.steps = new CasPointerSteps<>(name, new ControlNodes(), steps, Clock.systemUTC());
  }

  @Override
  public String name() {
    return name;
  }

  /** The store's identity ({@link ZkStore#id()}), the same in every process. */
  @Override
  public String storeId() {
    return store.id();
  }

  @Override
  public Set<Capability> capabilities() {
    return CAPABILITIES;
  }

  @Override
  public RegisterOutcome register(FencingToken token) {
    return store.call(() -> registerInCall(token));
  }

  private RegisterOutcome registerInCall(FencingToken token) {
    requireNonNull(token, "token is null");
    String action = "register epoch " + token.epoch() + " of " + token.resource() + " at " + name;
    store.verify(token, action);
    return steps.register(token, action);
  }

  @Override
  public WriteOutcome write(
      FencingToken token, OperationId operation, Pointer change, RequestFingerprint fingerprint) {
    return store.call(() -> writeInCall(token, operation, change, fingerprint));
  }

  private WriteOutcome writeInCall(
      FencingToken token, OperationId operation, Pointer change, RequestFingerprint fingerprint) {
    requireNonNull(token, "token is null");
    requireNonNull(operation, "operation is null");
    requireNonNull(change, "change is null");
    requireNonNull(fingerprint, "fingerprint is null");
    String action = "write operation " + operation + " of " + token.resource() + " to " + name;
    store.verify(token, action);
    return steps.write(token, operation, change, fingerprint, action);
  }

  @Override
  public Optional<Receipt> lookup(ResourceId resource, OperationId operation) {
    return store.call(() -> lookupInCall(resource, operation));
  }

  private Optional<Receipt> lookupInCall(ResourceId resource, OperationId operation) {
    requireNonNull(resource, "resource is null");
    requireNonNull(operation, "operation is null");
    String action = "look up operation " + operation + " of " + resource + " at " + name;
    return freshly(
        resource,
        action,
        read ->
            steps
                .recorded(resource, read.control(), operation, action)
                .map(entry -> entry.receipt(name, resource)));
  }

  @Override
  public Epoch currentEpoch(ResourceId resource) {
    return store.call(() -> currentEpochInCall(resource));
  }

  private Epoch currentEpochInCall(ResourceId resource) {
    requireNonNull(resource, "resource is null");
    return freshly(
        resource, "read the registered epoch of " + resource, read -> read.control().epoch());
  }

  @Override
  public Optional<PointerState> current(ResourceId resource) {
    return history(resource, 1).stream().findFirst();
  }

  /**
   * {@inheritDoc}
   *
   * <p>Costs a read barrier, one read of the control node and one read per older version returned.
   */
  @Override
  public List<PointerState> history(ResourceId resource, int limit) {
    return store.call(() -> historyInCall(resource, limit));
  }

  private List<PointerState> historyInCall(ResourceId resource, int limit) {
    CasPointerSteps.requireLimit(resource, limit);
    String action = "read the pointer history of " + resource + " at " + name;
    return freshly(
        resource, action, read -> steps.history(resource, read.control(), limit, action));
  }

  @Override
  public Epoch resetRegisteredEpoch(ResourceId resource, Epoch epoch, String reason) {
    return store.call(() -> resetRegisteredEpochInCall(resource, epoch, reason));
  }

  private Epoch resetRegisteredEpochInCall(ResourceId resource, Epoch epoch, String reason) {
    requireNonNull(resource, "resource is null");
    requireNonNull(epoch, "epoch is null");
    FencingToken.validateHolder(reason);
    String action = "reset the registered epoch of " + resource + " to " + epoch;
    Epoch previous;
    Read refused = null;
    while (true) {
      Read read = readControl(resource, action);
      if (refused != null) {
        requireProgress(refused, read, action);
      }
      String nonce = CasPointerSteps.nonce();
      // A marker node created in the same transaction tells, for ever, whether it landed: the
      // reset must never be applied twice (a second one could move the epoch back below epochs
      // registered after the first).
      String marker = paths.control(resource) + "/reset:" + nonce;
      List<CuratorOp> markers =
          List.of(
              nodes.create(marker, reason.getBytes(StandardCharsets.UTF_8), CreateMode.PERSISTENT));
      boolean committed;
      try {
        committed =
            commit(read, read.control().registered(epoch, null, nonce), markers, action).accepted();
      } catch (StoreException e) {
        if (e.outcomeUnknown() && markerExists(marker, action, e)) {
          committed = true;
        } else {
          throw e;
        }
      }
      if (committed || markerExists(marker, action, null)) {
        previous = read.control().epoch();
        break;
      }
      refused = read;
    }
    System.getLogger(ZkPointerStore.class.getName())
        .log(
            System.Logger.Level.WARNING,
            "Reset the registered epoch of "
                + resource
                + " at "
                + store.location()
                + " from "
                + previous
                + " to "
                + epoch
                + ": "
                + reason);
    return previous;
  }

  @Override
  public String toString() {
    return "ZkPointerStore[" + name + " at " + store.location() + "]";
  }

  // ---------------------------------------------------------------------------------------------

  /**
   * The control node as read, and its version ({@code -1}: it does not exist); {@code barrier} is
   * null for the node as this process wrote it last (not read, so never {@linkplain #fresh fresh}).
   */
  private record Read(
      ResourceId resource, ControlDocument control, int version, ZkNodes.Barrier barrier)
      implements CasPointerSteps.Read {}

  /** The control node and its version and operation nodes, as {@link CasPointerSteps} needs. */
  private final class ControlNodes implements CasPointerSteps.Store<Read> {

    @Override
    public Read read(ResourceId resource, String action) {
      return readControl(resource, action);
    }

    @Override
    public CasPointerSteps.Stored operationRecord(
        ResourceId resource, OperationId operation, String action) {
      return record(paths.operation(name, resource, operation), action);
    }

    @Override
    public CasPointerSteps.Stored versionRecord(ResourceId resource, long version, String action) {
      return record(paths.version(name, resource, version), action);
    }

    private CasPointerSteps.Stored record(String path, String action) {
      return new CasPointerSteps.Stored(
          stored("pointer node", path), nodes.read(path, action).map(ZkNodes.Node::data));
    }

    @Override
    public boolean fresh(Read read, String action) {
      return ZkPointerStore.this.fresh(read, action);
    }

    @Override
    public void requireProgress(Read refused, Read now, String action) {
      ZkPointerStore.this.requireProgress(refused, now, action);
    }

    /**
     * One transaction: the control node at the version read (created if it had none) and, for a
     * swap, the new pointer version's node and the operation's node. An unknown outcome is decided
     * by the operation node if it can be read.
     */
    @Override
    public boolean replace(
        Read read, ControlDocument next, Optional<Entry> applied, String action) {
      return replaceKnowing(read, next, applied, action).accepted();
    }

    /** The transaction's operation nodes refuse a retry of a recorded operation. */
    @Override
    public boolean swapRefusesRecordedOperation() {
      return true;
    }

    /**
     * {@link #replace}; an accepted transaction's answer gives the control node's new version (a
     * read without a barrier: never fresh).
     */
    @Override
    public CasPointerSteps.Replacement<Read> replaceKnowing(
        Read read, ControlDocument next, Optional<Entry> applied, String action) {
      if (applied.isEmpty()) {
        requireFits(next.toJson().length, action);
        return commit(read, next, List.of(), action);
      }
      Entry entry = applied.get();
      ResourceId resource = read.resource();
      byte[] stored = entry.toStoredJson(name, resource);
      requireFits(next.toJson().length + 2L * stored.length, action);
      List<CuratorOp> records =
          List.of(
              nodes.create(
                  paths.version(name, resource, entry.version()), stored, CreateMode.PERSISTENT),
              nodes.create(
                  paths.operation(name, resource, entry.operation()),
                  stored,
                  CreateMode.PERSISTENT));
      try {
        return commit(read, next, records, action);
      } catch (StoreException e) {
        if (e.outcomeUnknown() && !store.timeLeftForATry()) {
          throw store.decisionSkipped(
              action,
              "look the operation up with lookup(" + resource + ", " + entry.operation() + ")",
              e);
        }
        if (e.outcomeUnknown() && landed(resource, entry.operation(), entry.attempt(), action)) {
          return CasPointerSteps.Replacement.accepted(null);
        }
        throw e;
      }
    }

    @Override
    public StoreException undecided(StoreException failure) {
      return store.undecided(failure);
    }
  }

  /** Takes a read barrier, then reads the control node (R5; see {@link #fresh}). */
  private Read readControl(ResourceId resource, String action) {
    String path = paths.control(resource);
    ZkNodes.Barrier barrier = nodes.barrier(action);
    return nodes
        .read(path, action)
        .map(
            node ->
                new Read(
                    resource,
                    ControlDocument.parse(node.data(), stored("control node", path)),
                    node.stat().getVersion(),
                    barrier))
        .orElseGet(() -> new Read(resource, ControlDocument.EMPTY, -1, barrier));
  }

  /**
   * True if every read since {@code read}'s barrier was answered in the session the barrier was
   * taken in, so they saw everything acknowledged before it. An answer given without a write (a
   * replay, an epoch already registered, a lookup) is only given from fresh reads.
   */
  private boolean fresh(Read read, String action) {
    return read.barrier() != null && nodes.holds(read.barrier(), action);
  }

  /**
   * Reads from a barrier on: {@code reads} gets the control node and may read more; if the session
   * changed meanwhile, reads again.
   */
  private <T> T freshly(ResourceId resource, String action, Function<Read, T> reads) {
    while (true) {
      Read read = readControl(resource, action);
      T result = reads.apply(read);
      if (fresh(read, action)) {
        return result;
      }
    }
  }

  /**
   * Refuses to try again when ZooKeeper refused a transaction although the control node did not
   * change since it was read: then a node the transaction creates exists already (changed by hand,
   * or damaged), and trying again would be refused for ever. Only if both reads, and the refusal
   * between them, were in one session: a new session may read from a server that is behind, which
   * can refuse a transaction (a missed operation node) or show the version the refusal came from.
   */
  private void requireProgress(Read refused, Read now, String action) {
    if (refused != null
        && refused.version() == now.version()
        && fresh(refused, action)
        && fresh(now, action)) {
      throw new StoreException(
          "Cannot "
              + action
              + " at "
              + store.location()
              + ": ZooKeeper refused the transaction although the control node "
              + paths.control(now.resource())
              + " did not change (version "
              + now.version()
              + "); a node it creates exists already or a parent is missing, changed outside"
              + " Fenceline (restore the nodes under "
              + paths.pointers()
              + " from a backup)",
          null,
          false);
    }
  }

  /**
   * Writes {@code next} over the control node at the version {@code read}, with {@code more}
   * operations, in one transaction.
   *
   * @return refused if another step changed the control node since the read; if committed, the node
   *     as written with its new version
   */
  private CasPointerSteps.Replacement<Read> commit(
      Read read, ControlDocument next, List<CuratorOp> more, String action) {
    String path = paths.control(read.resource());
    List<CuratorOp> ops = new ArrayList<>();
    ops.add(
        read.version() < 0
            ? nodes.create(path, next.toJson(), CreateMode.PERSISTENT)
            : nodes.setData(path, next.toJson(), read.version()));
    ops.addAll(more);
    Optional<List<CuratorTransactionResult>> results = nodes.multi(ops, action);
    if (results.isEmpty()) {
      return CasPointerSteps.Replacement.refused();
    }
    if (read.version() < 0) {
      return CasPointerSteps.Replacement.accepted(new Read(read.resource(), next, 0, null));
    }
    // A setData's result carries the node's new stat.
    Stat stat = results.get().get(0).getResultStat();
    return CasPointerSteps.Replacement.accepted(
        stat == null ? null : new Read(read.resource(), next, stat.getVersion(), null));
  }

  /**
   * Refuses a swap whose transaction would exceed what ZooKeeper accepts in one request ({@code
   * jute.maxbuffer}, 1 MiB by default; a larger request makes the server drop the connection, which
   * would look like a lost answer).
   */
  private static void requireFits(long bytes, String action) {
    if (bytes > MAX_TRANSACTION_BYTES) {
      throw new StoreException(
          "Cannot "
              + action
              + ": the transaction would carry "
              + bytes
              + " bytes, more than "
              + MAX_TRANSACTION_BYTES
              + " (ZooKeeper refuses requests over jute.maxbuffer, 1 MiB by default); keep the"
              + " pointer's target and attributes small (the payload belongs in the blob store)",
          null,
          false);
    }
  }

  /**
   * Whether a reset's marker exists; if that cannot be read, or the call has no time left to read
   * it, the reset's outcome is unknown. {@code lost} is the failure whose answer was lost (null:
   * the transaction was refused).
   */
  private boolean markerExists(String marker, String action, StoreException lost) {
    if (!store.timeLeftForATry()) {
      StoreException cause =
          lost != null
              ? lost
              : new StoreException("the transaction was refused, maybe after a re-sent try", null);
      throw store.decisionSkipped(
          action,
          "check whether the marker node " + marker + " exists (it did land if it does)",
          cause);
    }
    try {
      return nodes.exists(marker, action).isPresent();
    } catch (StoreException e) {
      throw store.undecided(e);
    }
  }

  /** After an unknown outcome: true if the operation node shows this attempt landed. */
  private boolean landed(ResourceId resource, OperationId operation, String nonce, String action) {
    try {
      return steps
          .storedOperation(resource, operation, action)
          .map(entry -> entry.attempt().equals(nonce))
          .orElse(false);
    } catch (StoreException stillUnreachable) {
      return false;
    }
  }

  /** Where a node is, for the error if it cannot be read. */
  static StrictJson.Where stored(String what, String path) {
    return new StrictJson.Where(what, path, "restore it from a backup");
  }
}
