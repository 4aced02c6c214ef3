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
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

class SftpVfsBlobStoreTest extends BlobStoreContract {

  @TempDir static Path directory;
  private static SftpTestServer server;
  private static VfsBlobStore store;

  @BeforeAll
  static void start() throws java.io.IOException {
    java.nio.file.Files.createDirectories(directory.resolve("root"));
    server = new SftpTestServer(directory.resolve("root"), directory.resolve("host.key"));
    store =
        VfsBlobStore.builder(server.uri("blobs"))
            .credentials(SftpTestServer.USER, SftpTestServer.PASSWORD)
            .strictHostKeyChecking(false)
            .timeout(java.time.Duration.ofSeconds(10))
            .build();
  }

  @AfterAll
  static void stop() {
    store.close();
    server.close();
  }

  @Override
  protected BlobStore blobStore() {
    return store;
  }
}
