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
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code fenceline sweep}, and the sweep {@code publish} runs after a publish: keep-versions and
 * sweep-grace from the YAML take effect from the command line. Separate processes on SQLite and a
 * local directory.
 */
@Timeout(180) // a failure detector only
class SweepCommandTest {

  @TempDir Path dir;

  private void publishVersions(Path config, int count) throws Exception {
    for (int i = 1; i <= count; i++) {
      Path report = Files.writeString(dir.resolve("report.csv"), "version " + i + "\n");
      CliProcess.Result result = StagedCli.publish(config, report, "report-" + i);
      assertThat(result.exitCode()).as(result.transcript()).isZero();
    }
  }

  @Test
  void sweepDeletesTheVersionsBeyondKeepVersionsAndSaysWhichFiles() throws Exception {
    Path config =
        StagedCli.config(
            dir, "", "keep-versions: 2\nsweep-grace: 0s\nsweep-after-publish: false", "");
    publishVersions(config, 4);
    assertThat(StagedCli.stagedFiles(dir)).as("nothing swept by publish").hasSize(4);

    CliProcess.Result json =
        CliProcess.run(NO_ENV, "sweep", "--config", config.toString(), "--json");
    CliProcess.Result again =
        CliProcess.run(NO_ENV, "sweep", "--config", config.toString(), "--destination", "reports");

    assertThat(json.exitCode()).as(json.transcript()).isZero();
    JsonNode swept = new JsonMapper().readTree(json.out()).at("/destinations/0");
    assertThat(swept.get("name").asString()).isEqualTo("reports");
    assertThat(swept.get("deleted")).hasSize(2);
    assertThat(swept.get("deleted").get(0).asString()).contains("/nightly-report/");
    assertThat(swept.get("kept").asInt()).isEqualTo(2);
    assertThat(swept.get("keep-versions").asInt()).isEqualTo(2);
    assertThat(StagedCli.stagedFiles(dir)).hasSize(2);
    assertThat(again.exitCode()).as(again.transcript()).isZero();
    assertThat(again.out()).contains("swept reports: deleted 0 staged files, kept 2");
    CliProcess.Result read =
        CliProcess.run(
            NO_ENV,
            "read",
            "--config",
            config.toString(),
            "--destination",
            "reports",
            "--resource",
            StagedCli.RESOURCE,
            "--version",
            "3");
    assertThat(read.out()).isEqualTo("version 3\n");
  }

  @Test
  void sweepLeavesFilesYoungerThanTheGraceAlone() throws Exception {
    Path config =
        StagedCli.config(
            dir, "", "keep-versions: 1\nsweep-grace: 1h\nsweep-after-publish: false", "");
    publishVersions(config, 3);

    CliProcess.Result text = CliProcess.run(NO_ENV, "sweep", "--config", config.toString());

    assertThat(text.exitCode()).as(text.transcript()).isZero();
    assertThat(text.out())
        .contains(
            "swept reports: deleted 0 staged files, kept 3 (keep-versions 1, sweep-grace 60m)");
    assertThat(StagedCli.stagedFiles(dir)).hasSize(3);
  }

  @Test
  void publishSweepsThePublishedResourceByDefault() throws Exception {
    Path config = StagedCli.config(dir, "", "keep-versions: 2\nsweep-grace: 0s", "");

    publishVersions(config, 3);
    Path report = Files.writeString(dir.resolve("report.csv"), "version 4\n");
    CliProcess.Result fourth = StagedCli.publish(config, report, "report-4", "--json");

    assertThat(fourth.exitCode()).as(fourth.transcript()).isZero();
    JsonNode document = new JsonMapper().readTree(fourth.out());
    assertThat(document.get("outcome").asString()).isEqualTo("applied");
    assertThat(document.at("/sweep/deleted")).hasSize(1);
    assertThat(document.at("/sweep/kept").asInt()).isEqualTo(2);
    assertThat(StagedCli.stagedFiles(dir)).hasSize(2);
  }

  @Test
  void aSweepThatFailsAfterAPublishIsAWarningAndThePublishStaysApplied() throws Exception {
    Files.createDirectories(dir.resolve("reports"));
    String undeletable =
        """
          undeletable:
            type: undeletable-files
            uri: %s
        """
            .formatted(dir.resolve("reports").toUri());
    Path config =
        StagedCli.config(dir, "", "keep-versions: 1\nsweep-grace: 0s", "")
            .resolveSibling("fenceline.yaml");
    Files.writeString(
        config,
        Files.readString(config)
            .replace("stores:\n", "stores:\n" + undeletable)
            .replace("store: reports-dir", "store: undeletable"));
    publishVersions(config, 1);
    Path report = Files.writeString(dir.resolve("report.csv"), "version 2\n");

    CliProcess.Result text = StagedCli.publish(config, report, "report-2");
    CliProcess.Result json =
        StagedCli.publish(
            config, Files.writeString(dir.resolve("r3.csv"), "version 3\n"), "report-3", "--json");

    assertThat(text.exitCode()).as(text.transcript()).isEqualTo(ExitCode.OK.code());
    assertThat(text.out()).startsWith("applied: nightly-report operation report-2");
    assertThat(text.err())
        .startsWith("fenceline: warning: Cannot sweep nightly-report at reports after publishing")
        .contains("refused by the test store", "run fenceline sweep")
        .hasLineCount(1);
    assertThat(json.exitCode()).as(json.transcript()).isEqualTo(ExitCode.OK.code());
    JsonNode document = new JsonMapper().readTree(json.out());
    assertThat(document.get("exit").asString()).isEqualTo("OK");
    assertThat(document.get("outcome").asString()).isEqualTo("applied");
    assertThat(document.at("/sweep/warning").asString()).contains("refused by the test store");
  }
}
