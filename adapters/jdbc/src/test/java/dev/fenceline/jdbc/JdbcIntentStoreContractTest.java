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

import dev.fenceline.spi.IntentStore;
import dev.fenceline.spi.LeaseIssuer;
import dev.fenceline.spi.StepListener;
import dev.fenceline.spi.TokenKeys;
import dev.fenceline.tck.ConcurrencyControl;
import dev.fenceline.tck.IntentStoreContract;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;

/** Runs the intent-store suite; subclasses pick the database. */
abstract class JdbcIntentStoreContractTest extends IntentStoreContract {

  private final OpenStore store = new OpenStore(this::database);

  abstract TestDatabase database();

  @Override
  protected IntentStore intentStore(String name, StepListener steps, Optional<TokenKeys> keys) {
    return store.get(keys).intentStore(name, steps);
  }

  @Override
  protected EpochRegistrar sameStoreRegistrar(String name) {
    // A destination of the same database: it registers epochs in the same control rows.
    return store.get().destination(name)::register;
  }

  @Override
  protected ConcurrencyControl concurrencyControl() {
    // One transaction holding the control row (PostgreSQL) or the database write lock (SQLite).
    return ConcurrencyControl.LOCKING;
  }

  @Override
  protected LeaseIssuer issuer() {
    return store.get().leaseIssuer();
  }

  @Override
  protected void restartStore() {
    store.restartDatabase();
  }

  @AfterEach
  void closeStore() {
    store.close();
  }
}
