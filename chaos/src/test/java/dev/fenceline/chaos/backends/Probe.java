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
package dev.fenceline.chaos.backends;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fenceline.config.ConfiguredDestination;
import dev.fenceline.config.FencelineConfig;
import dev.fenceline.core.Fenceline;
import dev.fenceline.core.HeldLease;
import dev.fenceline.spi.AlreadyApplied;
import dev.fenceline.spi.Applied;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Receipt;
import dev.fenceline.spi.Registered;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.WriteOutcome;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What the backend tests do through a loaded YAML file, as a chaos worker would: acquire, register,
 * publish, release; and after a fault, check that the state is still there.
 */
final class Probe {

  /** What one owner published: its epoch and the receipt of its operation. */
  record Published(ResourceId resource, OperationId operation, Epoch epoch, Receipt receipt) {}

  private final FencelineConfig config;
  private final Path scratch;

  Probe(FencelineConfig config, Path scratch) {
    this.config = config;
    this.scratch = scratch;
  }

  /** Acquires {@code resource}, registers, publishes {@code operation} (Applied), releases. */
  Published publishNew(String destination, String resource, String operation) {
    ResourceId r = ResourceId.of(resource);
    OperationId o = OperationId.of(operation);
    Fenceline fenceline = config.fenceline();
    ConfiguredDestination d = config.destination(destination);
    try (HeldLease lease =
        fenceline.tryAcquire(r).orElseThrow(() -> new AssertionError(r + " is held already"))) {
      assertThat(fenceline.register(lease, d.destination())).isInstanceOf(Registered.class);
      WriteOutcome outcome = d.publish(lease.token(), o, payload(o));
      assertThat(outcome).as("first publish of %s", o).isInstanceOf(Applied.class);
      return new Published(r, o, lease.token().epoch(), ((Applied) outcome).receipt());
    }
  }

  /**
   * Checks that {@code before} survived: the destination still has its epoch registered and its
   * receipt recorded; then a new owner gets a newer epoch (the issuer kept its sequence),
   * registers, is answered AlreadyApplied with the same receipt for the old operation, and
   * publishes a new one.
   *
   * @return the new owner's publish
   */
  Published assertSurvivedAndPublishAgain(String destination, Published before, String next) {
    ConfiguredDestination d = config.destination(destination);
    assertThat(d.destination().currentEpoch(before.resource()))
        .as("epoch registered at %s", destination)
        .isEqualTo(before.epoch());
    assertThat(d.destination().lookup(before.resource(), before.operation()))
        .as("receipt of %s", before.operation())
        .contains(before.receipt());
    Fenceline fenceline = config.fenceline();
    try (HeldLease lease =
        fenceline
            .tryAcquire(before.resource())
            .orElseThrow(() -> new AssertionError(before.resource() + " is held already"))) {
      assertThat(lease.token().epoch()).isGreaterThan(before.epoch());
      assertThat(fenceline.register(lease, d.destination())).isInstanceOf(Registered.class);
      WriteOutcome again =
          d.publish(lease.token(), before.operation(), payload(before.operation()));
      assertThat(again).isEqualTo(new AlreadyApplied(before.receipt()));
      OperationId o = OperationId.of(next);
      WriteOutcome outcome = d.publish(lease.token(), o, payload(o));
      assertThat(outcome).as("publish of %s after the fault", o).isInstanceOf(Applied.class);
      return new Published(
          before.resource(), o, lease.token().epoch(), ((Applied) outcome).receipt());
    }
  }

  /** The chaos workers' payload: {@code op=<operation>\n}, in a file. */
  Path payload(OperationId operation) {
    try {
      Files.createDirectories(scratch);
      Path file = scratch.resolve(operation.value() + ".txt");
      Files.writeString(file, "op=" + operation.value() + "\n", StandardCharsets.UTF_8);
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Runs {@code call} and returns how long it took, in milliseconds, and what it threw. */
  static Timed time(Runnable call) {
    long start = System.nanoTime();
    RuntimeException thrown = null;
    try {
      call.run();
    } catch (RuntimeException e) {
      thrown = e;
    }
    return new Timed((System.nanoTime() - start) / 1_000_000, thrown);
  }

  /**
   * Repeats {@code call} until it returns without a {@link dev.fenceline.spi.StoreException} (a
   * client's connection pool reconnects on its own schedule after the store came back), at most for
   * {@code boundMillis}.
   *
   * @return how long it took until the call succeeded, in milliseconds
   * @throws AssertionError with the last failure if it never succeeded within the bound
   */
  static long awaitRecovery(Runnable call, long boundMillis) {
    long start = System.nanoTime();
    while (true) {
      try {
        call.run();
        return (System.nanoTime() - start) / 1_000_000;
      } catch (dev.fenceline.spi.StoreException e) {
        long elapsed = (System.nanoTime() - start) / 1_000_000;
        if (elapsed > boundMillis) {
          throw new AssertionError("still failing " + elapsed + " ms after heal", e);
        }
        try {
          Thread.sleep(50); // polling the store's recovery, bounded above
        } catch (InterruptedException interrupted) {
          Thread.currentThread().interrupt();
          throw new AssertionError(interrupted);
        }
      }
    }
  }

  /** A timed call: its duration and what it threw (null: it returned). */
  record Timed(long millis, RuntimeException thrown) {}
}
