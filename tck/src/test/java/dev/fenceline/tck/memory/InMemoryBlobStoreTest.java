package dev.fenceline.tck.memory;

import dev.fenceline.spi.BlobStore;
import dev.fenceline.tck.BlobStoreContract;
import java.time.Clock;

class InMemoryBlobStoreTest extends BlobStoreContract {

  private final InMemoryBlobStore store = new InMemoryBlobStore(Clock.systemUTC());

  @Override
  protected BlobStore blobStore() {
    return store;
  }
}
