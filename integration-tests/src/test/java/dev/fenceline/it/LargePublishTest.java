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

import static org.assertj.core.api.Assertions.assertThat;

import dev.fenceline.staging.SmallHeapPublish;
import dev.fenceline.staging.SmallHeapPublish.Measured;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A 1 GiB publish through the staged destination in a JVM capped at {@code -Xmx128m}: the payload
 * is streamed to local files and back through the verifying reader, never held in memory.
 */
class LargePublishTest {

  private static final long ONE_GIB = 1L << 30;
  private static final long SEED = 20261027;

  @TempDir Path directory;

  @Test
  void aOneGibPublishRunsIn128MibOfHeap() throws Exception {
    Measured measured =
        SmallHeapPublish.run(LargePublish.class, 128L << 20, ONE_GIB, SEED, directory.toString());

    try (var blobs = Files.walk(directory.resolve("blobs"))) {
      assertThat(blobs.filter(Files::isRegularFile).mapToLong(LargePublishTest::size).sum())
          .isEqualTo(ONE_GIB);
    }
    System.out.printf(
        "1 GiB staged publish with -Xmx128m: publish %s ms, verified read %s ms, peak heap %d MiB%n",
        measured.get("PUBLISH_MS"),
        measured.get("READ_MS"),
        Long.parseLong(measured.get("PEAK_HEAP_USED_BYTES")) >> 20);
  }

  private static long size(Path file) {
    try {
      return Files.size(file);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
