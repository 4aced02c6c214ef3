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
package dev.fenceline.s3;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fenceline.s3.S3TestServer.Kind;
import dev.fenceline.staging.SmallHeapPublish;
import dev.fenceline.staging.SmallHeapPublish.Measured;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A large publish through {@code StagedDestination(S3BlobStore, JDBC pointer store)} to S3Mock in a
 * JVM with a small heap: the payload is streamed in 8 MiB parts and read back through the verifying
 * reader, never held in memory. By default 192 MiB in {@code -Xmx96m} (twice the heap, so a store
 * that buffered the payload fails); the full 1 GiB in {@code -Xmx128m} takes over a minute on a
 * small machine (S3Mock writes the parts, then joins them), so it runs when asked: {@code mvn
 * verify -pl adapters/s3 -am -Dfenceline.s3.large-publish=true -Dtest=S3LargePublishTest
 * -Dsurefire.failIfNoSpecifiedTests=false}.
 */
class S3LargePublishTest {

  private static final boolean FULL = Boolean.getBoolean("fenceline.s3.large-publish");
  private static final long SIZE = FULL ? 1L << 30 : 192L << 20;
  private static final long HEAP = FULL ? 128L << 20 : 96L << 20;
  private static final long SEED = 20261027;

  @TempDir Path directory;

  @Test
  void aLargePublishToS3RunsInASmallHeap() throws Exception {
    S3TestServer server = S3TestServer.get(Kind.S3MOCK);
    String bucket = server.createBucket();
    Measured measured =
        SmallHeapPublish.run(
            S3LargePublish.class,
            HEAP,
            SIZE,
            SEED,
            server.endpoint().toString(),
            bucket,
            directory.toString());

    // In 8 MiB parts; the pointer lives in SQLite.
    assertThat(measured.values())
        .containsEntry(
            "PUBLISH_REQUESTS",
            "{CompleteMultipartUpload=1, CreateMultipartUpload=1, UploadPart="
                + SIZE / (8 << 20)
                + "}");
    assertThat(
            server.admin().listObjectsV2(b -> b.bucket(bucket)).contents().stream()
                .mapToLong(object -> object.size())
                .sum())
        .isEqualTo(SIZE);
    System.out.printf(
        "%d MiB staged publish to S3Mock with -Xmx%dm: publish %s ms, verified read %s ms, peak"
            + " heap %d MiB, child wall time %d ms%n",
        SIZE >> 20,
        HEAP >> 20,
        measured.get("PUBLISH_MS"),
        measured.get("READ_MS"),
        Long.parseLong(measured.get("PEAK_HEAP_USED_BYTES")) >> 20,
        measured.wallMillis());
  }
}
