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

import java.time.Instant;
import java.util.Optional;

/**
 * What an issuer knows about a resource right now, by the issuer's clock.
 *
 * @param resource the resource
 * @param epoch the newest epoch handed out ({@link Epoch#NONE} if never acquired)
 * @param holder the holder of the newest lease, if it was not released
 * @param expiresAt the expiry of the newest lease, by the issuer's clock, if it was not released
 * @param held true if the newest lease is neither released nor expired by the issuer's clock
 */
public record LeaseStatus(
    ResourceId resource,
    Epoch epoch,
    Optional<String> holder,
    Optional<Instant> expiresAt,
    boolean held) {

  /**
   * Validates the status.
   *
   * @param resource the resource
   * @param epoch the epoch
   * @param holder the holder the lease was granted to
   * @param expiresAt when the lease expires, by the issuer's clock
   * @param held whether a lease is held
   */
  public LeaseStatus {
    requireNonNull(resource, "resource is null");
    requireNonNull(epoch, "epoch is null");
    requireNonNull(holder, "holder is null");
    requireNonNull(expiresAt, "expiresAt is null");
  }
}
