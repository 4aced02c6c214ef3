package dev.fenceline.zookeeper;

import static java.util.Objects.requireNonNull;

import dev.fenceline.spi.AlreadyApplied;
import dev.fenceline.spi.Applied;
import dev.fenceline.spi.Capability;
import dev.fenceline.spi.Destination;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingStep;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.OperationConflictException;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Pointer;
import dev.fenceline.spi.PointerState;
import dev.fenceline.spi.PointerStore;
import dev.fenceline.spi.Receipt;
import dev.fenceline.spi.RegisterOutcome;
import dev.fenceline.spi.Registered;
import dev.fenceline.spi.RejectedStale;
import dev.fenceline.spi.RequestFingerprint;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StepListener;
import dev.fenceline.spi.StoreException;
import dev.fenceline.spi.SupportsEpochReset;
import dev.fenceline.spi.UntrustedTokenException;
import dev.fenceline.spi.WriteOutcome;
import dev.fenceline.zookeeper.ControlNode.Entry;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.zookeeper.CreateMode;

/**
 * A {@link PointerStore} on a ZooKeeper ensemble; obtain it from {@link ZkStore#pointerStore}.
 *
 * <p>Per resource one control node holds the registered epoch, its issuer and every destination
 * name's current pointer. A step syncs with the leader, reads the control node with its version,
 * decides, and commits a multi-operation transaction: a {@code setData} of the control node at the
 * version it read (a {@code create} if it had none), with, for a swap, the creation of the
 * pointer's immutable version node and its operation node. ZooKeeper applies all of it or nothing,
 * and refuses it if another step changed the control node since the read: the epoch check, the swap
 * and the receipt are one atomic step (R3), and the refused step reads again and decides again.
 * Nobody waits for a paused writer ({@code COMPARE_AND_SWAP}).
 *
 * <p>Reads that decide anything, and {@link #lookup}, {@link #current}, {@link #history} and {@link
 * #currentEpoch}, first {@code sync} with the leader, so they see every step acknowledged before
 * they began (R5). {@code lookup} and {@code history} read the immutable nodes, whatever epoch is
 * current.
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
  private final ZkPaths paths;
  private final String name;
  private final StepListener steps;
  private final Clock clock = Clock.systemUTC();

  ZkPointerStore(ZkStore store, String name, StepListener steps) {
    this.store = requireNonNull(store, "store is null");
    this.paths = store.paths();
    this.name = Destination.validateName(name);
    this.steps = requireNonNull(steps, "steps is null");
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

  /** A refused transaction that may still have landed (Curator re-sent it after a lost answer). */
  private record Attempt<T>(String nonce, T outcome, boolean applies) {}

  @Override
  public RegisterOutcome register(FencingToken token) {
    requireNonNull(token, "token is null");
    ResourceId resource = token.resource();
    String action = "register epoch " + token.epoch() + " of " + resource + " at " + name;
    store.verify(token, action);
    Attempt<RegisterOutcome> attempt = null;
    Read refused = null;
    while (true) {
      Read read = decidingRead(attempt, () -> readControl(resource, action));
      ControlNode control = read.control();
      if (attempt != null && control.writes().contains(attempt.nonce())) {
        return attempt.outcome();
      }
      requireProgress(refused, read, action);
      if (refuses(control, token) && !fresh(read, action)) {
        continue; // a new session may have read a server behind a reset: read again
      }
      checkIssuer(control, token, action);
      if (token.epoch().isOlderThan(control.epoch())) {
        return new RejectedStale(resource, token.epoch(), control.epoch());
      }
      Registered registered = new Registered(resource, token.epoch(), control.epoch());
      if (token.epoch().equals(control.epoch()) && control.issuer() != null) {
        if (!fresh(read, action)) {
          continue;
        }
        return registered;
      }
      String nonce = nonce();
      ControlNode next = control.registered(token.epoch(), token.issuer(), nonce);
      requireFits(next.toJson().length, action);
      if (commit(read, next, List.of(), action)) {
        return registered;
      }
      attempt = new Attempt<>(nonce, registered, false);
      refused = read;
    }
  }

  @Override
  public WriteOutcome write(
      FencingToken token, OperationId operation, Pointer change, RequestFingerprint fingerprint) {
    requireNonNull(token, "token is null");
    requireNonNull(operation, "operation is null");
    requireNonNull(change, "change is null");
    requireNonNull(fingerprint, "fingerprint is null");
    ResourceId resource = token.resource();
    String action = "write operation " + operation + " of " + resource + " to " + name;
    store.verify(token, action);
    steps.reached(FencingStep.BEFORE_LOCK, token, operation);
    Attempt<WriteOutcome> attempt = null;
    Read refused = null;
    while (true) {
      Read read = decidingRead(attempt, () -> readControl(resource, action));
      ControlNode control = read.control();
      Optional<Entry> recorded = null;
      if (attempt != null) {
        // Did the refused transaction land after all (its first answer lost, Curator's re-sent
        // attempt refused)? Then it committed before anything that followed it.
        String tried = attempt.nonce();
        boolean landed = control.writes().contains(tried);
        if (!landed && attempt.applies()) {
          recorded = decidingRead(attempt, () -> recorded(resource, control, operation, action));
          landed = recorded.map(entry -> entry.attempt().equals(tried)).orElse(false);
        }
        if (landed) {
          steps.reached(FencingStep.AFTER_COMMIT, token, operation);
          return attempt.outcome();
        }
        attempt = null;
      }
      requireProgress(refused, read, action);
      if (refuses(control, token) && !fresh(read, action)) {
        continue; // a new session may have read a server behind a reset: read again
      }
      checkIssuer(control, token, action);
      if (token.epoch().isOlderThan(control.epoch())) {
        return new RejectedStale(resource, token.epoch(), control.epoch());
      }
      Epoch newest = token.epoch().isNewerThan(control.epoch()) ? token.epoch() : control.epoch();
      steps.reached(FencingStep.AFTER_EPOCH_CHECK, token, operation);
      if (recorded == null) {
        recorded = recorded(resource, control, operation, action);
      }
      String nonce = nonce();
      if (recorded.isPresent()) {
        Receipt receipt = recorded.get().receipt(name, resource);
        if (!recorded.get().fingerprint().equals(fingerprint)) {
          throw OperationConflictException.differentRequest(receipt, fingerprint);
        }
        AlreadyApplied replay = new AlreadyApplied(receipt);
        if (newest.equals(control.epoch()) && control.issuer() != null) {
          if (!fresh(read, action)) {
            continue;
          }
          steps.reached(FencingStep.AFTER_COMMIT, token, operation);
          return replay;
        }
        ControlNode next = control.registered(newest, token.issuer(), nonce);
        requireFits(next.toJson().length, action);
        if (commit(read, next, List.of(), action)) {
          steps.reached(FencingStep.AFTER_COMMIT, token, operation);
          return replay;
        }
        attempt = new Attempt<>(nonce, replay, false);
        refused = read;
        continue;
      }
      Entry current = control.entry(name);
      Entry entry =
          new Entry(
              current == null ? 1 : current.version() + 1,
              change,
              token.epoch(),
              operation,
              fingerprint,
              clock.instant(),
              nonce);
      Applied applied = new Applied(entry.receipt(name, resource));
      byte[] stored = entry.toStoredJson(name, resource);
      List<CuratorOp> records =
          List.of(
              store.create(
                  paths.version(name, resource, entry.version()), stored, CreateMode.PERSISTENT),
              store.create(
                  paths.operation(name, resource, operation), stored, CreateMode.PERSISTENT));
      ControlNode next = control.applied(name, entry, newest, token.issuer(), nonce);
      requireFits(next.toJson().length + 2L * stored.length, action);
      steps.reached(FencingStep.AFTER_APPLY, token, operation);
      boolean committed;
      try {
        committed = commit(read, next, records, action);
      } catch (StoreException e) {
        if (e.outcomeUnknown() && landed(resource, operation, nonce, action)) {
          committed = true;
        } else {
          throw e;
        }
      }
      if (committed) {
        steps.reached(FencingStep.AFTER_COMMIT, token, operation);
        return applied;
      }
      attempt = new Attempt<>(nonce, applied, true);
      refused = read;
    }
  }

  @Override
  public Optional<Receipt> lookup(ResourceId resource, OperationId operation) {
    requireNonNull(resource, "resource is null");
    requireNonNull(operation, "operation is null");
    String action = "look up operation " + operation + " of " + resource + " at " + name;
    return freshly(
        resource,
        action,
        read ->
            recorded(resource, read.control(), operation, action)
                .map(entry -> entry.receipt(name, resource)));
  }

  @Override
  public Epoch currentEpoch(ResourceId resource) {
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
    requireNonNull(resource, "resource is null");
    if (limit < 1) {
      throw new IllegalArgumentException(
          "Cannot read the pointer history of " + resource + ": limit " + limit + " is below 1");
    }
    String action = "read the pointer history of " + resource + " at " + name;
    return freshly(resource, action, read -> history(read, limit, action));
  }

  private List<PointerState> history(Read read, int limit, String action) {
    ResourceId resource = read.resource();
    Entry current = read.control().entry(name);
    if (current == null) {
      return List.of();
    }
    List<PointerState> newestFirst = new ArrayList<>();
    newestFirst.add(current.state(resource));
    for (long version = current.version() - 1;
        version >= 1 && newestFirst.size() < limit;
        version--) {
      String path = paths.version(name, resource, version);
      ZkStore.Node node =
          store
              .read(path, action)
              .orElseThrow(
                  () ->
                      new StoreException(
                          "Cannot read pointer version "
                              + path
                              + " at "
                              + store.location()
                              + ": it is missing although "
                              + resource
                              + " is at version "
                              + current.version()
                              + " (nodes were deleted; restore them from a backup)",
                          null,
                          false));
      newestFirst.add(Entry.parseStored(node.data(), path, name, resource).state(resource));
    }
    return List.copyOf(newestFirst);
  }

  @Override
  public Epoch resetRegisteredEpoch(ResourceId resource, Epoch epoch, String reason) {
    requireNonNull(resource, "resource is null");
    requireNonNull(epoch, "epoch is null");
    FencingToken.validateHolder(reason);
    String action = "reset the registered epoch of " + resource + " to " + epoch;
    Epoch previous;
    while (true) {
      Read read = readControl(resource, action);
      String nonce = nonce();
      // A marker node created in the same transaction tells, for ever, whether it landed: the
      // reset must never be applied twice (a second one could move the epoch back below epochs
      // registered after the first).
      String marker = paths.control(resource) + "/reset:" + nonce;
      List<CuratorOp> markers =
          List.of(
              store.create(marker, reason.getBytes(StandardCharsets.UTF_8), CreateMode.PERSISTENT));
      boolean committed;
      try {
        committed = commit(read, read.control().registered(epoch, null, nonce), markers, action);
      } catch (StoreException e) {
        if (e.outcomeUnknown() && markerExists(marker, action)) {
          committed = true;
        } else {
          throw e;
        }
      }
      if (committed || markerExists(marker, action)) {
        previous = read.control().epoch();
        break;
      }
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

  /** The control node as read, and its version ({@code -1}: it does not exist). */
  private record Read(
      ResourceId resource, ControlNode control, int version, ZkStore.Barrier barrier) {}

  /** Takes a read barrier, then reads the control node (R5; see {@link #fresh}). */
  private Read readControl(ResourceId resource, String action) {
    String path = paths.control(resource);
    ZkStore.Barrier barrier = store.barrier(action);
    return store
        .read(path, action)
        .map(
            node ->
                new Read(
                    resource,
                    ControlNode.parse(node.data(), path),
                    node.stat().getVersion(),
                    barrier))
        .orElseGet(() -> new Read(resource, ControlNode.EMPTY, -1, barrier));
  }

  /**
   * True if every read since {@code read}'s barrier was answered in the session the barrier was
   * taken in, so they saw everything acknowledged before it. An answer given without a write (a
   * replay, an epoch already registered, a lookup) is only given from fresh reads.
   */
  private boolean fresh(Read read, String action) {
    return store.holds(read.barrier(), action);
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
              + "); a pointer version or operation node it creates exists already, written"
              + " outside Fenceline (restore the nodes under the control node from a backup)",
          null,
          false);
    }
  }

  /**
   * Writes {@code next} over the control node at the version {@code read}, with {@code more}
   * operations, in one transaction.
   *
   * @return true if committed; false if another step changed the control node since the read
   */
  private boolean commit(Read read, ControlNode next, List<CuratorOp> more, String action) {
    String path = paths.control(read.resource());
    List<CuratorOp> ops = new ArrayList<>();
    ops.add(
        read.version() < 0
            ? store.create(path, next.toJson(), CreateMode.PERSISTENT)
            : store.setData(path, next.toJson(), read.version()));
    ops.addAll(more);
    return store.multi(ops, action).isPresent();
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
   * Runs {@code read}; if it decides whether the refused {@code attempt} landed after all, its
   * failure leaves the attempt's outcome unknown.
   */
  private <T> T decidingRead(Attempt<?> attempt, Supplier<T> read) {
    if (attempt == null) {
      return read.get();
    }
    try {
      return read.get();
    } catch (StoreException e) {
      throw store.undecided(e);
    }
  }

  /** Whether a reset's marker exists; if that cannot be read, the reset's outcome is unknown. */
  private boolean markerExists(String marker, String action) {
    try {
      return store.exists(marker, action).isPresent();
    } catch (StoreException e) {
      throw store.undecided(e);
    }
  }

  /** After an unknown outcome: true if the operation node shows this attempt landed. */
  private boolean landed(ResourceId resource, OperationId operation, String nonce, String action) {
    try {
      String path = paths.operation(name, resource, operation);
      return store
          .read(path, action)
          .map(node -> Entry.parseStored(node.data(), path, name, resource).attempt().equals(nonce))
          .orElse(false);
    } catch (StoreException stillUnreachable) {
      return false;
    }
  }

  /** The entry of {@code operation} at this destination: the current one, or its operation node. */
  private Optional<Entry> recorded(
      ResourceId resource, ControlNode control, OperationId operation, String action) {
    Entry current = control.entry(name);
    if (current == null) {
      return Optional.empty(); // this destination never applied anything to the resource
    }
    if (current.operation().equals(operation)) {
      return Optional.of(current);
    }
    if (current.version() == 1) {
      return Optional.empty(); // the only applied operation is the current one
    }
    String path = paths.operation(name, resource, operation);
    return store
        .read(path, action)
        .map(node -> Entry.parseStored(node.data(), path, name, resource))
        .map(
            entry -> {
              if (!entry.operation().equals(operation)) {
                throw new StoreException(
                    "Cannot read operation node "
                        + path
                        + ": it holds operation "
                        + entry.operation()
                        + ", expected "
                        + operation
                        + " (restore it from a backup)",
                    null,
                    false);
              }
              return entry;
            });
  }

  /**
   * True if {@code control} makes the step refuse {@code token} (stale, or another issuer's): an
   * answer given without a write, so only from fresh reads. A reset can move the epoch back and
   * forget the issuer, so a server that is behind can show a refusal the ensemble no longer makes.
   */
  private static boolean refuses(ControlNode control, FencingToken token) {
    return token.epoch().isOlderThan(control.epoch())
        || (control.issuer() != null && !control.issuer().equals(token.issuer()));
  }

  /** Refuses a token of another issuer than the one the resource was first registered with. */
  private static void checkIssuer(ControlNode control, FencingToken token, String action) {
    if (control.issuer() != null && !control.issuer().equals(token.issuer())) {
      throw UntrustedTokenException.foreignIssuer(token, control.issuer(), action);
    }
  }

  private static String nonce() {
    return UUID.randomUUID().toString();
  }
}
