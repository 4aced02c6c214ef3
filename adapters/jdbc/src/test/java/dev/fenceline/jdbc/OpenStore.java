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

import dev.fenceline.spi.TokenKeys;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The store a test works with: opened on first use, reopened after a restart of the database,
 * closed after the test. Tests keep one in a field and close it in an {@code @AfterEach}.
 *
 * <p>Thread-safe: racing workers that ask first at once share one store (each opening its own made
 * SQLite's switch to WAL fail with SQLITE_BUSY, and leaked the extra stores).
 */
public final class OpenStore implements AutoCloseable {

  private final Supplier<TestDatabase> database;
  private JdbcStore store;
  private JdbcStore signed;

  /** Opens stores on the database {@code database} supplies (looked up on first use). */
  public OpenStore(Supplier<TestDatabase> database) {
    this.database = requireNonNull(database, "database is null");
  }

  /** The open store. */
  public synchronized JdbcStore get() {
    if (store == null) {
      store = database.get().openStore();
    }
    return store;
  }

  /**
   * The open store, or with {@code keys} a second store on the same database that signs and checks
   * tokens with them (opened on first use, closed with this one).
   */
  public synchronized JdbcStore get(Optional<TokenKeys> keys) {
    if (keys.isEmpty()) {
      return get();
    }
    if (signed == null) {
      signed = database.get().storeBuilder().tokenKeys(keys.get()).build();
    }
    return signed;
  }

  /** Closes the store, restarts the database on the same data; the next {@link #get} reopens. */
  public synchronized void restartDatabase() {
    close();
    database.get().restart();
  }

  @Override
  public synchronized void close() {
    if (store != null) {
      store.close();
      store = null;
    }
    if (signed != null) {
      signed.close();
      signed = null;
    }
  }
}
