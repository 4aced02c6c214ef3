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

import dev.fenceline.locking.ControlRow;
import dev.fenceline.locking.LockingSteps;
import dev.fenceline.locking.LockingStore;
import dev.fenceline.locking.RecordedOperation;
import dev.fenceline.spi.Capability;
import dev.fenceline.spi.Destination;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Receipt;
import dev.fenceline.spi.RegisterOutcome;
import dev.fenceline.spi.RequestFingerprint;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StepListener;
import dev.fenceline.spi.TokenKeys;
import dev.fenceline.spi.UnsupportedCapabilityException;
import dev.fenceline.spi.WriteOutcome;
import java.time.Clock;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A destination of text payloads on {@link LockingSteps} over maps and one lock per resource: the
 * smallest store the locking steps can run on, and the only one in the build that claims none of
 * the optional capabilities (no {@link Capability#RESULT_LOOKUP}, no epoch reset, no token keys),
 * so that the suite's checks of their documented refusals run against a store that passes.
 */
final class InMemoryLockingDestination implements Destination<String> {

  /** The store's state, kept across restarts. */
  static final class Storage {
    private final Map<ResourceId, ReentrantLock> locks = new ConcurrentHashMap<>();
    private final Map<ResourceId, ControlRow> rows = new ConcurrentHashMap<>();
    private final Map<List<String>, RecordedOperation> operations = new ConcurrentHashMap<>();
    private final Map<List<String>, String> payloads = new ConcurrentHashMap<>();
    private final Map<List<String>, Long> versions = new ConcurrentHashMap<>();

    /** The payload readers of {@code resource} at {@code name} see. */
    Optional<String> payload(String name, ResourceId resource) {
      return Optional.ofNullable(payloads.get(List.of(name, resource.value())));
    }

    /** How many payloads were applied to {@code resource} at {@code name}. */
    long version(String name, ResourceId resource) {
      return versions.getOrDefault(List.of(name, resource.value()), 0L);
    }
  }

  /** A transaction: the locks it holds, and its writes, made visible together at commit. */
  static final class Transaction {
    private final List<ReentrantLock> held = new ArrayList<>();
    private final List<Runnable> writes = new ArrayList<>();

    private void end() {
      for (ReentrantLock lock : held) {
        lock.unlock();
      }
    }
  }

  private final Storage storage;
  private final LockingSteps<Transaction> steps;

  /**
   * A destination named {@code name} over {@code storage}.
   *
   * @throws UnsupportedCapabilityException if {@code keys} is present: it cannot check signatures
   */
  InMemoryLockingDestination(
      Storage storage, String name, StepListener listener, Optional<TokenKeys> keys) {
    if (keys.isPresent()) {
      throw new UnsupportedCapabilityException(
          "Cannot create destination "
              + name
              + " with token keys: this store cannot check signed tokens (create it without keys)");
    }
    this.storage = requireNonNull(storage, "storage is null");
    this.steps =
        new LockingSteps<>(name, new Store(), listener, Clock.systemUTC(), Optional.empty());
  }

  @Override
  public String name() {
    return steps.name();
  }

  @Override
  public Set<Capability> capabilities() {
    return EnumSet.of(Capability.NATIVE_EPOCH_CHECK, Capability.OPERATION_RECORD);
  }

  @Override
  public RegisterOutcome register(FencingToken token) {
    return steps.register(token);
  }

  @Override
  public WriteOutcome write(FencingToken token, OperationId operation, String change) {
    requireNonNull(change, "change is null");
    List<String> key = List.of(name(), token.resource().value());
    return steps.write(
        token,
        operation,
        LockingSteps.Change.of(
            RequestFingerprint.sha256(change),
            tx -> {
              tx.writes.add(
                  () -> {
                    storage.payloads.put(key, change);
                    storage.versions.merge(key, 1L, Long::sum);
                  });
              return Map.of("length", Integer.toString(change.length()));
            }));
  }

  /**
   * Not offered (no {@link Capability#RESULT_LOOKUP}).
   *
   * @throws UnsupportedCapabilityException always
   */
  @Override
  public Optional<Receipt> lookup(ResourceId resource, OperationId operation) {
    throw new UnsupportedCapabilityException(
        "Cannot look up operation "
            + operation
            + " of "
            + resource
            + " at "
            + name()
            + ": this destination does not offer lookups (it lacks RESULT_LOOKUP)");
  }

  @Override
  public Epoch currentEpoch(ResourceId resource) {
    return steps.currentEpoch(resource);
  }

  /** The statements of the maps. */
  private final class Store implements LockingStore<Transaction> {

    @Override
    public String description() {
      return "in-memory locking store";
    }

    @Override
    public Transaction begin() {
      return new Transaction();
    }

    @Override
    public ControlRow lockControlRow(Transaction tx, ResourceId resource) {
      ReentrantLock lock = storage.locks.computeIfAbsent(resource, r -> new ReentrantLock());
      lock.lock();
      tx.held.add(lock);
      return storage.rows.getOrDefault(resource, ControlRow.NONE);
    }

    @Override
    public Optional<ControlRow> readControlRow(Transaction tx, ResourceId resource) {
      return Optional.ofNullable(storage.rows.get(resource));
    }

    @Override
    public void writeControlRow(Transaction tx, ResourceId resource, ControlRow row) {
      tx.writes.add(() -> storage.rows.put(resource, row));
    }

    @Override
    public Optional<RecordedOperation> findOperation(
        Transaction tx, String destination, ResourceId resource, OperationId operation) {
      return Optional.ofNullable(
          storage.operations.get(List.of(destination, resource.value(), operation.value())));
    }

    @Override
    public void recordOperation(Transaction tx, RecordedOperation record) {
      Receipt receipt = record.receipt();
      List<String> key =
          List.of(receipt.destination(), receipt.resource().value(), receipt.operation().value());
      tx.writes.add(() -> storage.operations.put(key, record));
    }

    @Override
    public void commit(Transaction tx) {
      tx.writes.forEach(Runnable::run);
      tx.end();
    }

    @Override
    public void rollback(Transaction tx) {
      tx.end();
    }
  }
}
