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

import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.Lease;
import dev.fenceline.spi.LeaseIssuer;
import dev.fenceline.spi.LeaseLostException;
import dev.fenceline.spi.LeaseStatus;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.TokenKeys;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * The reference {@link LeaseIssuer}: one lock around a map. Its "durable" state is a {@link
 * Storage} object that outlives the issuer, so a test can restart the issuer without losing epochs.
 * Not durable across JVMs: for tests and examples only.
 */
public final class InMemoryLeaseIssuer implements LeaseIssuer {

  /** The issuer's state, kept across restarts of the issuer. */
  public static final class Storage {
    private final Map<ResourceId, Row> rows = new HashMap<>();
    private final String id = "memory-" + UUID.randomUUID();
  }

  private static final class Row {
    long epoch;
    String holder;
    Instant expiresAt;
  }

  private final Storage storage;
  private final Clock clock;
  private final TokenKeys keys;

  /** An issuer over {@code storage} that decides expiry with {@code clock}; tokens are unsigned. */
  public InMemoryLeaseIssuer(Storage storage, Clock clock) {
    this(storage, clock, null);
  }

  /**
   * An issuer over {@code storage} that decides expiry with {@code clock} and signs every token
   * with {@code keys} (null: unsigned).
   */
  public InMemoryLeaseIssuer(Storage storage, Clock clock, TokenKeys keys) {
    this.storage = requireNonNull(storage, "storage is null");
    this.clock = requireNonNull(clock, "clock is null");
    this.keys = keys;
  }

  /** The identity of the storage's epoch sequence: the same for every issuer over it. */
  @Override
  public String id() {
    return storage.id;
  }

  @Override
  public Optional<Lease> tryAcquire(ResourceId resource, String holder, Duration ttl) {
    requireNonNull(resource, "resource is null");
    FencingToken.validateHolder(holder);
    requirePositive("acquire " + resource, ttl);
    synchronized (storage) {
      Instant now = clock.instant();
      Row row = storage.rows.computeIfAbsent(resource, id -> new Row());
      if (row.holder != null && row.expiresAt.isAfter(now)) {
        return Optional.empty();
      }
      row.epoch = Math.addExact(row.epoch, 1);
      row.holder = holder;
      row.expiresAt = now.plus(ttl);
      FencingToken token = new FencingToken(storage.id, resource, Epoch.of(row.epoch), holder);
      return Optional.of(new Lease(keys == null ? token : keys.sign(token), row.expiresAt, ttl));
    }
  }

  @Override
  public Lease renew(Lease lease, Duration ttl) {
    requireNonNull(lease, "lease is null");
    requirePositive("renew lease " + lease.token(), ttl);
    synchronized (storage) {
      Instant now = clock.instant();
      Row row = storage.rows.get(lease.resource());
      String reason =
          lease.token().issuer().equals(storage.id)
              ? reasonLost(row, lease, now)
              : "it was issued by " + lease.token().issuer() + ", not by this issuer " + storage.id;
      if (reason != null) {
        throw new LeaseLostException(
            lease.token(), "Cannot renew lease " + lease.token() + ": " + reason);
      }
      row.expiresAt = now.plus(ttl);
      return new Lease(lease.token(), row.expiresAt, ttl);
    }
  }

  @Override
  public boolean release(Lease lease) {
    requireNonNull(lease, "lease is null");
    synchronized (storage) {
      Row row = storage.rows.get(lease.resource());
      if (row == null
          || !lease.token().issuer().equals(storage.id)
          || row.epoch != lease.epoch().value()
          || !lease.token().holder().equals(row.holder)) {
        return false;
      }
      row.holder = null;
      row.expiresAt = null;
      return true;
    }
  }

  @Override
  public LeaseStatus status(ResourceId resource) {
    requireNonNull(resource, "resource is null");
    synchronized (storage) {
      Row row = storage.rows.get(resource);
      if (row == null) {
        return new LeaseStatus(resource, Epoch.NONE, Optional.empty(), Optional.empty(), false);
      }
      boolean held = row.holder != null && row.expiresAt.isAfter(clock.instant());
      return new LeaseStatus(
          resource,
          Epoch.of(row.epoch),
          Optional.ofNullable(row.holder),
          Optional.ofNullable(row.expiresAt),
          held);
    }
  }

  private static String reasonLost(Row row, Lease lease, Instant now) {
    if (row == null || row.epoch < lease.epoch().value()) {
      return "the issuer never handed out epoch " + lease.epoch();
    }
    if (row.epoch > lease.epoch().value()) {
      return "epoch "
          + row.epoch
          + " was issued since"
          + (row.holder == null ? "" : " (to " + row.holder + ")");
    }
    if (row.holder == null) {
      return "it was released";
    }
    if (!row.holder.equals(lease.token().holder())) {
      return "epoch "
          + lease.epoch()
          + " is held by "
          + row.holder
          + ", not by "
          + lease.token().holder();
    }
    if (!row.expiresAt.isAfter(now)) {
      return "it expired at " + row.expiresAt + " by the issuer's clock";
    }
    return null;
  }

  private static void requirePositive(String action, Duration ttl) {
    requireNonNull(ttl, "ttl is null");
    if (ttl.isNegative() || ttl.isZero()) {
      throw new IllegalArgumentException(
          "Cannot " + action + " with ttl " + ttl + ": it must be positive (e.g. PT30S)");
    }
  }
}
