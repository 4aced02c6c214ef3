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
package dev.fenceline.tck.memory;

import static java.util.Objects.requireNonNull;

import dev.fenceline.spi.Destination;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Receipt;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StepListener;
import dev.fenceline.spi.TokenKeys;
import java.time.Clock;
import java.util.Map;

/**
 * What an in-memory reference store is configured with, checked once for all of them.
 *
 * @param name the store's name (a valid destination name)
 * @param steps where the store reports the steps of each change
 * @param clock the time receipts record
 * @param keys the keys tokens must be signed with, or null to take unsigned tokens
 */
record StoreSettings(String name, StepListener steps, Clock clock, TokenKeys keys) {

  StoreSettings {
    name = Destination.validateName(name);
    requireNonNull(steps, "steps is null");
    requireNonNull(clock, "clock is null");
  }

  /** Refuses a token not signed with {@link #keys}, if keys are configured. */
  void trust(FencingToken token, String action) {
    if (keys != null) {
      keys.verify(token, action);
    }
  }

  /** The receipt of {@code operation} applied now with {@code token}'s epoch at this store. */
  Receipt receipt(FencingToken token, OperationId operation, Map<String, String> attributes) {
    return receipt(token.resource(), operation, token.epoch(), attributes);
  }

  /** The receipt of {@code operation} of {@code resource} applied under {@code epoch}, now. */
  Receipt receipt(
      ResourceId resource, OperationId operation, Epoch epoch, Map<String, String> attributes) {
    return new Receipt(name, resource, operation, epoch, clock.instant(), attributes);
  }
}
