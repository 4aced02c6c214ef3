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
package dev.fenceline.cli;

import dev.fenceline.spi.Adapter;
import dev.fenceline.spi.BlobInfo;
import dev.fenceline.spi.BlobKey;
import dev.fenceline.spi.BlobStore;
import dev.fenceline.spi.StoreException;
import dev.fenceline.vfs.VfsBlobStore;
import java.io.InputStream;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * A test store type, {@code undeletable-files}: a local directory (key {@code uri}) whose blob
 * store writes and reads normally but refuses every delete, so a sweep fails after a publish
 * succeeded. Found through ServiceLoader on the test class path, by the CLI's own processes too.
 */
public final class UndeletableFilesFactory implements dev.fenceline.spi.AdapterFactory {

  @Override
  public String name() {
    return "undeletable-files";
  }

  @Override
  public Adapter create(String instanceName, Map<String, String> config) {
    VfsBlobStore files = VfsBlobStore.open(config.get("uri"));
    BlobStore undeletable =
        new BlobStore() {
          @Override
          public BlobInfo put(BlobKey key, InputStream content) {
            return files.put(key, content);
          }

          @Override
          public InputStream open(BlobKey key) {
            return files.open(key);
          }

          @Override
          public Optional<BlobInfo> stat(BlobKey key) {
            return files.stat(key);
          }

          @Override
          public boolean delete(BlobKey key) {
            throw new StoreException("Cannot delete " + key + ": refused by the test store", null);
          }

          @Override
          public Stream<BlobInfo> list(BlobKey prefix) {
            return files.list(prefix);
          }
        };
    return new Adapter() {
      @Override
      public Optional<BlobStore> blobStore() {
        return Optional.of(undeletable);
      }

      @Override
      public void close() {
        files.close();
      }
    };
  }
}
