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

import static dev.fenceline.cli.StagedCli.NO_ENV;
import static dev.fenceline.cli.StagedCli.RESOURCE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.fenceline.jdbc.JdbcStore;
import dev.fenceline.spi.PointerState;
import dev.fenceline.spi.ResourceId;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The nightly job: 30 publishes of a 20 MB file through the command line, each a new
 * operation by a new process that acquires the lease afresh (as cron starts it), with {@code
 * keep-versions: 3}. The directory must end with the files of the 3 newest versions and nothing
 * else. Half the publishes are {@code publish}, half {@code run --publish}: both sweep afterwards.
 *
 * <p>{@code sweep-grace: 0s} lets each sweep act at once. That is safe here and in general for the
 * files it may delete: a sweep deletes only files of an epoch older than the resource's registered
 * one (no pointer swap can name them any more) that are not among the newest {@code keep-versions}
 * pointer targets; files of the current epoch are never deleted, so a publish still streaming is
 * never touched. The grace protects only a slow reader of a version that falls out of the kept ones
 * while it reads, and there is none here.
 */
@Timeout(600) // a failure detector only
class NightlyJobTest {

  private static final int NIGHTS = 30;
  private static final int SIZE = 20 * 1024 * 1024;
  private static final int KEEP = 3;

  @TempDir Path dir;

  @Test
  void thirtyNightlyPublishesEndWithTheThreeKeptVersionsAndNoOrphans() throws Exception {
    Path config = StagedCli.config(dir, "", "keep-versions: " + KEEP + "\nsweep-grace: 0s", "");
    Path report = dir.resolve("report.bin");
    long started = System.nanoTime();

    for (int night = 1; night <= NIGHTS; night++) {
      Files.write(report, StagedCli.randomBytes(night, SIZE));
      CliProcess.Result result =
          night % 2 == 0
              ? StagedCli.publish(config, report, "nightly-" + night)
              : CliProcess.run(
                  NO_ENV,
                  "run",
                  "--config",
                  config.toString(),
                  "--resource",
                  RESOURCE,
                  "--publish",
                  "reports:" + report,
                  "--operation",
                  "nightly-" + night,
                  "--",
                  "true");
      assertThat(result.exitCode()).as("night " + night + "\n" + result.transcript()).isZero();
      assertThat(StagedCli.stagedFiles(dir))
          .as("after night " + night)
          .hasSize(Math.min(night, KEEP));
    }
    long millis = (System.nanoTime() - started) / 1_000_000;
    System.out.println(
        "NightlyJobTest: " + NIGHTS + " publishes of " + SIZE + " bytes in " + millis + " ms");

    List<PointerState> kept;
    try (JdbcStore store = JdbcStore.sqlite(dir.resolve("fenceline.db"))) {
      kept = store.pointerStore("reports").history(ResourceId.of(RESOURCE), KEEP);
    }
    assertThat(kept).extracting(PointerState::version).containsExactly(30L, 29L, 28L);
    assertThat(kept).extracting(state -> state.epoch().value()).containsExactly(30L, 29L, 28L);
    Path reports = dir.resolve("reports");
    assertThat(StagedCli.stagedFiles(dir))
        .as("exactly the files the 3 newest pointers name: no orphans")
        .containsExactlyInAnyOrderElementsOf(
            kept.stream().map(state -> reports.resolve(state.pointer().target())).toList());
    Path older = dir.resolve("night-28.bin");
    CliProcess.Result read =
        CliProcess.run(
            NO_ENV,
            "read",
            "--config",
            config.toString(),
            "--destination",
            "reports",
            "--resource",
            RESOURCE,
            "--version",
            "28",
            "--output",
            older.toString());
    assertThat(read.exitCode()).as(read.transcript()).isZero();
    assertThat(Files.readAllBytes(older)).isEqualTo(StagedCli.randomBytes(28, SIZE));
  }
}
