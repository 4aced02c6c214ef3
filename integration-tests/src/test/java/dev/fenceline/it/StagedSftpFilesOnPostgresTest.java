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

import dev.fenceline.jdbc.PostgresDatabase;
import dev.fenceline.jdbc.TestDatabase;
import dev.fenceline.vfs.VfsBlobStore;
import java.nio.file.Path;

/** Staged publishing to SFTP (in-process Apache MINA SSHD), fenced by Postgres. */
class StagedSftpFilesOnPostgresTest extends StagedOverVfsTest {

  @Override
  TestDatabase database() {
    return PostgresDatabase.shared();
  }

  @Override
  VfsBlobStore openBlobStore() {
    return SftpFiles.open();
  }

  @Override
  Path blobRoot() {
    return SftpFiles.root();
  }
}
