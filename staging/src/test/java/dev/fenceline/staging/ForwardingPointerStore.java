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
package dev.fenceline.staging;

import static java.util.Objects.requireNonNull;

import dev.fenceline.spi.Capability;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Pointer;
import dev.fenceline.spi.PointerState;
import dev.fenceline.spi.PointerStore;
import dev.fenceline.spi.Receipt;
import dev.fenceline.spi.RegisterOutcome;
import dev.fenceline.spi.RequestFingerprint;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.WriteOutcome;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** A pointer store that forwards every call; tests override the calls they interfere with. */
class ForwardingPointerStore implements PointerStore {

  private final PointerStore delegate;

  ForwardingPointerStore(PointerStore delegate) {
    this.delegate = requireNonNull(delegate, "delegate is null");
  }

  @Override
  public String name() {
    return delegate.name();
  }

  @Override
  public String storeId() {
    return delegate.storeId();
  }

  @Override
  public Set<Capability> capabilities() {
    return delegate.capabilities();
  }

  @Override
  public RegisterOutcome register(FencingToken token) {
    return delegate.register(token);
  }

  @Override
  public WriteOutcome write(
      FencingToken token, OperationId operation, Pointer change, RequestFingerprint fingerprint) {
    return delegate.write(token, operation, change, fingerprint);
  }

  @Override
  public Optional<Receipt> lookup(ResourceId resource, OperationId operation) {
    return delegate.lookup(resource, operation);
  }

  @Override
  public Epoch currentEpoch(ResourceId resource) {
    return delegate.currentEpoch(resource);
  }

  @Override
  public Optional<PointerState> current(ResourceId resource) {
    return delegate.current(resource);
  }

  @Override
  public List<PointerState> history(ResourceId resource, int limit) {
    return delegate.history(resource, limit);
  }
}
