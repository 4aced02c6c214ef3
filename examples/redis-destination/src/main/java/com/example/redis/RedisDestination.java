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
package com.example.redis;

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
import dev.fenceline.spi.Receipt;
import dev.fenceline.spi.RegisterOutcome;
import dev.fenceline.spi.Registered;
import dev.fenceline.spi.RejectedStale;
import dev.fenceline.spi.RequestFingerprint;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StepListener;
import dev.fenceline.spi.StoreException;
import dev.fenceline.spi.TokenKeys;
import dev.fenceline.spi.UntrustedTokenException;
import dev.fenceline.spi.WriteOutcome;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A fenced destination on Redis that publishes a text document per resource: readers read the hash
 * {@link RedisFenceStore#documentKey} (fields {@code value} and {@code version}). One Lua script
 * ({@code fence.lua}) checks the issuer and the epoch, applies the change and records the operation
 * with its receipt in one atomic step, which Redis runs alone: the guarantee is {@link
 * dev.fenceline.spi.Guarantee#FENCED}, with {@link Capability#RESULT_LOOKUP}, on one primary with
 * {@code appendfsync always} ({@link RedisFenceStore}).
 *
 * <p>Concurrency: compare-and-swap, not locking. A write reads the fence first, in one round trip,
 * to answer a stale or foreign token without running the script and to report its {@link
 * FencingStep}s; the script then decides again, atomically, on what the server holds at that
 * moment, so whatever another writer committed in between wins. Nobody ever waits for a paused
 * writer: Redis holds no lock between two calls.
 *
 * <p>A receipt's attribute {@code version} is the document's version the change produced; {@link
 * Receipt#recordedAt()} is the server's clock ({@code TIME}). Not implemented: {@link
 * dev.fenceline.spi.SupportsEpochReset} (an operator who must move a resource to another issuer
 * deletes its fence key with redis-cli while no writer runs).
 */
public final class RedisDestination implements Destination<String> {

  private static final Set<Capability> CAPABILITIES =
      Set.copyOf(
          EnumSet.of(
              Capability.NATIVE_EPOCH_CHECK,
              Capability.OPERATION_RECORD,
              Capability.RESULT_LOOKUP));

  private final RedisFenceStore store;
  private final String name;
  private final StepListener steps;
  private final Optional<TokenKeys> keys;

  RedisDestination(
      RedisFenceStore store, String name, StepListener steps, Optional<TokenKeys> keys) {
    this.store = requireNonNull(store, "store is null");
    this.name = Destination.validateName(name);
    this.steps = requireNonNull(steps, "steps is null");
    this.keys = requireNonNull(keys, "keys is null");
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public Set<Capability> capabilities() {
    return CAPABILITIES;
  }

  @Override
  public RegisterOutcome register(FencingToken token) {
    ResourceId resource = token.resource();
    String action = "register epoch " + token.epoch() + " of " + resource + " at " + name;
    keys.ifPresent(k -> k.verify(token, action));
    RedisFenceStore.Answer answer =
        store.run(keys(resource), List.of("register", token.issuer(), epoch(token)), action);
    return switch (answer.tag()) {
      case "registered" -> new Registered(resource, token.epoch(), epoch(resource, answer, action));
      case "stale" -> new RejectedStale(resource, token.epoch(), epoch(resource, answer, action));
      case "foreign" -> throw UntrustedTokenException.foreignIssuer(token, answer.value(), action);
      case "corrupt" -> throw corruptFence(resource, answer, action);
      default -> throw unexpected(answer, action);
    };
  }

  @Override
  public WriteOutcome write(FencingToken token, OperationId operation, String value) {
    ResourceId resource = token.resource();
    String action = "write operation " + operation + " of " + resource + " to " + name;
    keys.ifPresent(k -> k.verify(token, action));
    RequestFingerprint fingerprint = RequestFingerprint.sha256(value);
    steps.reached(FencingStep.BEFORE_LOCK, token, operation);

    // Look first: a foreign or stale token is answered without a script, and what was seen
    // decides which steps to report. Nothing is decided for good here: the script checks again.
    RedisFenceStore.Seen seen = store.read(name, resource, operation, action);
    if (seen.issuer().isPresent() && !seen.issuer().get().equals(token.issuer())) {
      throw UntrustedTokenException.foreignIssuer(token, seen.issuer().get(), action);
    }
    if (token.epoch().isOlderThan(seen.epoch())) {
      return new RejectedStale(resource, token.epoch(), seen.epoch());
    }
    steps.reached(FencingStep.AFTER_EPOCH_CHECK, token, operation);
    if (seen.record().isEmpty()) {
      // The change is ready to go; nothing of it is on the server until the script runs.
      steps.reached(FencingStep.AFTER_APPLY, token, operation);
    }

    RedisFenceStore.Answer answer =
        store.run(
            keys(resource),
            List.of(
                "write",
                token.issuer(),
                epoch(token),
                operation.value(),
                fingerprint.value(),
                value),
            action);
    WriteOutcome outcome =
        switch (answer.tag()) {
          case "applied" -> new Applied(receipt(resource, operation, answer.value(), action, true));
          case "replayed" ->
              new AlreadyApplied(receipt(resource, operation, answer.value(), action, true));
          case "stale" ->
              new RejectedStale(resource, token.epoch(), epoch(resource, answer, action));
          case "conflict" ->
              throw OperationConflictException.differentRequest(
                  receipt(resource, operation, answer.value(), action, true), fingerprint);
          case "foreign" ->
              throw UntrustedTokenException.foreignIssuer(token, answer.value(), action);
          case "corrupt" -> throw corruptFence(resource, answer, action);
          default -> throw unexpected(answer, action);
        };
    if (!(outcome instanceof RejectedStale)) {
      steps.reached(FencingStep.AFTER_COMMIT, token, operation);
    }
    return outcome;
  }

  @Override
  public Optional<Receipt> lookup(ResourceId resource, OperationId operation) {
    String action = "look up operation " + operation + " of " + resource + " at " + name;
    return store
        .record(name, resource, operation, action)
        .map(record -> receipt(resource, operation, record, action, false));
  }

  @Override
  public Epoch currentEpoch(ResourceId resource) {
    return store.epoch(resource, "read the registered epoch of " + resource);
  }

  private List<String> keys(ResourceId resource) {
    return List.of(
        RedisFenceStore.fenceKey(resource),
        RedisFenceStore.operationsKey(name, resource),
        RedisFenceStore.documentKey(name, resource));
  }

  private static String epoch(FencingToken token) {
    return Long.toString(token.epoch().value());
  }

  /** The epoch in the script's answer, which the script may have written before it answered. */
  private Epoch epoch(ResourceId resource, RedisFenceStore.Answer answer, String action) {
    try {
      return Epoch.of(Long.parseLong(answer.value()));
    } catch (IllegalArgumentException e) {
      throw store.corrupt(
          action,
          RedisFenceStore.fenceKey(resource) + " field epoch",
          answer.value(),
          "an epoch (a decimal from 0 to 2^63-1)",
          true);
    }
  }

  /** The script found a registered epoch that is not one, and wrote nothing. */
  private StoreException corruptFence(
      ResourceId resource, RedisFenceStore.Answer answer, String action) {
    return store.corrupt(
        action,
        RedisFenceStore.fenceKey(resource) + " field epoch",
        answer.value(),
        "an epoch (a decimal from 0 to 2^63-1, no leading zeros)",
        false);
  }

  /**
   * Parses a record: {@code <epoch> <seconds> <microseconds> <version> <fingerprint>}. {@code
   * scriptRan}: it is the script's answer, so a bad record leaves the outcome unknown.
   */
  private Receipt receipt(
      ResourceId resource, OperationId operation, String record, String action, boolean scriptRan) {
    String[] fields = record.split(" ");
    try {
      if (fields.length == 5) {
        new RequestFingerprint(fields[4]); // validates
        return new Receipt(
            name,
            resource,
            operation,
            Epoch.of(Long.parseLong(fields[0])),
            Instant.ofEpochSecond(
                Long.parseLong(fields[1]), Math.multiplyExact(Long.parseLong(fields[2]), 1000)),
            Map.of("version", Long.toString(Long.parseLong(fields[3]))));
      }
    } catch (IllegalArgumentException | ArithmeticException e) {
      // reported below
    }
    throw store.corrupt(
        action,
        RedisFenceStore.operationsKey(name, resource) + " field " + operation.value(),
        record,
        "'<epoch> <seconds> <microseconds> <version> sha256:<hex>'",
        scriptRan);
  }

  private StoreException unexpected(RedisFenceStore.Answer answer, String action) {
    return new StoreException(
        "Cannot "
            + action
            + ": the fence script answered "
            + answer
            + ", which it never answers to a "
            + action.substring(0, action.indexOf(' '))
            + " (is an older fence.lua cached under the same SHA1?); it ran, so it may have"
            + " changed something: retry with the same operation ID",
        null,
        true);
  }

  @Override
  public String toString() {
    return "RedisDestination[" + name + " on " + store + "]";
  }
}
