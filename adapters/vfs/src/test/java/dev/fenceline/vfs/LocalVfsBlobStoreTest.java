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
