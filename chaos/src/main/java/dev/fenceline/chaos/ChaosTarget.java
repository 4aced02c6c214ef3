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
package dev.fenceline.chaos;

import dev.fenceline.core.Fenceline;
import dev.fenceline.spi.Destination;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.LeaseIssuer;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.WriteOutcome;
import java.util.Optional;

/**
 * What the chaos workers publish to: an issuer and a destination, opened in every worker process
 * (and once in the driver, to read the final state) by a {@link ChaosTargetFactory}.
 */
public interface ChaosTarget extends AutoCloseable {

  /** {@return the issuer that hands out the leases} */
  LeaseIssuer issuer();

  /** {@return the destination under test} */
  Destination<?> destination();

  /**
   * Publishes {@code payload} under {@code operation} with the token, through {@code fenceline} (so
   * the facade's checks run as in an application).
   *
   * @return the destination's outcome
   * @throws dev.fenceline.spi.StoreException as {@link Destination#write}
   */
  WriteOutcome publish(
      Fenceline fenceline, FencingToken token, OperationId operation, byte[] payload);

  /** {@return true if {@link #read} is supported} */
  boolean canRead();

  /**
   * Reads the currently published payload, verified (a staged destination checks size and SHA-256).
   *
   * @return the payload, or empty if nothing is published yet
   * @throws UnsupportedOperationException if {@link #canRead()} is false
   * @throws dev.fenceline.spi.StoreException if the store failed
   */
  Optional<byte[]> read(ResourceId resource);

  /** Closes the stores; never throws a checked exception. */
  @Override
  void close();
}
