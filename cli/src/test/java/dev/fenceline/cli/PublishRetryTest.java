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

import static java.nio.file.StandardWatchEventKinds.ENTRY_CREATE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.fenceline.jdbc.JdbcStore;
import dev.fenceline.spi.PointerState;
import dev.fenceline.spi.ResourceId;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A retry of an applied {@code fenceline publish} answers before uploading: the file is hashed and
 * compared with the recorded SHA-256, and no staged file is created. Proved without timing: the
 * staging directory is watched (inotify) while the retry runs, and a marker file created after it
 * shows that every earlier event was seen.
 */
@Timeout(120) // a failure detector only
class PublishRetryTest {

  private static final Map<String, String> NO_ENV = Map.of();
  private static final ResourceId RESOURCE = ResourceId.of("nightly-report");
  private static final String OPERATION = "report-2026-10-27";

  @TempDir Path dir;

  private Path config() {
    return StagedCli.localConfig(dir, "", "");
  }

  private static String[] publish(Path config, String file) {
    return new String[] {
      "publish",
      "--config",
      config.toString(),
      "--destination",
      "reports",
      "--resource",
      RESOURCE.value(),
      "--operation",
      OPERATION,
      file
    };
  }

  private Path randomFile(String name, long seed) throws IOException {
    byte[] bytes = new byte[4 << 20];
    new Random(seed).nextBytes(bytes);
    return Files.write(dir.resolve(name), bytes);
  }

  @Test
  void aRetryOfAnAppliedPublishCreatesNoStagedFileAndPrintsTheFirstReceipt() throws Exception {
    Path config = config();
    Path report = randomFile("report.bin", 1);
    CliProcess.Result first = CliProcess.run(NO_ENV, publish(config, report.toString()));
    assertThat(first.exitCode()).as(first.transcript()).isZero();
    Path stagingDirectory = onlyStagedFile().getParent();

    CliProcess.Result retry;
    CliProcess.Result fromStandardInput;
    List<Path> created;
    try (WatchService watch = stagingDirectory.getFileSystem().newWatchService()) {
      stagingDirectory.register(watch, ENTRY_CREATE);
      retry = CliProcess.run(NO_ENV, publish(config, report.toString()));
      try (CliProcess piped = CliProcess.start(NO_ENV, report, publish(config, "-"))) {
        fromStandardInput = piped.waitFor(Duration.ofSeconds(60));
      }
      created = createdBefore(watch, Files.createFile(stagingDirectory.resolve("marker")));
    }

    assertThat(retry.exitCode()).as(retry.transcript()).isZero();
    assertThat(retry.out()).startsWith("already applied: operation " + OPERATION);
    assertThat(receiptLine(retry.out())).isEqualTo(receiptLine(first.out()));
    assertThat(fromStandardInput.exitCode()).as(fromStandardInput.transcript()).isZero();
    assertThat(receiptLine(fromStandardInput.out())).isEqualTo(receiptLine(first.out()));
    assertThat(created).as("files created in the staging directory by the retries").isEmpty();
  }

  @Test
  void aRetryWithAnotherFileForTheSameOperationIsRefusedAsBeforeAndStagesNothing()
      throws Exception {
    Path config = config();
    Path report = randomFile("report.bin", 1);
    Path other = randomFile("other.bin", 2);
    CliProcess.Result first = CliProcess.run(NO_ENV, publish(config, report.toString()));
    assertThat(first.exitCode()).as(first.transcript()).isZero();
    Path stagingDirectory = onlyStagedFile().getParent();

    CliProcess.Result refused;
    List<Path> created;
    try (WatchService watch = stagingDirectory.getFileSystem().newWatchService()) {
      stagingDirectory.register(watch, ENTRY_CREATE);
      refused = CliProcess.run(NO_ENV, publish(config, other.toString()));
      created = createdBefore(watch, Files.createFile(stagingDirectory.resolve("marker")));
    }

    assertThat(refused.exitCode()).as(refused.transcript()).isEqualTo(ExitCode.FAILURE.code());
    assertThat(refused.errLines())
        .containsExactly(
            "fenceline: Cannot apply operation "
                + OPERATION
                + " of nightly-report to reports: it was already applied under epoch 1 with a"
                + " different request (fingerprint sha256:"
                + sha256(other)
                + " differs from the recorded one; an operation ID names exactly one request, so"
                + " give a different request its own operation ID)");
    assertThat(created).isEmpty();
    try (JdbcStore store = JdbcStore.sqlite(dir.resolve("fenceline.db"))) {
      assertThat(store.pointerStore("reports").current(RESOURCE))
          .get()
          .extracting(PointerState::version)
          .isEqualTo(1L);
    }
  }

  /**
   * The files created in the watched directory before {@code marker}: inotify reports events in
   * order, so once the marker's event arrived every earlier creation was reported.
   */
  private static List<Path> createdBefore(WatchService watch, Path marker) throws Exception {
    List<Path> created = new ArrayList<>();
    while (true) {
      WatchKey key = watch.poll(60, TimeUnit.SECONDS);
      assertThat(key).as("an event for the marker").isNotNull();
      for (WatchEvent<?> event : key.pollEvents()) {
        assertThat(event.kind()).as("no event was lost").isEqualTo(ENTRY_CREATE);
        Path name = (Path) event.context();
        if (name.equals(marker.getFileName())) {
          return created;
        }
        created.add(name);
      }
      key.reset();
    }
  }

  private Path onlyStagedFile() throws IOException {
    try (Stream<Path> files = Files.walk(dir.resolve("reports").resolve(".fenceline"))) {
      List<Path> staged = files.filter(Files::isRegularFile).toList();
      assertThat(staged).hasSize(1);
      return staged.get(0);
    }
  }

  private static String sha256(Path file) throws Exception {
    MessageDigest digest = MessageDigest.getInstance("SHA-256");
    try (InputStream in = Files.newInputStream(file)) {
      digest.update(in.readAllBytes());
    }
    return HexFormat.of().formatHex(digest.digest());
  }

  private static String receiptLine(String out) {
    return out.lines().filter(line -> line.startsWith("receipt: ")).findFirst().orElseThrow();
  }
}
