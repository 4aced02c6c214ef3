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
package dev.fenceline.jdbc;

import dev.fenceline.spi.Capability;
import dev.fenceline.spi.Destination;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Receipt;
import dev.fenceline.spi.RegisterOutcome;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.SupportsEpochReset;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

/**
 * What the JDBC destinations share: a name that scopes their operation records, capabilities,
 * registration, look-ups and the epoch reset via the control rows.
 */
abstract class FencedJdbcDestination<C> implements Destination<C>, SupportsEpochReset {

  private static final Set<Capability> CAPABILITIES =
      Set.copyOf(
          EnumSet.of(
              Capability.NATIVE_EPOCH_CHECK,
              Capability.OPERATION_RECORD,
              Capability.RESULT_LOOKUP));

  final FencedWrite fencedWrite;

  FencedJdbcDestination(FencedWrite fencedWrite) {
    this.fencedWrite = fencedWrite;
  }

  @Override
  public final String name() {
    return fencedWrite.destination();
  }

  /**
   * Sets the registered epoch of {@code resource} back (see {@link SupportsEpochReset}). The
   * control row is the store's, shared by every destination and pointer store on this database.
   */
  @Override
  public final Epoch resetRegisteredEpoch(ResourceId resource, Epoch epoch, String reason) {
    return fencedWrite.resetRegisteredEpoch(resource, epoch, reason);
  }

  @Override
  public final Set<Capability> capabilities() {
    return CAPABILITIES;
  }

  @Override
  public final RegisterOutcome register(FencingToken token) {
    return fencedWrite.register(token);
  }

  @Override
  public final Optional<Receipt> lookup(ResourceId resource, OperationId operation) {
    return fencedWrite.lookup(resource, operation);
  }

  @Override
  public final Epoch currentEpoch(ResourceId resource) {
    return fencedWrite.currentEpoch(resource);
  }
}
