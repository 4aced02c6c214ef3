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
