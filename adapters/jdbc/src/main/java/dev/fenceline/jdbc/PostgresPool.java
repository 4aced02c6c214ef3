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

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.time.Duration;
import java.util.Optional;

/**
 * A HikariCP pool for a PostgreSQL URL, used by {@link JdbcAdapterFactory} when HikariCP is on the
 * class path (it is an optional dependency). Only this class names HikariCP, so the factory works
 * without it for SQLite.
 */
final class PostgresPool {

  /**
   * How long HikariCP may take to check that a pooled connection is alive before handing it out
   * (HikariCP's own default is 5 s). A dead connection found so costs this on top of the login
   * timeout, so it is kept short.
   */
  static final Duration DEFAULT_VALIDATION_TIMEOUT = Duration.ofSeconds(2);

  private PostgresPool() {}

  static boolean available() {
    try {
      Class.forName(
          "com.zaxxer.hikari.HikariDataSource", false, PostgresPool.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }

  /**
   * Opens a pool of at most {@code size} connections, keeping at least one. The connect, login and
   * socket timeouts go to pgjdbc as connection properties (a value in the URL still wins), and the
   * store's lock and statement timeouts become the sessions' own ({@link JdbcUrl#sessionOptions},
   * unless the URL sets {@code options}), so one-statement steps need no settings of their own; the
   * login timeout also bounds the wait for a free connection, and a pooled connection is checked
   * within {@link #DEFAULT_VALIDATION_TIMEOUT} before it is handed out. Nothing is connected here:
   * the store connects (and reports failures) when it opens.
   */
  static HikariDataSource open(
      String instanceName,
      String url,
      Optional<String> user,
      Optional<String> password,
      int size,
      Duration connectTimeout,
      Duration loginTimeout,
      Duration socketTimeout,
      Duration lockTimeout,
      Duration statementTimeout) {
    HikariConfig config = new HikariConfig();
    config.setPoolName("fenceline-" + instanceName);
    config.setJdbcUrl(url);
    user.ifPresent(config::setUsername);
    password.ifPresent(config::setPassword);
    config.setMaximumPoolSize(size);
    config.setMinimumIdle(1);
    long connectionTimeout = Math.max(250, loginTimeout.toMillis());
    config.setConnectionTimeout(connectionTimeout);
    // HikariCP requires it below the connection timeout (and at least 250 ms).
    config.setValidationTimeout(
        Math.max(250, Math.min(DEFAULT_VALIDATION_TIMEOUT.toMillis(), connectionTimeout - 1)));
    config.setInitializationFailTimeout(-1);
    config.addDataSourceProperty("connectTimeout", seconds(connectTimeout));
    config.addDataSourceProperty("loginTimeout", seconds(loginTimeout));
    config.addDataSourceProperty("socketTimeout", seconds(socketTimeout));
    JdbcUrl parsed = new JdbcUrl(url);
    if (!parsed.setsParameter("options")) {
      config.addDataSourceProperty(
          "options", JdbcUrl.sessionOptions(lockTimeout, statementTimeout));
    }
    return new HikariDataSource(config);
  }

  /** pgjdbc takes whole seconds; rounded up so a short timeout never becomes 0 (= none). */
  private static String seconds(Duration timeout) {
    long seconds = timeout.toSeconds() + (timeout.getNano() > 0 ? 1 : 0);
    return Long.toString(Math.min(seconds, Integer.MAX_VALUE));
  }
}
