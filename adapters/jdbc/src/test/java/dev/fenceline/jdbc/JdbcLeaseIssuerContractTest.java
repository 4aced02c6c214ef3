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

import dev.fenceline.spi.LeaseIssuer;
import dev.fenceline.tck.LeaseIssuerContract;
import org.junit.jupiter.api.AfterEach;

/** Runs the issuer suite on one database; subclasses pick SQLite or PostgreSQL. */
abstract class JdbcLeaseIssuerContractTest extends LeaseIssuerContract {

  private final OpenStore store = new OpenStore(this::database);

  abstract TestDatabase database();

  private JdbcStore store() {
    return store.get();
  }

  @Override
  protected LeaseIssuer issuer() {
    return store().leaseIssuer();
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
