package dev.fenceline.s3;

import dev.fenceline.s3.S3TestServer.Kind;

/**
 * Staged publishing to {@link S3BlobStore} on S3Proxy 2.6.0, which ignores conditional writes: the
 * JDBC pointer store fences, S3 only holds the blobs.
 */
class StagedOnS3ProxyWithoutConditionsWithSqliteTest extends StagedS3BlobsOnSqliteTest {

  @Override
  Kind kind() {
    return Kind.S3PROXY_WITHOUT_CONDITIONS;
  }
}
