/*
 * Copyright 2026 the Fenceline authors
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
package dev.fenceline.zookeeper;

import dev.fenceline.spi.BlobKey;
import dev.fenceline.spi.BlobStore;
import dev.fenceline.spi.LeaseIssuer;
import dev.fenceline.spi.PointerStore;
import dev.fenceline.spi.StepListener;
import dev.fenceline.spi.TokenKeys;
import dev.fenceline.staging.StagedDestinationContract;
import dev.fenceline.tck.ConcurrencyControl;
import dev.fenceline.vfs.VfsBlobStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * The staged destination suite with the pointer and the epochs in ZooKeeper (a 3-server ensemble)
 * and the payloads in a Commons VFS store on local files (R6).
 */
class StagedOnVfsWithZkPointersTest extends StagedDestinationContract {

  @TempDir Path directory;
  private ZkTestStores stores;
  private VfsBlobStore blobs;

  @BeforeEach
  void open() {
    stores = new ZkTestStores(ZkTestStores.shared(), "staged-tck");
    blobs = VfsBlobStore.open(directory.resolve("blobs").toUri().toString());
  }

  @AfterEach
  void close() {
    blobs.close();
    stores.close();
  }

  @Override
  protected BlobStore blobStore() {
    return blobs;
  }

  @Override
  protected PointerStore pointerStore(String name, StepListener steps, Optional<TokenKeys> keys) {
    return stores.store(keys).pointerStore(name, steps);
  }

  @Override
  protected ConcurrencyControl concurrencyControl() {
    return ConcurrencyControl.COMPARE_AND_SWAP; // the ZooKeeper pointer store's
  }

  @Override
  protected void overwriteBlob(BlobKey key, byte[] bytes) {
    try {
      Files.write(directory.resolve("blobs").resolve(key.value()), bytes);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  protected LeaseIssuer issuer() {
    return stores.store().leaseIssuer();
  }

  @Override
  protected void restartStore() {
    stores.restart();
  }
}
