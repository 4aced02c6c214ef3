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
package dev.fenceline.jdbc;

import static java.util.Objects.requireNonNull;

import dev.fenceline.spi.Adapter;
import dev.fenceline.spi.IntentStore;
import dev.fenceline.spi.LeaseIssuer;
import dev.fenceline.spi.PointerStore;
import dev.fenceline.spi.StoreException;
import java.util.List;
import java.util.Optional;

/**
 * The {@link Adapter} a {@code type: jdbc} store of the configuration opens ({@link
 * JdbcAdapterFactory}): the lease issuer, pointer stores and intent stores of one {@link
 * JdbcStore}, which {@link #store()} hands out for what the SPI has no place for, such as {@link
 * JdbcStore#prune()}.
 */
public final class JdbcAdapter implements Adapter {

  private final JdbcStore store;
  private final AutoCloseable pool;

  /**
   * @param store the store
   * @param pool the connection pool the store uses, closed after it; or null
   */
  JdbcAdapter(JdbcStore store, AutoCloseable pool) {
    this.store = requireNonNull(store, "store is null");
    this.pool = pool;
  }

  /** The store itself: for {@link JdbcStore#prune()} and {@link JdbcStore#retention()}. */
  public JdbcStore store() {
    return store;
  }

  @Override
  public Optional<LeaseIssuer> leaseIssuer() {
    return Optional.of(store.leaseIssuer());
  }

  @Override
  public Optional<PointerStore> pointerStore(String name) {
    return Optional.of(store.pointerStore(name));
  }

  @Override
  public Optional<IntentStore> intentStore(String name) {
    return Optional.of(store.intentStore(name));
  }

  /** What opening the store for writing would do to it: {@link JdbcStore#wouldChange()}. */
  @Override
  public List<String> wouldChange() {
    return store.wouldChange();
  }

  /** Closes the store, then its connection pool. */
  @Override
  public void close() {
    store.close();
    if (pool != null) {
      try {
        pool.close();
      } catch (Exception e) {
        throw new StoreException(
            "Cannot close the connection pool of " + store.description() + ": " + e, e);
      }
    }
  }
}
