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
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fenceline.spi.BlobKey;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StepListener;
import dev.fenceline.spi.StoreException;
import dev.fenceline.staging.StagedDestination;
import dev.fenceline.tck.memory.InMemoryPointerStore;
import dev.fenceline.vfs.VfsBlobStore;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A symbolic link planted inside the staging area of local files cannot make the staged destination
 * write into, or sweep away, files outside the base directory.
 */
class StagedSymlinkTest {

  private static final ResourceId REPORT = ResourceId.of("nightly-report");

  @TempDir Path directory;
  private Path base;
  private Path outside;
  private VfsBlobStore blobs;
  private InMemoryPointerStore pointers;
  private StagedDestination staged;

  @BeforeEach
  void open() throws IOException {
    base = directory.resolve("blobs");
    outside = Files.createDirectories(directory.resolve("outside"));
    blobs = VfsBlobStore.open(base.toUri().toString());
    pointers =
        new InMemoryPointerStore(
            new InMemoryPointerStore.Storage(), "reports", StepListener.NONE, Clock.systemUTC());
    staged =
        StagedDestination.builder(blobs, pointers)
            .prefix(BlobKey.of("published"))
            .sweepGrace(Duration.ofHours(1))
            .build();
  }

  /** The staging area of the destination, bound to its pointer store's identity. */
  private String stagingArea() {
    return "published/.fenceline/staging/" + pointers.storeId() + "." + pointers.name();
  }

  @AfterEach
  void close() {
    blobs.close();
  }

  /** A file outside the base directory, named and aged like a stale staged blob of epoch 1. */
  private Path victim(Path in) throws IOException {
    Path victim = Files.writeString(Files.createDirectories(in).resolve("1-op-victim"), "keep me");
    Files.setLastModifiedTime(victim, FileTime.from(Instant.parse("2020-01-01T00:00:00Z")));
    return victim;
  }

  @Test
  void theSweepDoesNotFollowALinkedResourceAreaOutside() throws IOException {
    Path victim = victim(outside);
    Path area = Files.createDirectories(base.resolve(stagingArea()));
    Files.createSymbolicLink(area.resolve(REPORT.value()), outside);
    staged.register(new FencingToken("test-issuer", REPORT, Epoch.of(5), "worker-a"));

    assertThat(staged.sweep().deleted()).isEmpty();
    assertThat(victim).hasContent("keep me");
  }

  @Test
  void theSweepRefusesALinkedStagingRootAndDeletesNothing() throws IOException {
    Path victim =
        victim(
            outside.resolve(stagingArea().substring("published/".length()) + "/" + REPORT.value()));
    Files.createDirectories(base);
    Files.createSymbolicLink(base.resolve("published"), outside);
    staged.register(new FencingToken("test-issuer", REPORT, Epoch.of(5), "worker-a"));

    assertThatThrownBy(() -> staged.sweep())
        .isInstanceOf(StoreException.class)
        .hasMessageContaining("published is a symbolic link");
    assertThat(victim).hasContent("keep me");
  }

  @Test
  void aWriteIsNotStagedThroughALinkedResourceArea() throws IOException {
    Path area = Files.createDirectories(base.resolve(stagingArea()));
    Files.createSymbolicLink(area.resolve(REPORT.value()), outside);

    assertThatThrownBy(
            () ->
                staged.write(
                    new FencingToken("test-issuer", REPORT, Epoch.of(5), "worker-a"),
                    OperationId.of("op"),
                    new ByteArrayInputStream("report".getBytes(StandardCharsets.UTF_8))))
        .isInstanceOf(StoreException.class)
        .hasMessageContaining("is a symbolic link");
    try (Stream<Path> written = Files.list(outside)) {
      assertThat(written).isEmpty();
    }
    assertThat(staged.resolve(REPORT)).isEmpty();
  }
}
