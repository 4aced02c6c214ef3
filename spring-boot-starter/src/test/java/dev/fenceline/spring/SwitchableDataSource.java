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
package dev.fenceline.spring;

import dev.fenceline.jdbc.HandWrittenDataSource;
import java.sql.Connection;
import java.sql.SQLException;
import org.sqlite.SQLiteDataSource;

/** A SQLite file whose connections the test can refuse, as a database that went away would. */
public final class SwitchableDataSource extends HandWrittenDataSource {

  private final SQLiteDataSource sqlite = new SQLiteDataSource();
  private volatile boolean down;

  public SwitchableDataSource(String url) {
    sqlite.setUrl(url);
  }

  /** From now on every connection is refused ({@code true}), or handed out again. */
  public void down(boolean down) {
    this.down = down;
  }

  @Override
  public Connection getConnection() throws SQLException {
    if (down) {
      throw new SQLException("Connection refused: the database is down (test)", "08001");
    }
    return sqlite.getConnection();
  }
}
