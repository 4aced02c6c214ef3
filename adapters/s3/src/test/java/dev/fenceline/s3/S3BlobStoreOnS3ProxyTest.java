package dev.fenceline.s3;

import dev.fenceline.s3.S3TestServer.Kind;
import dev.fenceline.spi.BlobStore;
import dev.fenceline.tck.BlobStoreContract;

/**
 * The blob store suite on S3Proxy 4.1.0 with the default threshold: the suite's 8 MiB payload is
 * one PUT.
 */
class S3BlobStoreOnS3ProxyTest extends BlobStoreContract {

  @Override
  protected BlobStore blobStore() {
    return S3Stores.defaults(Kind.S3PROXY).blobStore();
  }
}
