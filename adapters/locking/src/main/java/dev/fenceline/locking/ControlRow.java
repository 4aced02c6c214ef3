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
package dev.fenceline.locking;

import static java.util.Objects.requireNonNull;

import dev.fenceline.spi.Epoch;
import java.util.Optional;

/**
 * A resource's control row: the epoch registered for the resource and the issuer the resource is
 * bound to. One row per resource, shared by every destination of the store (one owner at a time per
 * resource); {@link LockingSteps} locks it at the start of every fenced step.
 *
 * @param epoch the registered epoch, {@link Epoch#NONE} if nothing was registered
 * @param issuer the issuer of the first token registered (or the first after an epoch reset); empty
 *     until then
 */
public record ControlRow(Epoch epoch, Optional<String> issuer) {

  /** The row of a resource nothing was registered for: a row created by a lock starts so. */
  public static final ControlRow NONE = new ControlRow(Epoch.NONE, Optional.empty());

  /** Validates the row. */
  public ControlRow {
    requireNonNull(epoch, "epoch is null");
    requireNonNull(issuer, "issuer is null");
  }

  /**
   * The row as a store reads it from two columns.
   *
   * @param issuer the issuer column, or null if it is empty
   */
  public static ControlRow of(Epoch epoch, String issuer) {
    return new ControlRow(epoch, Optional.ofNullable(issuer));
  }
}
