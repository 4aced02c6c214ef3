package dev.fenceline.vfs;

import dev.fenceline.spi.BlobStore;
import dev.fenceline.tck.BlobStoreContract;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

class RamVfsBlobStoreTest extends BlobStoreContract {

  private VfsBlobStore store;

  @BeforeEach
  void open() {
    store = VfsBlobStore.open("ram:///fenceline");
  }

  @AfterEach
  void close() {
    store.close();
  }

  @Override
  protected BlobStore blobStore() {
    return store;
  }
}
