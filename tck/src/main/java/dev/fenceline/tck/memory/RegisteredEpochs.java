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

import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.RegisterOutcome;
import dev.fenceline.spi.Registered;
import dev.fenceline.spi.RejectedStale;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.UntrustedTokenException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The registered epoch and issuer of each resource, for the in-memory reference stores that
 * serialize changes with one lock: callers hold that lock around every change; reads need none. The
 * static methods are the rules every reference store applies, the lock-free one too.
 */
final class RegisteredEpochs {

  private final Map<ResourceId, Epoch> epochs = new ConcurrentHashMap<>();
  private final Map<ResourceId, String> issuers = new ConcurrentHashMap<>();

  /**
   * Refuses a token of another issuer than {@code registered}, the one the resource was first
   * registered with (null: none yet).
   */
  static void checkIssuer(String registered, FencingToken token, String action) {
    if (registered != null && !registered.equals(token.issuer())) {
      throw UntrustedTokenException.foreignIssuer(token, registered, action);
    }
  }

  /** Logs an operator's reset of the registered epoch, a warning of {@code store}'s logger. */
  static void logReset(
      Class<?> store, ResourceId resource, Epoch previous, Epoch epoch, String reason) {
    System.getLogger(store.getName())
        .log(
            System.Logger.Level.WARNING,
            "Reset the registered epoch of "
                + resource
                + " from "
                + previous
                + " to "
                + epoch
                + ": "
                + reason);
  }

  /** The registered epoch of {@code resource}, or {@link Epoch#NONE}. */
  Epoch current(ResourceId resource) {
    return epochs.getOrDefault(resource, Epoch.NONE);
  }

  /** Refuses a token of another issuer than the one the resource was first registered with. */
  void bindIssuer(FencingToken token, String action) {
    checkIssuer(issuers.get(token.resource()), token, action);
  }

  /** Registers the token's epoch if it is newer, and binds its issuer if none is bound. */
  void registerNewer(FencingToken token) {
    if (token.epoch().isNewerThan(current(token.resource()))) {
      epochs.put(token.resource(), token.epoch());
    }
    issuers.putIfAbsent(token.resource(), token.issuer());
  }

  /**
   * Registers the token's epoch as {@code Destination.register} does (the caller holds the store's
   * lock): a foreign issuer is refused, an older epoch is {@link RejectedStale}, otherwise the
   * epoch is registered.
   */
  RegisterOutcome register(FencingToken token, String action) {
    bindIssuer(token, action);
    Epoch current = current(token.resource());
    if (token.epoch().isOlderThan(current)) {
      return new RejectedStale(token.resource(), token.epoch(), current);
    }
    registerNewer(token);
    return new Registered(token.resource(), token.epoch(), current);
  }

  /** Sets the registered epoch and clears the issuer binding (an operator's reset). */
  void reset(ResourceId resource, Epoch epoch) {
    epochs.put(resource, epoch);
    issuers.remove(resource);
  }
}
