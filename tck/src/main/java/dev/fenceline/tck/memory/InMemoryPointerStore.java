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
import java.util.concurrent.locks.ReentrantLock;

/**
 * The reference {@link PointerStore}: one lock serializes every write, with the same order of
 * checks a real store uses (epoch, then operation ID, then change and record, then commit). Like a
 * database under READ COMMITTED, reads never wait for a writer: they see what was committed. The
 * state lives in a {@link Storage} object that outlives the store, so a test can restart it. For
 * tests and examples only.
 */
public final class InMemoryPointerStore implements PointerStore {

  /** The store's state, kept across restarts of the store. */
  public static final class Storage {
    private final ReentrantLock writeLock = new ReentrantLock();
    private final Map<ResourceId, Epoch> epochs = new ConcurrentHashMap<>();
    private final Map<ResourceId, Map<OperationId, Receipt>> operations = new ConcurrentHashMap<>();
    // Newest last; replaced as a whole on every commit so readers see a consistent list.
    private final Map<ResourceId, List<PointerState>> pointers = new ConcurrentHashMap<>();
  }

  private static final Set<Capability> CAPABILITIES =
      EnumSet.of(
          Capability.NATIVE_EPOCH_CHECK, Capability.OPERATION_RECORD, Capability.RESULT_LOOKUP);

  private final Storage storage;
  private final StepListener steps;
  private final Clock clock;

  /** A store over {@code storage} reporting steps to {@code steps}. */
  public InMemoryPointerStore(Storage storage, StepListener steps, Clock clock) {
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
    storage.writeLock.lock();
    try {
      Epoch current = currentEpoch(token.resource());
      if (token.epoch().isOlderThan(current)) {
        return new RejectedStale(token.resource(), token.epoch(), current);
      }
      storage.epochs.put(token.resource(), token.epoch());
      return new Registered(token.resource(), token.epoch(), current);
    } finally {
      storage.writeLock.unlock();
    }
  }

  @Override
  public WriteOutcome write(FencingToken token, OperationId operation, Pointer change) {
    requireNonNull(token, "token is null");
    requireNonNull(operation, "operation is null");
    requireNonNull(change, "change is null");
    ResourceId resource = token.resource();
    steps.reached(FencingStep.BEFORE_LOCK, token, operation);
    WriteOutcome outcome;
    storage.writeLock.lock();
    try {
      Epoch current = currentEpoch(resource);
      if (token.epoch().isOlderThan(current)) {
        return new RejectedStale(resource, token.epoch(), current);
      }
      steps.reached(FencingStep.AFTER_EPOCH_CHECK, token, operation);
      Optional<Receipt> previous = lookup(resource, operation);
      if (previous.isPresent()) {
        storage.epochs.put(resource, token.epoch());
        outcome = new AlreadyApplied(previous.get());
      } else {
        Map<String, String> attributes = new HashMap<>(change.attributes());
        attributes.put(TARGET_ATTRIBUTE, change.target());
        Receipt receipt =
            new Receipt(resource, operation, token.epoch(), clock.instant(), attributes);
        List<PointerState> history = new ArrayList<>(historyOf(resource));
        history.add(
            new PointerState(resource, change, token.epoch(), operation, history.size() + 1L));
        // Nothing is visible until every step passed: a listener that throws here aborts it all.
        steps.reached(FencingStep.AFTER_APPLY, token, operation);
        storage.epochs.put(resource, token.epoch());
        storage.pointers.put(resource, List.copyOf(history));
        storage
            .operations
            .computeIfAbsent(resource, id -> new ConcurrentHashMap<>())
            .put(operation, receipt);
        outcome = new Applied(receipt);
      }
    } finally {
      storage.writeLock.unlock();
    }
    steps.reached(FencingStep.AFTER_COMMIT, token, operation);
    return outcome;
  }

  @Override
  public Optional<Receipt> lookup(ResourceId resource, OperationId operation) {
    requireNonNull(resource, "resource is null");
    requireNonNull(operation, "operation is null");
    return Optional.ofNullable(storage.operations.getOrDefault(resource, Map.of()).get(operation));
  }

  @Override
  public Epoch currentEpoch(ResourceId resource) {
    requireNonNull(resource, "resource is null");
    return storage.epochs.getOrDefault(resource, Epoch.NONE);
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
    List<PointerState> oldestFirst = historyOf(resource);
    List<PointerState> newestFirst = new ArrayList<>();
    for (int i = oldestFirst.size() - 1; i >= 0 && newestFirst.size() < limit; i--) {
      newestFirst.add(oldestFirst.get(i));
    }
    return List.copyOf(newestFirst);
  }

  private List<PointerState> historyOf(ResourceId resource) {
    return storage.pointers.getOrDefault(resource, List.of());
  }
}
