package dev.fenceline.tck.memory;

import static java.util.Objects.requireNonNull;

import dev.fenceline.spi.AlreadyApplied;
import dev.fenceline.spi.Applied;
import dev.fenceline.spi.Capability;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingStep;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Pointer;
import dev.fenceline.spi.PointerState;
import dev.fenceline.spi.PointerStore;
import dev.fenceline.spi.Receipt;
import dev.fenceline.spi.RegisterOutcome;
import dev.fenceline.spi.Registered;
import dev.fenceline.spi.RejectedStale;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StepListener;
import dev.fenceline.spi.WriteOutcome;
import java.time.Clock;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A reference {@link PointerStore} that never locks, modelled on stores with conditional writes (S3
 * {@code If-Match}, ZooKeeper versions, etcd revisions): each resource's whole state (registered
 * epoch, pointer history, operation receipts) is one immutable snapshot, and every step reads a
 * snapshot, decides on it, and commits with a compare-and-swap against the snapshot it read. When
 * another step committed in between, the swap fails and the step reads again and decides again, so
 * a writer paused between its decision and its swap never holds anyone back and never commits a
 * decision made on an old snapshot. The state lives in a {@link Storage} that outlives the store,
 * so a test can restart it. For tests and examples only.
 */
public final class InMemoryCasPointerStore implements PointerStore {

  /** The store's state, kept across restarts of the store. */
  public static final class Storage {
    private final ConcurrentMap<ResourceId, AtomicReference<Snapshot>> resources =
        new ConcurrentHashMap<>();

    private AtomicReference<Snapshot> of(ResourceId resource) {
      return resources.computeIfAbsent(resource, id -> new AtomicReference<>(Snapshot.EMPTY));
    }
  }

  /** One resource's state as of one commit; replaced as a whole, never changed in place. */
  private record Snapshot(
      Epoch epoch, List<PointerState> history, Map<OperationId, Receipt> receipts) {

    static final Snapshot EMPTY = new Snapshot(Epoch.NONE, List.of(), Map.of());

    Snapshot withEpoch(Epoch newer) {
      return new Snapshot(newer, history, receipts);
    }

    Snapshot withApplied(Epoch newer, PointerState state, Receipt receipt) {
      List<PointerState> longer = new ArrayList<>(history);
      longer.add(state);
      Map<OperationId, Receipt> recorded = new HashMap<>(receipts);
      recorded.put(receipt.operation(), receipt);
      return new Snapshot(newer, List.copyOf(longer), Map.copyOf(recorded));
    }
  }

  private static final Set<Capability> CAPABILITIES =
      EnumSet.of(
          Capability.NATIVE_EPOCH_CHECK, Capability.OPERATION_RECORD, Capability.RESULT_LOOKUP);

  private final Storage storage;
  private final StepListener steps;
  private final Clock clock;

  /** A store over {@code storage} reporting steps to {@code steps}. */
  public InMemoryCasPointerStore(Storage storage, StepListener steps, Clock clock) {
    this.storage = requireNonNull(storage, "storage is null");
    this.steps = requireNonNull(steps, "steps is null");
    this.clock = requireNonNull(clock, "clock is null");
  }

  @Override
  public Set<Capability> capabilities() {
    return CAPABILITIES;
  }

  @Override
  public RegisterOutcome register(FencingToken token) {
    requireNonNull(token, "token is null");
    AtomicReference<Snapshot> state = storage.of(token.resource());
    while (true) {
      Snapshot read = state.get();
      if (token.epoch().isOlderThan(read.epoch())) {
        return new RejectedStale(token.resource(), token.epoch(), read.epoch());
      }
      if (!token.epoch().isNewerThan(read.epoch())
          || state.compareAndSet(read, read.withEpoch(token.epoch()))) {
        return new Registered(token.resource(), token.epoch(), read.epoch());
      }
    }
  }

  @Override
  public WriteOutcome write(FencingToken token, OperationId operation, Pointer change) {
    requireNonNull(token, "token is null");
    requireNonNull(operation, "operation is null");
    requireNonNull(change, "change is null");
    ResourceId resource = token.resource();
    AtomicReference<Snapshot> state = storage.of(resource);
    steps.reached(FencingStep.BEFORE_LOCK, token, operation);
    while (true) {
      Snapshot read = state.get();
      if (token.epoch().isOlderThan(read.epoch())) {
        return new RejectedStale(resource, token.epoch(), read.epoch());
      }
      Epoch newest = token.epoch().isNewerThan(read.epoch()) ? token.epoch() : read.epoch();
      steps.reached(FencingStep.AFTER_EPOCH_CHECK, token, operation);
      Receipt previous = read.receipts().get(operation);
      if (previous != null) {
        if (newest.equals(read.epoch()) || state.compareAndSet(read, read.withEpoch(newest))) {
          steps.reached(FencingStep.AFTER_COMMIT, token, operation);
          return new AlreadyApplied(previous);
        }
        continue;
      }
      Map<String, String> attributes = new HashMap<>(change.attributes());
      attributes.put(TARGET_ATTRIBUTE, change.target());
      Receipt receipt =
          new Receipt(resource, operation, token.epoch(), clock.instant(), attributes);
      PointerState applied =
          new PointerState(resource, change, token.epoch(), operation, read.history().size() + 1L);
      Snapshot next = read.withApplied(newest, applied, receipt);
      // Nothing is visible until the swap: a listener that throws here aborts it all.
      steps.reached(FencingStep.AFTER_APPLY, token, operation);
      if (state.compareAndSet(read, next)) {
        steps.reached(FencingStep.AFTER_COMMIT, token, operation);
        return new Applied(receipt);
      }
      // Another step committed since the read: read again and decide again.
    }
  }

  @Override
  public Optional<Receipt> lookup(ResourceId resource, OperationId operation) {
    requireNonNull(resource, "resource is null");
    requireNonNull(operation, "operation is null");
    return Optional.ofNullable(read(resource).receipts().get(operation));
  }

  @Override
  public Epoch currentEpoch(ResourceId resource) {
    requireNonNull(resource, "resource is null");
    return read(resource).epoch();
  }

  @Override
  public Optional<PointerState> current(ResourceId resource) {
    return history(resource, 1).stream().findFirst();
  }

  @Override
  public List<PointerState> history(ResourceId resource, int limit) {
    requireNonNull(resource, "resource is null");
    if (limit < 1) {
      throw new IllegalArgumentException(
          "Cannot read the pointer history of " + resource + ": limit " + limit + " is below 1");
    }
    List<PointerState> oldestFirst = read(resource).history();
    List<PointerState> newestFirst = new ArrayList<>();
    for (int i = oldestFirst.size() - 1; i >= 0 && newestFirst.size() < limit; i--) {
      newestFirst.add(oldestFirst.get(i));
    }
    return List.copyOf(newestFirst);
  }

  private Snapshot read(ResourceId resource) {
    AtomicReference<Snapshot> state = storage.resources.get(resource);
    return state == null ? Snapshot.EMPTY : state.get();
  }
}
