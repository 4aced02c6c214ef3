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
package dev.fenceline.junit;

import static java.util.Objects.requireNonNull;

import dev.fenceline.spi.Applied;
import dev.fenceline.spi.Capability;
import dev.fenceline.spi.Destination;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Pointer;
import dev.fenceline.spi.PointerState;
import dev.fenceline.spi.Receipt;
import dev.fenceline.spi.RegisterOutcome;
import dev.fenceline.spi.RequestFingerprint;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StepListener;
import dev.fenceline.spi.TokenKeys;
import dev.fenceline.spi.WriteOutcome;
import dev.fenceline.tck.memory.InMemoryPointerStore;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A fenced destination in memory that publishes one change per resource, for tests: the change a
 * reader sees is {@link #published}. It is the TCK's reference pointer store ({@link
 * InMemoryPointerStore}) with your changes kept next to it: each write puts its change aside under
 * a new key and lets the pointer store swap the resource's pointer to that key, so the epoch check,
 * the operation record and the swap are the reference store's one atomic step (guarantee {@link
 * dev.fenceline.spi.Guarantee#FENCED}), and it reports the reference store's {@link
 * dev.fenceline.spi.FencingStep}s: {@code BEFORE_LOCK}, {@code AFTER_EPOCH_CHECK}, {@code
 * AFTER_APPLY}, {@code AFTER_COMMIT} (never {@code AFTER_STAGE}).
 *
 * <p>Every destination of one {@link FencelineLab} shares the registered epochs per resource, as
 * the destinations of one store do; operation records are per destination name. A retry of an
 * operation must carry an equal change: two changes are the same request when they are byte arrays
 * with the same content, or objects of the same class with the same {@code toString()} (strings,
 * records); another change for a recorded operation is refused with {@link
 * dev.fenceline.spi.OperationConflictException}. It keeps a journal of its writes ({@link
 * #writes()}); {@link #recorded()} is the in-memory store behind it. Thread-safe.
 *
 * @param <C> the kind of change it publishes (a report's text, a record of yours)
 */
public final class InMemoryDestination<C> extends RecordingDestination<C> {

  /** What the destinations of one lab share: the pointer store's state and the changes. */
  static final class Storage {
    private final InMemoryPointerStore.Storage pointers = new InMemoryPointerStore.Storage();
    private final Map<String, Object> changes = new ConcurrentHashMap<>();
    private final AtomicLong keys = new AtomicLong();

    /** How many changes are kept: one per applied write. */
    int changeCount() {
      return changes.size();
    }
  }

  private final Storage storage;
  private final InMemoryPointerStore store;

  /**
   * A destination named {@code name} over {@code storage} reporting its steps to {@code steps},
   * recording receipts at {@code clock}'s time, refusing tokens not signed with {@code keys} (null:
   * takes unsigned tokens).
   */
  InMemoryDestination(
      Storage storage, String name, StepListener steps, Clock clock, TokenKeys keys) {
    this(storage, new InMemoryPointerStore(storage.pointers, name, steps, clock, keys));
  }

  private InMemoryDestination(Storage storage, InMemoryPointerStore store) {
    super(new ChangesBehindPointers<>(storage, store));
    this.storage = storage;
    this.store = store;
  }

  /** The change a reader of {@code resource} sees now, or empty if none was published. */
  public Optional<C> published(ResourceId resource) {
    return current(resource).map(this::changeOf);
  }

  /** Every change published for {@code resource}, oldest first; rejected writes are not in it. */
  public List<C> history(ResourceId resource) {
    List<PointerState> newestFirst = store.history(resource, Integer.MAX_VALUE);
    List<C> oldestFirst = new ArrayList<>();
    for (int i = newestFirst.size() - 1; i >= 0; i--) {
      oldestFirst.add(changeOf(newestFirst.get(i)));
    }
    return oldestFirst;
  }

  /** The pointer state behind {@link #published}: which epoch and operation published it. */
  Optional<PointerState> current(ResourceId resource) {
    return store.current(resource);
  }

  @SuppressWarnings("unchecked") // only ChangesBehindPointers puts changes in, each of this C
  private C changeOf(PointerState state) {
    return (C) storage.changes.get(state.pointer().target());
  }

  @Override
  public String toString() {
    return "InMemoryDestination[" + name() + "]";
  }

  /**
   * The store itself: each write puts its change aside under a new key and swaps the pointer to it
   * in the pointer store's atomic step.
   */
  private static final class ChangesBehindPointers<C> implements Destination<C> {
    private final Storage storage;
    private final InMemoryPointerStore store;

    ChangesBehindPointers(Storage storage, InMemoryPointerStore store) {
      this.storage = requireNonNull(storage, "storage is null");
      this.store = store;
    }

    @Override
    public WriteOutcome write(FencingToken token, OperationId operation, C change) {
      requireNonNull(change, "change is null");
      // Put aside first, so a reader that sees the swapped pointer always finds the change.
      String key = "change-" + storage.keys.incrementAndGet();
      storage.changes.put(key, change);
      boolean published = false;
      try {
        WriteOutcome outcome = store.write(token, operation, Pointer.to(key), fingerprint(change));
        published = outcome instanceof Applied;
        return outcome;
      } finally {
        // A write that threw after its commit (a crash or an interrupt at AFTER_COMMIT) published
        // the key all the same: only a change no pointer ever named is dropped.
        if (!published && !named(token.resource(), key)) {
          storage.changes.remove(key);
        }
      }
    }

    /** Whether a pointer of {@code resource}, current or earlier, names {@code key}. */
    private boolean named(ResourceId resource, String key) {
      for (PointerState state : store.history(resource, Integer.MAX_VALUE)) {
        if (state.pointer().target().equals(key)) {
          return true;
        }
      }
      return false;
    }

    private static RequestFingerprint fingerprint(Object change) {
      if (change instanceof byte[] bytes) {
        return RequestFingerprint.sha256(bytes);
      }
      return RequestFingerprint.sha256(change.getClass().getName() + ":" + change);
    }

    @Override
    public String name() {
      return store.name();
    }

    @Override
    public Set<Capability> capabilities() {
      return store.capabilities();
    }

    @Override
    public RegisterOutcome register(FencingToken token) {
      return store.register(token);
    }

    @Override
    public Optional<Receipt> lookup(ResourceId resource, OperationId operation) {
      return store.lookup(resource, operation);
    }

    @Override
    public Epoch currentEpoch(ResourceId resource) {
      return store.currentEpoch(resource);
    }

    @Override
    public String toString() {
      return "InMemoryPointerStore[" + store.name() + "] with the changes its pointers name";
    }
  }
}
