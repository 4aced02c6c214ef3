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
   * socket timeouts go to pgjdbc as connection properties (a value in the URL still wins); the
   * login timeout also bounds the wait for a free connection. Nothing is connected here: the store
   * connects (and reports failures) when it opens.
   */
  static HikariDataSource open(
      String instanceName,
      String url,
      Optional<String> user,
      Optional<String> password,
      int size,
      Duration connectTimeout,
      Duration loginTimeout,
      Duration socketTimeout) {
    HikariConfig config = new HikariConfig();
    config.setPoolName("fenceline-" + instanceName);
    config.setJdbcUrl(url);
    user.ifPresent(config::setUsername);
    password.ifPresent(config::setPassword);
    config.setMaximumPoolSize(size);
    config.setMinimumIdle(1);
    config.setConnectionTimeout(Math.max(250, loginTimeout.toMillis()));
    config.setInitializationFailTimeout(-1);
    config.addDataSourceProperty("connectTimeout", seconds(connectTimeout));
    config.addDataSourceProperty("loginTimeout", seconds(loginTimeout));
    config.addDataSourceProperty("socketTimeout", seconds(socketTimeout));
    return new HikariDataSource(config);
  }

  /** pgjdbc takes whole seconds; rounded up so a short timeout never becomes 0 (= none). */
  private static String seconds(Duration timeout) {
    long seconds = timeout.toSeconds() + (timeout.getNano() > 0 ? 1 : 0);
    return Long.toString(Math.min(seconds, Integer.MAX_VALUE));
  }
}
