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
import java.sql.DriverManager;
import java.sql.SQLException;

/**
 * A connection pool of size one, written by hand: {@link Connection#close()} hands the one real
 * connection back instead of closing it, as a real pool does, so whatever state a caller leaves on
 * it (an open transaction, a held lock) is what the next caller gets.
 */
final class SingleConnectionPool extends HandWrittenDataSource implements AutoCloseable {

  private final Connection real;
  private boolean lent;

  SingleConnectionPool(String url) throws SQLException {
    this.real = DriverManager.getConnection(url);
  }

  @Override
  public synchronized Connection getConnection() throws SQLException {
    if (lent) {
      throw new SQLException("the pool's only connection is in use");
    }
    lent = true;
    return Intercepted.wrap(
        Connection.class,
        real,
        (connection, method, args) -> {
          if (method.getName().equals("close")) {
            giveBack();
            return null;
          }
          return Intercepted.invoke(method, connection, args);
        });
  }

  private synchronized void giveBack() {
    lent = false;
  }

  @Override
  public void close() throws SQLException {
    real.close();
  }
}
