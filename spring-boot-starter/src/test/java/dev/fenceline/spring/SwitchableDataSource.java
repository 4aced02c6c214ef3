package dev.fenceline.spring;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.sqlite.SQLiteDataSource;

/** A SQLite file whose connections the test can refuse, as a database that went away would. */
public final class SwitchableDataSource implements DataSource {

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

  @Override
  public Connection getConnection(String user, String password) throws SQLException {
    return getConnection();
  }

  @Override
  public PrintWriter getLogWriter() {
    return null;
  }

  @Override
  public void setLogWriter(PrintWriter out) {}

  @Override
  public void setLoginTimeout(int seconds) {}

  @Override
  public int getLoginTimeout() {
    return 0;
  }

  @Override
  public Logger getParentLogger() throws SQLFeatureNotSupportedException {
    throw new SQLFeatureNotSupportedException();
  }

  @Override
  public <T> T unwrap(Class<T> type) throws SQLException {
    throw new SQLException("not a wrapper");
  }

  @Override
  public boolean isWrapperFor(Class<?> type) {
    return false;
  }
}
