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

import java.sql.Connection;
import java.sql.SQLException;

/**
 * A real database for the JDBC adapter's tests: SQLite in a temporary file, or embedded PostgreSQL.
 */
public interface TestDatabase {

  /** Opens a new store on the database. */
  default JdbcStore openStore() {
    return storeBuilder().build();
  }

  /** A store builder with this database's connection settings. */
  JdbcStore.Builder storeBuilder();

  /** A raw connection for checks outside Fenceline. */
  Connection connect() throws SQLException;

  /** Stops the database and starts it again on the same data. */
  void restart();
}
