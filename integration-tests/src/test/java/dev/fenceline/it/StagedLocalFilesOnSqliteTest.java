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
