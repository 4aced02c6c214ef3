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
import dev.fenceline.spi.Registered;
import dev.fenceline.spi.RejectedStale;
import dev.fenceline.spi.RequestFingerprint;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StepListener;
import dev.fenceline.spi.SupportsEpochReset;
import dev.fenceline.spi.TokenKeys;
import dev.fenceline.spi.WriteOutcome;
import java.time.Clock;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
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
 * decision made on an old snapshot. Operation records and pointers are scoped by the store's name;
 * the registered epoch and its issuer are per resource, shared by every name. The state lives in a
 * {@link Storage} that outlives the store, so a test can restart it. For tests and examples only.
 */
public final class InMemoryCasPointerStore implements PointerStore, SupportsEpochReset {

  /** The store's state, kept across restarts of the store. */
  public static final class Storage {
    private final String id = "memory-cas-" + UUID.randomUUID();
    private final ConcurrentMap<ResourceId, AtomicReference<Snapshot>> resources =
        new ConcurrentHashMap<>();

    private AtomicReference<Snapshot> of(ResourceId resource) {
      return resources.computeIfAbsent(resource, id -> new AtomicReference<>(Snapshot.EMPTY));
    }
  }

  /**
   * One resource's state as of one commit; replaced as a whole, never changed in place. Histories
   * and records are keyed by store name.
   */
  private record Snapshot(
      Epoch epoch,
      String issuer,
      Map<String, List<PointerState>> histories,
      Map<String, Map<OperationId, RecordedOperation>> records) {

    static final Snapshot EMPTY = new Snapshot(Epoch.NONE, null, Map.of(), Map.of());

    Snapshot registered(Epoch newer, String issuer) {
      return new Snapshot(newer, issuer, histories, records);
    }

    List<PointerState> history(String name) {
      return histories.getOrDefault(name, List.of());
    }

    RecordedOperation record(String name, OperationId operation) {
      return records.getOrDefault(name, Map.of()).get(operation);
    }

    Snapshot withApplied(
        String name,
        Epoch newer,
        String issuer,
        List<PointerState> longer,
        RecordedOperation recorded) {
      Map<String, List<PointerState>> allHistories = new HashMap<>(histories);
      allHistories.put(name, longer);
      Map<OperationId, RecordedOperation> more =
          new HashMap<>(records.getOrDefault(name, Map.of()));
      more.put(recorded.receipt().operation(), recorded);
      Map<String, Map<OperationId, RecordedOperation>> allRecords = new HashMap<>(records);
      allRecords.put(name, Map.copyOf(more));
      return new Snapshot(newer, issuer, Map.copyOf(allHistories), Map.copyOf(allRecords));
    }
  }

  private static final Set<Capability> CAPABILITIES =
      EnumSet.of(
          Capability.NATIVE_EPOCH_CHECK, Capability.OPERATION_RECORD, Capability.RESULT_LOOKUP);

  private final Storage storage;
  private final StoreSettings settings;
  private final String name;
  private final StepListener steps;

  /** A store named {@code name} over {@code storage} reporting steps to {@code steps}. */
  public InMemoryCasPointerStore(Storage storage, String name, StepListener steps, Clock clock) {
    this(storage, name, steps, clock, null);
  }

  /**
   * A store named {@code name} over {@code storage} reporting steps to {@code steps} that, if
   * {@code keys} is not null, refuses tokens not signed with them.
   */
  public InMemoryCasPointerStore(
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
    AtomicReference<Snapshot> state = storage.of(token.resource());
    while (true) {
      Snapshot read = state.get();
      RegisteredEpochs.checkIssuer(read.issuer(), token, action);
      if (token.epoch().isOlderThan(read.epoch())) {
        return new RejectedStale(token.resource(), token.epoch(), read.epoch());
      }
      boolean unchanged = token.epoch().equals(read.epoch()) && read.issuer() != null;
      if (unchanged || state.compareAndSet(read, read.registered(token.epoch(), token.issuer()))) {
        return new Registered(token.resource(), token.epoch(), read.epoch());
      }
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
    AtomicReference<Snapshot> state = storage.of(resource);
    steps.reached(FencingStep.BEFORE_LOCK, token, operation);
    while (true) {
      Snapshot read = state.get();
      RegisteredEpochs.checkIssuer(read.issuer(), token, action);
      if (token.epoch().isOlderThan(read.epoch())) {
        return new RejectedStale(resource, token.epoch(), read.epoch());
      }
      Epoch newest = token.epoch().isNewerThan(read.epoch()) ? token.epoch() : read.epoch();
      steps.reached(FencingStep.AFTER_EPOCH_CHECK, token, operation);
      RecordedOperation previous = read.record(name, operation);
      if (previous != null) {
        Receipt receipt = previous.receiptForRetry(fingerprint);
        boolean unchanged = newest.equals(read.epoch()) && read.issuer() != null;
        if (unchanged || state.compareAndSet(read, read.registered(newest, token.issuer()))) {
          steps.reached(FencingStep.AFTER_COMMIT, token, operation);
          return new AlreadyApplied(receipt);
        }
        continue;
      }
      Receipt receipt = settings.receipt(token, operation, change.receiptAttributes());
      Snapshot next =
          read.withApplied(
              name,
              newest,
              token.issuer(),
              PointerHistory.appended(read.history(name), token, operation, change),
              new RecordedOperation(receipt, fingerprint));
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
    return Optional.ofNullable(read(resource).record(name, operation))
        .map(RecordedOperation::receipt);
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
    return PointerHistory.newestFirst(resource, read(resource).history(name), limit);
  }

  @Override
  public Epoch resetRegisteredEpoch(ResourceId resource, Epoch epoch, String reason) {
    requireNonNull(resource, "resource is null");
    requireNonNull(epoch, "epoch is null");
    FencingToken.validateHolder(reason);
    AtomicReference<Snapshot> state = storage.of(resource);
    while (true) {
      Snapshot read = state.get();
      if (state.compareAndSet(read, read.registered(epoch, null))) {
        RegisteredEpochs.logReset(
            InMemoryCasPointerStore.class, resource, read.epoch(), epoch, reason);
        return read.epoch();
      }
    }
  }

  private Snapshot read(ResourceId resource) {
    AtomicReference<Snapshot> state = storage.resources.get(resource);
    return state == null ? Snapshot.EMPTY : state.get();
  }
}
