package dev.fenceline.vfs;

import dev.fenceline.spi.BlobStore;
import dev.fenceline.tck.BlobStoreContract;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

class LocalVfsBlobStoreTest extends BlobStoreContract {

  @TempDir Path directory;
  private VfsBlobStore store;

  @BeforeEach
  void open() {
    store = VfsBlobStore.open(directory.resolve("blobs").toUri().toString());
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
