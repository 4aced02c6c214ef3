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
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingStep;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.Intent;
import dev.fenceline.spi.IntentOutcome;
import dev.fenceline.spi.IntentRecorded;
import dev.fenceline.spi.IntentStore;
import dev.fenceline.spi.OperationConflictException;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Receipt;
import dev.fenceline.spi.RegisterOutcome;
import dev.fenceline.spi.RejectedStale;
import dev.fenceline.spi.RequestFingerprint;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StepListener;
import dev.fenceline.spi.TokenKeys;
import dev.fenceline.spi.WriteOutcome;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The reference {@link IntentStore}: one lock serializes every change, with the checks in the order
 * a real store makes them (token trust, epoch, then the intent). Reads never wait for a writer. The
 * state lives in a {@link Storage} that outlives the store, so a test can restart it. For tests and
 * examples only.
 */
public final class InMemoryIntentStore implements IntentStore {

  /** The store's state, kept across restarts of the store. */
  public static final class Storage {
    private final String id = "memory-" + UUID.randomUUID();
    private final ReentrantLock writeLock = new ReentrantLock();
    private final RegisteredEpochs epochs = new RegisteredEpochs();
    private final Map<Key, Intent> intents = new ConcurrentHashMap<>();
  }

  private record Key(String name, ResourceId resource, OperationId operation) {}

  private final Storage storage;
  private final StoreSettings settings;
  private final String name;
  private final StepListener steps;

  /**
   * A store named {@code name} over {@code storage} reporting steps to {@code steps} that, if
   * {@code keys} is not null, refuses tokens not signed with them.
   */
  public InMemoryIntentStore(
      Storage storage, String name, StepListener steps, Clock clock, TokenKeys keys) {
    this.storage = requireNonNull(storage, "storage is null");
    this.settings = new StoreSettings(name, steps, clock, keys);
    this.name = settings.name();
    this.steps = steps;
  }

  /** A store named {@code name} with its own fresh storage, no step listener and no token keys. */
  public static InMemoryIntentStore create(String name) {
    return new InMemoryIntentStore(new Storage(), name, StepListener.NONE, Clock.systemUTC(), null);
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
  public IntentOutcome begin(
      FencingToken token, OperationId operation, RequestFingerprint fingerprint) {
    requireNonNull(token, "token is null");
    requireNonNull(operation, "operation is null");
    requireNonNull(fingerprint, "fingerprint is null");
    ResourceId resource = token.resource();
    String action = "begin operation " + operation + " at " + name;
    settings.trust(token, action);
    steps.reached(FencingStep.BEFORE_LOCK, token, operation);
    Intent recorded;
    Epoch previousEpoch;
    storage.writeLock.lock();
    try {
      storage.epochs.bindIssuer(token, action);
      Epoch current = currentEpoch(resource);
      if (token.epoch().isOlderThan(current)) {
        return new RejectedStale(resource, token.epoch(), current);
      }
      steps.reached(FencingStep.AFTER_EPOCH_CHECK, token, operation);
      Key key = new Key(name, resource, operation);
      Intent previous = storage.intents.get(key);
      if (previous != null && !previous.fingerprint().equals(fingerprint)) {
        throw OperationConflictException.differentIntent(previous, fingerprint);
      }
      previousEpoch = previous == null ? Epoch.NONE : previous.epoch();
      if (previous != null && previous.completed()) {
        recorded = previous;
      } else {
        // A first attempt, or a retry of one not yet completed: the retry counts one more.
        recorded =
            new Intent(
                name,
                resource,
                operation,
                fingerprint,
                token.epoch(),
                previous == null ? 1 : previous.attempts() + 1,
                previous == null ? settings.clock().instant() : previous.recordedAt(),
                Optional.empty());
      }
      // Nothing is visible until every step passed: a listener that throws here aborts it all.
      steps.reached(FencingStep.AFTER_APPLY, token, operation);
      storage.epochs.registerNewer(token);
      storage.intents.put(key, recorded);
    } finally {
      storage.writeLock.unlock();
    }
    steps.reached(FencingStep.AFTER_COMMIT, token, operation);
    return new IntentRecorded(recorded, previousEpoch);
  }

  @Override
  public WriteOutcome complete(
      FencingToken token, OperationId operation, Epoch sentUnder, Map<String, String> attributes) {
    requireNonNull(token, "token is null");
    requireNonNull(operation, "operation is null");
    requireNonNull(attributes, "attributes is null");
    IntentStore.checkSentUnder(token, operation, sentUnder);
    String action = "complete operation " + operation + " at " + name;
    settings.trust(token, action);
    storage.writeLock.lock();
    try {
      storage.epochs.bindIssuer(token, action);
      Key key = new Key(name, token.resource(), operation);
      Intent intent = storage.intents.get(key);
      if (intent == null) {
        throw new IllegalStateException(
            "Cannot "
                + action
                + " for "
                + token.resource()
                + ": no intent was recorded for it (call begin before sending the request)");
      }
      if (intent.completed()) {
        return new AlreadyApplied(intent.receipt().orElseThrow());
      }
      Receipt receipt = settings.receipt(token.resource(), operation, sentUnder, attributes);
      storage.intents.put(
          key,
          new Intent(
              name,
              intent.resource(),
              operation,
              intent.fingerprint(),
              intent.epoch(),
              intent.attempts(),
              intent.recordedAt(),
              Optional.of(receipt)));
      return new Applied(receipt);
    } finally {
      storage.writeLock.unlock();
    }
  }

  @Override
  public Optional<Intent> lookup(ResourceId resource, OperationId operation) {
    requireNonNull(resource, "resource is null");
    requireNonNull(operation, "operation is null");
    return Optional.ofNullable(storage.intents.get(new Key(name, resource, operation)));
  }

  @Override
  public Epoch currentEpoch(ResourceId resource) {
    requireNonNull(resource, "resource is null");
    return storage.epochs.current(resource);
  }
}
