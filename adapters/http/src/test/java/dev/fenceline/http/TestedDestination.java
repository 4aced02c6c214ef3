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
package dev.fenceline.http;

import static java.util.Objects.requireNonNull;

import dev.fenceline.spi.Capability;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Receipt;
import dev.fenceline.spi.RegisterOutcome;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StoreException;
import dev.fenceline.spi.SupportsEpochReset;
import dev.fenceline.spi.WriteOutcome;
import java.util.Optional;
import java.util.Set;

/**
 * A {@link NativeHttpDestination} as the destination suite sees it. It changes no answer; it only
 * bridges two things the suite expects of an in-process destination across the HTTP hop: step
 * listeners see the caller's operation ID where the API sees the idempotency key, and a worker
 * "crash" the suite's {@code PausePoints} simulated inside the API (which the destination saw as a
 * 500, outcome unknown) is rethrown as that crash, with the destination's exception suppressed.
 */
final class TestedDestination
    implements dev.fenceline.spi.Destination<ApiRequest>, SupportsEpochReset {

  private final FakeFencedApi api;
  private final FakeFencedApi.Profile profile;
  private final NativeHttpDestination destination;

  TestedDestination(
      FakeFencedApi api, FakeFencedApi.Profile profile, NativeHttpDestination destination) {
    this.api = requireNonNull(api, "api");
    this.profile = requireNonNull(profile, "profile");
    this.destination = requireNonNull(destination, "destination");
  }

  @Override
  public String name() {
    return destination.name();
  }

  @Override
  public Set<Capability> capabilities() {
    return destination.capabilities();
  }

  @Override
  public RegisterOutcome register(FencingToken token) {
    return destination.register(token);
  }

  @Override
  public WriteOutcome write(FencingToken token, OperationId operation, ApiRequest change) {
    api.nameOperation(IdempotencyKeys.of(name(), token.resource(), operation), operation);
    try {
      return destination.write(token, operation, change);
    } catch (StoreException e) {
      Optional<RuntimeException> crash = profile.takeCrash();
      if (crash.isPresent() && e.outcomeUnknown()) {
        crash.get().addSuppressed(e);
        throw crash.get();
      }
      throw e;
    }
  }

  @Override
  public Optional<Receipt> lookup(ResourceId resource, OperationId operation) {
    return destination.lookup(resource, operation);
  }

  @Override
  public Epoch currentEpoch(ResourceId resource) {
    return destination.currentEpoch(resource);
  }

  @Override
  public Epoch resetRegisteredEpoch(ResourceId resource, Epoch epoch, String reason) {
    return destination.resetRegisteredEpoch(resource, epoch, reason);
  }
}
