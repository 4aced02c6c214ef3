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

import dev.fenceline.spi.Capability;
import dev.fenceline.spi.Destination;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.Guarantee;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Receipt;
import dev.fenceline.spi.RegisterOutcome;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.WriteOutcome;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A destination with a journal of the writes it received ({@link #writes()}), so that {@link
 * FencelineAssertions} can say which worker's write it rejected: your own destination wrapped by
 * {@link FencelineLab#record}, or the lab's {@link InMemoryDestination}.
 *
 * <p>Every call goes to the recorded destination unchanged; the wrapper adds nothing to its checks
 * and reports no {@link dev.fenceline.spi.FencingStep}s. To pause a worker inside your
 * destination's atomic step, give your destination the lab's {@link FencelineLab#pausePoints()} as
 * its {@link dev.fenceline.spi.StepListener} when you create it (for example {@code
 * JdbcStore.destination(name, lab.pausePoints())}). The wrapper is a plain {@link Destination}:
 * optional interfaces of yours ({@code SupportsEpochReset}, {@code PointerStore}) are not visible
 * through it; call them on your destination. Thread-safe if the recorded destination is.
 *
 * @param <C> the kind of change the destination applies
 */
public sealed class RecordingDestination<C> implements Destination<C> permits InMemoryDestination {

  private final Destination<C> destination;
  private final List<RecordedWrite<C>> writes = new CopyOnWriteArrayList<>();

  /** Records the writes that go to {@code destination}. */
  public RecordingDestination(Destination<C> destination) {
    this.destination = requireNonNull(destination, "destination is null");
  }

  /** The destination this one records. */
  public Destination<C> recorded() {
    return destination;
  }

  /** Every write received so far, in the order the writes ended. */
  public List<RecordedWrite<C>> writes() {
    return List.copyOf(writes);
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
  public Guarantee guarantee() {
    return destination.guarantee();
  }

  @Override
  public RegisterOutcome register(FencingToken token) {
    return destination.register(token);
  }

  /**
   * The recorded destination's {@link Destination#write}, recorded with its outcome or with what it
   * threw (thrown on).
   */
  @Override
  public WriteOutcome write(FencingToken token, OperationId operation, C change) {
    requireNonNull(token, "token is null");
    requireNonNull(operation, "operation is null");
    WriteOutcome outcome;
    try {
      outcome = destination.write(token, operation, change);
    } catch (RuntimeException | Error e) {
      writes.add(new RecordedWrite<>(token, operation, change, Optional.empty(), Optional.of(e)));
      throw e;
    }
    writes.add(
        new RecordedWrite<>(token, operation, change, Optional.of(outcome), Optional.empty()));
    return outcome;
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
  public String toString() {
    return "RecordingDestination[" + destination + "]";
  }
}
