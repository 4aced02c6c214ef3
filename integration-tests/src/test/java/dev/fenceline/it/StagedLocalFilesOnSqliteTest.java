package dev.fenceline.it;

import dev.fenceline.jdbc.SqliteDatabase;
import dev.fenceline.jdbc.TestDatabase;
import dev.fenceline.vfs.VfsBlobStore;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** Staged publishing to local files, fenced by Sqlite. */
class StagedLocalFilesOnSqliteTest extends StagedOverVfsTest {

  @TempDir Path directory;
  private SqliteDatabase database;

  @Override
  TestDatabase database() {
    if (database == null) {
      database = new SqliteDatabase(directory);
    }
    return database;
  }

  @Override
  VfsBlobStore openBlobStore() {
    return LocalFiles.open();
  }

  @Override
  Path blobRoot() {
    return LocalFiles.root();
  }
}
