package dev.fenceline.s3;

import dev.fenceline.s3.S3TestServer.Kind;
import dev.fenceline.spi.BlobStore;
import dev.fenceline.tck.BlobStoreContract;

/**
 * The blob store suite on S3Proxy 2.6.0 (5 MiB parts), which ignores {@code If-None-Match}: there a
 * put on an existing key replaces it, as {@link S3BlobStore} documents (staging never reuses a
 * key).
 */
class S3BlobStoreOnS3ProxyWithoutConditionsTest extends BlobStoreContract {

  @Override
  protected BlobStore blobStore() {
    return S3Stores.smallParts(Kind.S3PROXY_WITHOUT_CONDITIONS).blobStore();
  }

  @Override
  protected boolean refusesExistingKeys() {
    return false;
  }
}
