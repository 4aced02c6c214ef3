package dev.fenceline.s3;

import dev.fenceline.s3.S3TestServer.Kind;

/** The S3 pointer store on S3Proxy 4.1.0. */
class S3ProxyPointerStoreTest extends S3PointerStoreContractTest {

  @Override
  Kind kind() {
    return Kind.S3PROXY;
  }
}
