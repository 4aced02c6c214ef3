package dev.fenceline.s3;

import dev.fenceline.s3.S3TestServer.Kind;
import dev.fenceline.spi.BlobStore;
import dev.fenceline.tck.BlobStoreContract;

/**
 * The blob store suite on S3Mock, with 5 MiB parts: the suite's 8 MiB payload goes in two parts.
 */
class S3BlobStoreOnS3MockTest extends BlobStoreContract {

  @Override
  protected BlobStore blobStore() {
    return S3Stores.smallParts(Kind.S3MOCK).blobStore();
  }
}
