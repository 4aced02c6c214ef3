package dev.fenceline.it;

import dev.fenceline.jdbc.PostgresDatabase;
import dev.fenceline.jdbc.TestDatabase;
import dev.fenceline.vfs.VfsBlobStore;
import java.nio.file.Path;

/** Staged publishing to local files, fenced by Postgres. */
class StagedLocalFilesOnPostgresTest extends StagedOverVfsTest {

  @Override
  TestDatabase database() {
    return PostgresDatabase.shared();
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
