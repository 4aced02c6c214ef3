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
package dev.fenceline.it;

import dev.fenceline.jdbc.JdbcStore;
import dev.fenceline.jdbc.OpenStore;
import dev.fenceline.jdbc.TestDatabase;
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

/**
 * The staged destination suite on real stores: blobs in a Commons VFS store (local files or SFTP),
 * the pointer and the epochs in a SQL database (SQLite file or embedded PostgreSQL).
 */
abstract class StagedOverVfsTest extends StagedDestinationContract {

  private final OpenStore store = new OpenStore(this::database);
  private VfsBlobStore blobs;

  /** The database holding pointers, epochs and leases. */
  abstract TestDatabase database();

  /** Opens the blob store under test. */
  abstract VfsBlobStore openBlobStore();

  /** Where the blob store's base directory lies on this machine's disk. */
  abstract Path blobRoot();

  private JdbcStore store() {
    return store.get();
  }

  @Override
  protected BlobStore blobStore() {
    if (blobs == null) {
      blobs = openBlobStore();
    }
    return blobs;
  }

  @Override
  protected PointerStore pointerStore(String name, StepListener steps, Optional<TokenKeys> keys) {
    return store.get(keys).pointerStore(name, steps);
  }

  @Override
  protected ConcurrencyControl concurrencyControl() {
    return ConcurrencyControl.LOCKING; // the JDBC pointer store's
  }

  @Override
  protected void overwriteBlob(BlobKey key, byte[] bytes) {
    try {
      Files.write(blobRoot().resolve(key.value()), bytes);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  protected LeaseIssuer issuer() {
    return store().leaseIssuer();
  }

  @Override
  protected void restartStore() {
    store.restartDatabase();
  }

  @AfterEach
  void closeStores() {
    store.close();
    if (blobs != null) {
      blobs.close();
    }
  }
}
