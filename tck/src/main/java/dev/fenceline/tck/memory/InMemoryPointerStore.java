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
import dev.fenceline.spi.RejectedStale;
import dev.fenceline.spi.RequestFingerprint;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StepListener;
import dev.fenceline.spi.SupportsEpochReset;
import dev.fenceline.spi.TokenKeys;
import dev.fenceline.spi.WriteOutcome;
import java.time.Clock;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The reference {@link PointerStore}: one lock serializes every write, with the same order of
 * checks a real store uses (token trust, epoch, then operation ID, then change and record, then
 * commit). Like a database under READ COMMITTED, reads never wait for a writer: they see what was
 * committed. The state lives in a {@link Storage} object that outlives the store, so a test can
 * restart it. Operation records and pointers are scoped by the store's name; the registered epoch
 * and its issuer are per resource, shared by every name. For tests and examples only.
 */
public final class InMemoryPointerStore implements PointerStore, SupportsEpochReset {

  /** The store's state, kept across restarts of the store. */
  public static final class Storage {
    private final String id = "memory-" + UUID.randomUUID();
    private final ReentrantLock writeLock = new ReentrantLock();
    private final RegisteredEpochs epochs = new RegisteredEpochs();
    private final Map<Scope, Map<OperationId, RecordedOperation>> operations =
        new ConcurrentHashMap<>();
    // Newest last; replaced as a whole on every commit so readers see a consistent list.
    private final Map<Scope, List<PointerState>> pointers = new ConcurrentHashMap<>();
  }

  private record Scope(String name, ResourceId resource) {}

  private static final Set<Capability> CAPABILITIES =
      EnumSet.of(
          Capability.NATIVE_EPOCH_CHECK, Capability.OPERATION_RECORD, Capability.RESULT_LOOKUP);

  private final Storage storage;
  private final StoreSettings settings;
  private final String name;
  private final StepListener steps;

  /** A store named {@code name} over {@code storage} reporting steps to {@code steps}. */
  public InMemoryPointerStore(Storage storage, String name, StepListener steps, Clock clock) {
    this(storage, name, steps, clock, null);
  }

  /**
   * A store named {@code name} over {@code storage} reporting steps to {@code steps} that, if
   * {@code keys} is not null, refuses tokens not signed with them.
   */
  public InMemoryPointerStore(
      Storage storage, String name, StepListener steps, Clock clock, TokenKeys keys) {
    this.storage = requireNonNull(storage, "storage is null");
    this.settings = new StoreSettings(name, steps, clock, keys);
    this.name = settings.name();
    this.steps = steps;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public String storeId() {
    return storage.id;
  }

  @Override
  public Set<Capability> capabilities() {
    return CAPABILITIES;
  }

  @Override
  public RegisterOutcome register(FencingToken token) {
    requireNonNull(token, "token is null");
    String action = "register epoch " + token.epoch() + " at " + name;
    settings.trust(token, action);
    storage.writeLock.lock();
    try {
      return storage.epochs.register(token, action);
    } finally {
      storage.writeLock.unlock();
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
    String action = "write operation " + operation + " to " + name;
    settings.trust(token, action);
    steps.reached(FencingStep.BEFORE_LOCK, token, operation);
    WriteOutcome outcome;
    storage.writeLock.lock();
    try {
      storage.epochs.bindIssuer(token, action);
      Epoch current = currentEpoch(resource);
      if (token.epoch().isOlderThan(current)) {
        return new RejectedStale(resource, token.epoch(), current);
      }
      steps.reached(FencingStep.AFTER_EPOCH_CHECK, token, operation);
      Scope scope = new Scope(name, resource);
      RecordedOperation previous = storage.operations.getOrDefault(scope, Map.of()).get(operation);
      if (previous != null) {
        Receipt receipt = previous.receiptForRetry(fingerprint);
        storage.epochs.registerNewer(token);
        outcome = new AlreadyApplied(receipt);
      } else {
        Receipt receipt = settings.receipt(token, operation, change.receiptAttributes());
        List<PointerState> history =
            PointerHistory.appended(historyOf(scope), token, operation, change);
        // Nothing is visible until every step passed: a listener that throws here aborts it all.
        steps.reached(FencingStep.AFTER_APPLY, token, operation);
        storage.epochs.registerNewer(token);
        storage.pointers.put(scope, history);
        storage
            .operations
            .computeIfAbsent(scope, id -> new ConcurrentHashMap<>())
            .put(operation, new RecordedOperation(receipt, fingerprint));
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
    return Optional.ofNullable(
            storage.operations.getOrDefault(new Scope(name, resource), Map.of()).get(operation))
        .map(RecordedOperation::receipt);
  }

  @Override
  public Epoch currentEpoch(ResourceId resource) {
    requireNonNull(resource, "resource is null");
    return storage.epochs.current(resource);
  }

  @Override
  public Optional<PointerState> current(ResourceId resource) {
    return history(resource, 1).stream().findFirst();
  }

  @Override
  public List<PointerState> history(ResourceId resource, int limit) {
    requireNonNull(resource, "resource is null");
    return PointerHistory.newestFirst(resource, historyOf(new Scope(name, resource)), limit);
  }

  @Override
  public Epoch resetRegisteredEpoch(ResourceId resource, Epoch epoch, String reason) {
    requireNonNull(resource, "resource is null");
    requireNonNull(epoch, "epoch is null");
    FencingToken.validateHolder(reason);
    storage.writeLock.lock();
    try {
      Epoch previous = currentEpoch(resource);
      storage.epochs.reset(resource, epoch);
      RegisteredEpochs.logReset(InMemoryPointerStore.class, resource, previous, epoch, reason);
      return previous;
    } finally {
      storage.writeLock.unlock();
    }
  }

  private List<PointerState> historyOf(Scope scope) {
    return storage.pointers.getOrDefault(scope, List.of());
  }
}
