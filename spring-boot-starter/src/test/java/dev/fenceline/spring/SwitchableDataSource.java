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
