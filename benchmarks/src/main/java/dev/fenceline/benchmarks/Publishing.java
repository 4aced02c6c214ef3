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
package dev.fenceline.benchmarks;

import dev.fenceline.benchmarks.Row.Operation;
import dev.fenceline.spi.Applied;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.Lease;
import dev.fenceline.spi.LeaseIssuer;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Pointer;
import dev.fenceline.spi.PointerStore;
import dev.fenceline.spi.RegisterOutcome;
import dev.fenceline.spi.Registered;
import dev.fenceline.spi.RequestFingerprint;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.WriteOutcome;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * The operations every store's table has, on the SPI only ({@link LeaseIssuer}, {@link
 * PointerStore}): a pointer publish under a lease held all along, and a lease acquire + release;
 * and the names and values the rows use.
 */
final class Publishing {

  /** A lease held for a whole group by rows that only write (pointer publish, fenced write). */
  static final Duration LONG_LEASE = Duration.ofHours(1);

  /** The lease of the acquire rows, and ShedLock's lockAtMostFor. */
  static final Duration LEASE_TTL = Duration.ofSeconds(30);

  private Publishing() {}

  /** The resource of one row's worker thread in a group, e.g. {@code bench/r1a2b-g8/swap-3}. */
  static ResourceId resource(String prefix, String row, int thread) {
    return ResourceId.of("bench/" + prefix + "/" + row + "-" + thread);
  }

  /** What the n-th pointer publish points to, {@code value-<n>}. */
  static String target(long n) {
    return "value-" + n;
  }

  /** The bytes of {@link #target(long)}: what the raw peers write (the same bytes). */
  static byte[] value(long n) {
    return target(n).getBytes(StandardCharsets.UTF_8);
  }

  /** A new operation ID per publish. */
  static OperationId operation(ResourceId resource, long n) {
    return OperationId.of(resource.value().replace('/', '.') + "-" + n);
  }

  /**
   * A pointer swap to {@code value-<n>} with a new operation ID each time, under a lease acquired
   * and registered when the operation is opened and released when it is closed.
   */
  static Operation pointerPublish(
      LeaseIssuer issuer, PointerStore pointers, String holder, ResourceId resource) {
    Lease lease = acquire(issuer, resource, holder, LONG_LEASE);
    FencingToken token = lease.token();
    expectRegistered(pointers.register(token), resource);
    long[] count = {0};
    return new Operation() {
      @Override
      public void run() {
        long n = ++count[0];
        Pointer pointer = Pointer.to(target(n));
        expectApplied(
            pointers.write(token, operation(resource, n), pointer, RequestFingerprint.of(pointer)));
      }

      @Override
      public void close() {
        issuer.release(lease);
      }
    };
  }

  /** {@code tryAcquire(resource, holder, 30 s)} + {@code release(lease)} on the issuer. */
  static Operation acquireRelease(LeaseIssuer issuer, String holder, ResourceId resource) {
    return () -> {
      Lease lease = acquire(issuer, resource, holder, LEASE_TTL);
      if (!issuer.release(lease)) {
        throw new IllegalStateException("Cannot release " + lease.token() + ": it was not current");
      }
    };
  }

  static Lease acquire(LeaseIssuer issuer, ResourceId resource, String holder, Duration ttl) {
    return issuer
        .tryAcquire(resource, holder, ttl)
        .orElseThrow(
            () ->
                new IllegalStateException(
                    "Cannot acquire "
                        + resource
                        + ": held by someone else, but only "
                        + holder
                        + " uses it"));
  }

  static void expectRegistered(RegisterOutcome outcome, ResourceId resource) {
    if (!(outcome instanceof Registered)) {
      throw new IllegalStateException("Cannot register at " + resource + ": " + outcome);
    }
  }

  static void expectApplied(WriteOutcome outcome) {
    if (!(outcome instanceof Applied)) {
      throw new IllegalStateException("Expected Applied, got " + outcome);
    }
  }
}
