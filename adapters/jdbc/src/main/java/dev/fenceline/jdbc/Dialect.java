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

import dev.fenceline.spi.ConfigurationException;
import java.sql.Connection;
import java.sql.SQLException;

/** The SQL that differs between the supported databases. */
enum Dialect {
  SQLITE("CAST(unixepoch('subsec') * 1000 AS BIGINT)", ""),
  POSTGRESQL("CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 AS BIGINT)", " FOR UPDATE");

  /** The database's own clock in milliseconds since 1970: the issuer's clock (R9). */
  final String nowMillis;

  /**
   * Appended to the SELECT that reads a control row inside a write transaction. PostgreSQL locks
   * the row; SQLite needs nothing because BEGIN IMMEDIATE already holds the database's write lock.
   */
  final String lockRow;

  Dialect(String nowMillis, String lockRow) {
    this.nowMillis = nowMillis;
    this.lockRow = lockRow;
  }

  static Dialect of(Connection connection, String store) throws SQLException {
    String product = connection.getMetaData().getDatabaseProductName();
    if ("SQLite".equalsIgnoreCase(product)) {
      return SQLITE;
    }
    if ("PostgreSQL".equalsIgnoreCase(product)) {
      return POSTGRESQL;
    }
    throw new ConfigurationException(
        "Cannot use "
            + store
            + ": database product \""
            + product
            + "\" is not supported (use SQLite or PostgreSQL)");
  }
}
