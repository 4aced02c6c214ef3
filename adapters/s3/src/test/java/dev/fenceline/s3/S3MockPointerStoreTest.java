package dev.fenceline.s3;

import dev.fenceline.s3.S3TestServer.Kind;

/** The S3 pointer store on S3Mock. */
class S3MockPointerStoreTest extends S3PointerStoreContractTest {

  @Override
  Kind kind() {
    return Kind.S3MOCK;
  }
}
