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
