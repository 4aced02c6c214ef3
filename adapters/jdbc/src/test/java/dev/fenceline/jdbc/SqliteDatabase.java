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

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;

/** A SQLite file; "restarting" it means every store opened afterwards reopens the file. */
public final class SqliteDatabase implements TestDatabase {

  private final Path file;

  public SqliteDatabase(Path directory) {
    this.file = directory.resolve("fenceline.db");
  }

  public String url() {
    return "jdbc:sqlite:" + file;
  }

  @Override
  public JdbcStore.Builder storeBuilder() {
    return JdbcStore.builder().url(url());
  }

  @Override
  public Connection connect() throws SQLException {
    return DriverManager.getConnection(url());
  }

  @Override
  public void restart() {
    // Stores open a connection per call; a new store reopens the file from disk.
  }
}
