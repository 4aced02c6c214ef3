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

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code fenceline read}: the fenced way to consume a staged destination, verified, and never
 * leaving partial output behind. Separate processes on SQLite and a local directory.
 */
@Timeout(180) // a failure detector only
class ReadCommandTest {

  @TempDir Path dir;

  private Path config(String reportsKeys) {
    return StagedCli.config(
        dir,
        "",
        reportsKeys,
        """
          payments-api:
            type: http
            base-uri: https://api.example.com/v1
            max-attempts: 1
            request: {path: /payments}
        """);
  }

  private String[] read(Path config, String... extra) {
    return Stream.concat(
            Stream.of(
                "read",
                "--config",
                config.toString(),
                "--destination",
                "reports",
                "--resource",
                RESOURCE),
            Stream.of(extra))
        .toArray(String[]::new);
  }

  @Test
  void readsTheCurrentVersionToStandardOutputAndAnOlderOneToAFileByteForByte() throws Exception {
    Path config = config("");
    byte[] first = StagedCli.randomBytes(1, 300_000);
    byte[] second = StagedCli.randomBytes(2, 200_001);
    Path v1 = Files.write(dir.resolve("v1.bin"), first);
    Path v2 = Files.write(dir.resolve("v2.bin"), second);
    assertThat(StagedCli.publish(config, v1, "report-1").exitCode()).isZero();
    assertThat(StagedCli.publish(config, v2, "report-2").exitCode()).isZero();
    Path stdout = dir.resolve("stdout.bin");
    Path older = dir.resolve("out").resolve("older.bin");
    Files.createDirectories(older.getParent());

    CliProcess.Result current = StagedCli.runToFile(stdout, read(config));
    CliProcess.Result toFile =
        CliProcess.run(NO_ENV, read(config, "--version", "1", "--output", older.toString()));
    CliProcess.Result json =
        CliProcess.run(
            NO_ENV,
            read(config, "--version", "1", "--output", dir.resolve("j.bin").toString(), "--json"));

    assertThat(current.exitCode()).as(current.transcript()).isZero();
    assertThat(current.err()).isEmpty();
    assertThat(Files.readAllBytes(stdout)).isEqualTo(second);
    assertThat(toFile.exitCode()).as(toFile.transcript()).isZero();
    assertThat(Files.readAllBytes(older)).isEqualTo(first);
    assertThat(toFile.out()).contains("read nightly-report version 1 (operation report-1");
    try (Stream<Path> left = Files.list(older.getParent())) {
      assertThat(left).as("no temporary file is left").containsExactly(older);
    }
    assertThat(json.exitCode()).as(json.transcript()).isZero();
    JsonNode document = new JsonMapper().readTree(json.out());
    assertThat(document.get("version").asLong()).isEqualTo(1);
    assertThat(document.get("operation").asString()).isEqualTo("report-1");
    assertThat(document.get("epoch").asLong()).isEqualTo(1);
    assertThat(document.get("size").asLong()).isEqualTo(first.length);
    assertThat(document.get("sha256").asString()).isEqualTo(sha256(first));
  }

  @Test
  void aTamperedPublishedFileFailsWithoutWritingAnyOutput() throws Exception {
    Path config = config("");
    byte[] payload = StagedCli.randomBytes(3, 500_000);
    assertThat(
            StagedCli.publish(config, Files.write(dir.resolve("r.bin"), payload), "report-1")
                .exitCode())
        .isZero();
    List<Path> staged = StagedCli.stagedFiles(dir);
    assertThat(staged).hasSize(1);
    byte[] tampered = payload.clone();
    tampered[tampered.length - 1] ^= 1; // the same size: only the SHA-256 can tell
    Files.write(staged.get(0), tampered);
    Path output = dir.resolve("out").resolve("report.bin");
    Files.createDirectories(output.getParent());
    Path stdout = dir.resolve("stdout.bin");

    CliProcess.Result toFile = CliProcess.run(NO_ENV, read(config, "--output", output.toString()));
    CliProcess.Result toStdout = StagedCli.runToFile(stdout, read(config));

    SoftAssertions.assertSoftly(
        softly -> {
          try (Stream<Path> left = Files.list(output.getParent())) {
            softly.assertThat(left).as("no output file, no temporary file").isEmpty();
          } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
          }
          softly.assertThat(stdout).as("standard output stays empty").isEmptyFile();
          softly
              .assertThat(toFile.exitCode())
              .as(toFile.transcript())
              .isEqualTo(ExitCode.FAILURE.code());
          softly.assertThat(toFile.err()).contains("SHA-256", "was not written");
          softly
              .assertThat(toStdout.exitCode())
              .as(toStdout.transcript())
              .isEqualTo(ExitCode.FAILURE.code());
          softly
              .assertThat(toStdout.err())
              .contains("SHA-256", "nothing was written to standard output");
        });
  }

  @Test
  void aSweptVersionNothingPublishedAndAnHttpDestinationAreClearErrors() throws Exception {
    Path config = config("keep-versions: 1\nsweep-grace: 0s");
    CliProcess.Result nothingYet = CliProcess.run(NO_ENV, read(config));
    Path report = Files.writeString(dir.resolve("r.csv"), "day,total\n");
    assertThat(StagedCli.publish(config, report, "report-1").exitCode()).isZero();
    assertThat(StagedCli.publish(config, report, "report-2").exitCode()).isZero();

    CliProcess.Result swept = CliProcess.run(NO_ENV, read(config, "--version", "1"));
    CliProcess.Result noSuchVersion = CliProcess.run(NO_ENV, read(config, "--version", "3"));
    CliProcess.Result http =
        CliProcess.run(
            NO_ENV,
            "read",
            "--config",
            config.toString(),
            "--destination",
            "payments-api",
            "--resource",
            RESOURCE);
    CliProcess.Result jsonToStdout = CliProcess.run(NO_ENV, read(config, "--json"));

    assertThat(nothingYet.exitCode())
        .as(nothingYet.transcript())
        .isEqualTo(ExitCode.FAILURE.code());
    assertThat(nothingYet.err())
        .contains("nothing published yet for nightly-report at reports")
        .hasLineCount(1);
    assertThat(nothingYet.out()).isEmpty();
    assertThat(swept.exitCode()).as(swept.transcript()).isEqualTo(ExitCode.FAILURE.code());
    assertThat(swept.err()).contains("version 1", "missing", "swept").hasLineCount(1);
    assertThat(swept.out()).isEmpty();
    assertThat(noSuchVersion.exitCode()).isEqualTo(ExitCode.FAILURE.code());
    assertThat(noSuchVersion.err()).contains("no such version, the newest is 2");
    assertThat(http.exitCode())
        .as(http.transcript())
        .isEqualTo(ExitCode.BAD_CONFIG_OR_USAGE.code());
    assertThat(http.err()).contains("type http", "read supports staged destinations only");
    assertThat(jsonToStdout.exitCode()).isEqualTo(ExitCode.BAD_CONFIG_OR_USAGE.code());
    assertThat(jsonToStdout.err()).contains("--output FILE");
  }

  private static String sha256(byte[] bytes) throws Exception {
    return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
  }
}
