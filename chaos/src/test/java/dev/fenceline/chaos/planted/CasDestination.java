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
package dev.fenceline.chaos.planted;

import static java.util.Objects.requireNonNull;

import dev.fenceline.cas.CasPointerSteps;
import dev.fenceline.cas.ControlDocument;
import dev.fenceline.cas.ControlDocument.Entry;
import dev.fenceline.spi.Capability;
import dev.fenceline.spi.Destination;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Pointer;
import dev.fenceline.spi.Receipt;
import dev.fenceline.spi.RegisterOutcome;
import dev.fenceline.spi.RequestFingerprint;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StepListener;
import dev.fenceline.spi.WriteOutcome;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

/**
 * A destination of payloads built on the real {@link CasPointerSteps} over a {@link
 * SqliteCasStore}: the payload is stored content-addressed first (outside the fence, as a staged
 * blob would be), then the steps swap the resource's pointer to it. Correct over a conditional
 * store; the {@link PlantedBug#UNCONDITIONAL_CAS} target uses the store whose replace does not
 * compare.
 */
final class CasDestination implements Destination<InputStream> {

  private static final Set<Capability> CAPABILITIES =
      EnumSet.of(
          Capability.NATIVE_EPOCH_CHECK, Capability.OPERATION_RECORD, Capability.RESULT_LOOKUP);

  private final SqliteCasStore store;
  private final String name;
  private final CasPointerSteps<SqliteCasStore.Read> steps;

  CasDestination(SqliteFile db, String name, StepListener listener, boolean conditional) {
    this(db, name, listener, conditional, 0);
  }

  /**
   * @param replaceMillis how long a replace request travels to the store (see {@link
   *     SqliteCasStore})
   */
  CasDestination(
      SqliteFile db, String name, StepListener listener, boolean conditional, long replaceMillis) {
    this.name = Destination.validateName(name);
    this.store = new SqliteCasStore(db, name, conditional, replaceMillis);
    this.steps = new CasPointerSteps<>(name, store, listener, Clock.systemUTC());
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
    requireNonNull(token, "token is null");
    return steps.register(token, "register epoch " + token.epoch() + " at " + name);
  }

  @Override
  public WriteOutcome write(FencingToken token, OperationId operation, InputStream change) {
    requireNonNull(token, "token is null");
    requireNonNull(operation, "operation is null");
    requireNonNull(change, "change is null");
    byte[] payload;
    try (InputStream in = change) {
      payload = in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Cannot read the payload of operation " + operation + " (nothing was written)", e);
    }
    RequestFingerprint fingerprint = RequestFingerprint.sha256(payload);
    String key = fingerprint.value().substring("sha256:".length()); // content-addressed
    store.putBlob(key, payload);
    return steps.write(
        token,
        operation,
        Pointer.to(key),
        fingerprint,
        "write operation " + operation + " to " + name);
  }

  @Override
  public Optional<Receipt> lookup(ResourceId resource, OperationId operation) {
    requireNonNull(resource, "resource is null");
    requireNonNull(operation, "operation is null");
    String action = "look up operation " + operation + " at " + name;
    ControlDocument control = store.read(resource, action).control();
    return steps
        .recorded(resource, control, operation, action)
        .map(entry -> entry.receipt(name, resource));
  }

  @Override
  public Epoch currentEpoch(ResourceId resource) {
    requireNonNull(resource, "resource is null");
    return store.read(resource, "read the epoch of " + resource).control().epoch();
  }

  /** {@return the published payload of {@code resource}, if any} */
  Optional<byte[]> read(ResourceId resource) {
    Entry current = store.read(resource, "read " + resource).control().entry(name);
    if (current == null) {
      return Optional.empty();
    }
    String key = current.pointer().target();
    return Optional.of(
        store
            .blob(key)
            .orElseThrow(
                () ->
                    new IllegalStateException(
                        "The pointer of " + resource + " names blob " + key + ", which is gone")));
  }

  /** {@return how many swaps were applied to {@code resource}: the pointer's version} */
  long applyCount(ResourceId resource) {
    Entry current = store.read(resource, "count " + resource).control().entry(name);
    return current == null ? 0 : current.version();
  }
}
