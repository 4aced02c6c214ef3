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
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.fenceline.jdbc.JdbcStore;
import dev.fenceline.spi.BlobInfo;
import dev.fenceline.spi.BlobKey;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StoreException;
import dev.fenceline.staging.StagedDestination;
import dev.fenceline.tck.Payloads;
import dev.fenceline.vfs.SftpTestServer;
import dev.fenceline.vfs.VfsBlobStore;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * When the blob store fails, the publish pointer never moves and the old version stays readable.
 */
class StagedFailuresTest {

  private static final ResourceId REPORT = ResourceId.of("nightly-report");

  @TempDir Path directory;

  private static InputStream text(String value) {
    return new ByteArrayInputStream(value.getBytes(StandardCharsets.UTF_8));
  }

  private static String read(StagedDestination staged) throws Exception {
    try (InputStream in = staged.open(REPORT)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  @Test
  void aFullVolumeFailsThePublishAndKeepsThePreviousVersion() throws Exception {
    assumeTrue(
        "root".equals(System.getProperty("user.name")),
        "mounting a small volume needs root, as on this project's CI");
    Path volume = Files.createDirectories(directory.resolve("volume"));
    run("mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", volume.toString());
    try (JdbcStore store = JdbcStore.sqlite(directory.resolve("fenceline.db"));
        VfsBlobStore blobs = VfsBlobStore.open(volume.toUri().toString())) {
      StagedDestination staged =
          StagedDestination.builder(blobs, store.pointerStore("reports")).build();
      FencingToken token = new FencingToken(store.id(), REPORT, Epoch.of(1), "worker-a");
      staged.write(token, OperationId.of("v1"), text("version 1"));

      assertThatThrownBy(
              () ->
                  staged.write(
                      token, OperationId.of("v2"), Payloads.generated(8L * 1024 * 1024, 3)))
          .isInstanceOf(StoreException.class)
          .hasMessageContaining("No space left on device");

      assertThat(read(staged)).isEqualTo("version 1");
      assertThat(staged.lookup(REPORT, OperationId.of("v2"))).isEmpty();
      try (Stream<BlobInfo> listed = blobs.list(BlobKey.of(".fenceline/staging"))) {
        assertThat(listed).as("the partial blob was removed").hasSize(1);
      }
    } finally {
      run("umount", volume.toString());
    }
  }

  @Test
  void anSftpServerRefusingTheUploadKeepsThePreviousVersion() throws Exception {
    Path root = Files.createDirectories(directory.resolve("root"));
    try (SftpTestServer server = new SftpTestServer(root, directory.resolve("host.key"));
        JdbcStore store = JdbcStore.sqlite(directory.resolve("fenceline.db"));
        VfsBlobStore blobs =
            VfsBlobStore.builder(server.uri("blobs"))
                .credentials(SftpTestServer.USER, SftpTestServer.PASSWORD)
                .strictHostKeyChecking(false)
                .timeout(Duration.ofSeconds(20))
                .build()) {
      StagedDestination staged =
          StagedDestination.builder(blobs, store.pointerStore("reports")).build();
      FencingToken token = new FencingToken(store.id(), REPORT, Epoch.of(1), "worker-a");
      staged.write(token, OperationId.of("v1"), text("version 1"));
      server.refuseWrites(true);

      assertThatThrownBy(() -> staged.write(token, OperationId.of("v2"), text("version 2")))
          .isInstanceOf(StoreException.class)
          .hasMessageContaining("ermission denied");

      server.refuseWrites(false);
      assertThat(read(staged)).isEqualTo("version 1");
      assertThat(store.pointerStore("reports").current(REPORT).orElseThrow().version())
          .isEqualTo(1);
    }
  }

  private static void run(String... command) throws Exception {
    Process process = new ProcessBuilder(List.of(command)).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!process.waitFor(30, TimeUnit.SECONDS) || process.exitValue() != 0) {
      throw new IllegalStateException(String.join(" ", command) + " failed: " + output);
    }
  }
}
