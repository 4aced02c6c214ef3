package dev.fenceline.s3;

import dev.fenceline.s3.S3TestServer.Kind;

/** Staged publishing with blobs and pointer on S3Mock, no database. */
class StagedS3OnlyOnS3MockTest extends StagedS3OnlyTest {

  @Override
  Kind kind() {
    return Kind.S3MOCK;
  }
}
