package dev.fenceline.s3;

import dev.fenceline.s3.S3TestServer.Kind;

/** Staged publishing to {@link S3BlobStore} on S3Mock. */
class StagedOnS3MockWithSqliteTest extends StagedS3BlobsOnSqliteTest {

  @Override
  Kind kind() {
    return Kind.S3MOCK;
  }
}
