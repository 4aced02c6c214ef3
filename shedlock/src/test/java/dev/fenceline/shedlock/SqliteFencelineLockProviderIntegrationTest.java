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
package dev.fenceline.shedlock;

import dev.fenceline.jdbc.JdbcStore;
import dev.fenceline.spi.LeaseIssuer;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/** ShedLock's own provider suite, unchanged, on a SQLite file. */
class SqliteFencelineLockProviderIntegrationTest extends FencelineLockProviderSuite {

  @TempDir static Path directory;
  private static JdbcStore store;

  @BeforeAll
  static void openStore() {
    store = JdbcStore.sqlite(directory.resolve("shedlock.db"));
  }

  @AfterAll
  static void closeStore() {
    store.close();
  }

  @Override
  LeaseIssuer issuer() {
    return store.leaseIssuer();
  }
}
