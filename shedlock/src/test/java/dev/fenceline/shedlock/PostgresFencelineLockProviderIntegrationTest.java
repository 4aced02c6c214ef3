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

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.fenceline.jdbc.JdbcStore;
import dev.fenceline.jdbc.PostgresDatabase;
import dev.fenceline.spi.LeaseIssuer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * ShedLock's own provider suite, unchanged, on a real PostgreSQL server (the JDBC adapter's
 * embedded fixture, durable settings) through a connection pool, as an application's {@code
 * DataSource} would be (without one, each step opens a server process: the fuzz test took 100 s).
 */
class PostgresFencelineLockProviderIntegrationTest extends FencelineLockProviderSuite {

  private static HikariDataSource pool;
  private static JdbcStore store;

  @BeforeAll
  static void openStore() {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(PostgresDatabase.shared().url());
    config.setMaximumPoolSize(10);
    pool = new HikariDataSource(config);
    store = JdbcStore.builder().dataSource(pool, "embedded PostgreSQL").build();
  }

  @AfterAll
  static void closeStore() {
    try {
      store.close();
    } finally {
      pool.close();
    }
  }

  @Override
  LeaseIssuer issuer() {
    return store.leaseIssuer();
  }
}
