package dev.fenceline.jdbc;

import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

class SqliteRetentionTest extends RetentionContractTest {

  @TempDir Path directory;
  private SqliteDatabase database;

  @Override
  TestDatabase database() {
    if (database == null) {
      database = new SqliteDatabase(directory);
    }
    return database;
  }
}
