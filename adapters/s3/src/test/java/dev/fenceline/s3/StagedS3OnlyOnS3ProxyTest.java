package dev.fenceline.s3;

import dev.fenceline.s3.S3TestServer.Kind;

/** Staged publishing with blobs and pointer on S3Proxy 4.1.0, no database. */
class StagedS3OnlyOnS3ProxyTest extends StagedS3OnlyTest {

  @Override
  Kind kind() {
    return Kind.S3PROXY;
  }
}
