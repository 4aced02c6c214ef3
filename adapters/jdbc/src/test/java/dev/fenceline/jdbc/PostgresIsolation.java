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
import java.sql.Statement;

/**
 * Databases on the shared PostgreSQL server whose sessions start at another isolation level than
 * READ COMMITTED ({@code ALTER DATABASE ... SET default_transaction_isolation}), as some sites
 * configure: Fenceline's steps must keep their answers there too.
 */
final class PostgresIsolation {

  private static TestDatabase repeatableRead;
  private static TestDatabase serializable;

  private PostgresIsolation() {}

  static synchronized TestDatabase repeatableRead() {
    if (repeatableRead == null) {
      repeatableRead = database("repeatable read");
    }
    return repeatableRead;
  }

  static synchronized TestDatabase serializable() {
    if (serializable == null) {
      serializable = database("serializable");
    }
    return serializable;
  }

  private static TestDatabase database(String level) {
    String name = "isolation_" + Long.toHexString(System.nanoTime());
    TestDatabase database = PostgresDatabase.shared().newDatabase(name);
    try (Connection connection = PostgresDatabase.shared().connect();
        Statement statement = connection.createStatement()) {
      statement.execute(
          "ALTER DATABASE " + name + " SET default_transaction_isolation = '" + level + "'");
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
    return database;
  }
}
