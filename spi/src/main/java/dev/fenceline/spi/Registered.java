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

/**
 * The epoch is registered: it was newer than or equal to the registered one. From now on every
 * write with an older epoch is rejected.
 *
 * @param resource the resource
 * @param epoch the registered epoch
 * @param previous the epoch registered before this call ({@link Epoch#NONE} if none)
 */
public record Registered(ResourceId resource, Epoch epoch, Epoch previous)
    implements RegisterOutcome {

  /**
   * Validates the outcome.
   *
   * @param resource the resource
   * @param epoch the epoch
   * @param previous the previous value
   */
  public Registered {
    requireNonNull(resource, "resource is null");
    requireNonNull(epoch, "epoch is null");
    requireNonNull(previous, "previous is null");
  }
}
