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
package dev.fenceline.spi;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.time.Instant;

/**
 * A fencing token plus the expiry the issuer decided by its own clock. The expiry is informational:
 * a worker must not compare it with its own wall clock (R9). Workers bound their own belief with
 * {@link System#nanoTime()} from the moment they sent the request (see the core module's lease
 * keeper), and destinations decide with the epoch.
 *
 * @param token the fencing token
 * @param expiresAt when the issuer will consider the lease expired, by the issuer's clock
 * @param ttl the lease length the issuer granted
 */
public record Lease(FencingToken token, Instant expiresAt, Duration ttl) {

  /**
   * Validates the lease.
   *
   * @param token the fencing token
   * @param expiresAt when the lease expires, by the issuer's clock
   * @param ttl the time to live
   */
  public Lease {
    requireNonNull(token, "token is null");
    requireNonNull(expiresAt, "expiresAt is null");
    requireNonNull(ttl, "ttl is null");
    if (ttl.isNegative() || ttl.isZero()) {
      throw new IllegalArgumentException(
          "Cannot create a lease for " + token.resource() + ": ttl " + ttl + " is not positive");
    }
  }

  /** {@return the leased resource} */
  public ResourceId resource() {
    return token.resource();
  }

  /** {@return the epoch of the lease} */
  public Epoch epoch() {
    return token.epoch();
  }
}
