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
import dev.fenceline.staging.SmallHeapPublish;
import dev.fenceline.staging.StagedDestination;
import dev.fenceline.vfs.VfsBlobStore;
import java.nio.file.Path;

/**
 * The child JVM of {@link LargePublishTest}: a {@link SmallHeapPublish} through a staged
 * destination of local files and a SQLite pointer store.
 */
public final class LargePublish {

  private LargePublish() {}

  /** Arguments: payload size in bytes, seed, working directory. */
  public static void main(String[] args) throws Exception {
    Path directory = Path.of(args[2]);
    try (JdbcStore store = JdbcStore.sqlite(directory.resolve("fenceline.db"));
        VfsBlobStore blobs = VfsBlobStore.open(directory.resolve("blobs").toUri().toString())) {
      StagedDestination staged =
          StagedDestination.builder(blobs, store.pointerStore("reports")).build();
      SmallHeapPublish.publishAndReadBack(
          staged, store.id(), SmallHeapPublish.size(args), SmallHeapPublish.seed(args), () -> {});
    }
  }
}
