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

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code run --json} told to stop at the moment its CMD dies of the same signal (as Ctrl-C does to
 * a whole process group): whichever the JVM sees first, what is printed and the process's status
 * agree. Either the hook's one line and 128 + the signal's number with no document, or the
 * command's own report (exit 8, CMD's status in the document) and exactly that status. Separate
 * processes on SQLite; repeated, since the order is the race's.
 */
@Timeout(120) // a failure detector only
class RunJsonInterruptionTest {

  private static final Duration WAIT = Duration.ofSeconds(60);

  @TempDir Path dir;

  @RepeatedTest(4)
  void aSignalToFencelineAndCmdTogetherGivesADocumentThatNamesTheStatusOrNoDocument()
      throws Exception {
    Path config =
        Files.writeString(
            dir.resolve("fenceline.yaml"),
            """
            stores:
              main:
                type: jdbc
                url: jdbc:sqlite:%s
            issuer: main
            lease:
              ttl: 60s
              holder: interrupt-test
            """
                .formatted(dir.resolve("fenceline.db")));
    CliProcess.Result result;
    try (CliProcess cli =
        CliProcess.start(
            Map.of(),
            "run",
            "--config",
            config.toString(),
            "--resource",
            "nightly-report",
            "--json",
            "--",
            "sh",
            "-c",
            "echo started $$; exec sleep 60")) {
      // With --json, CMD's standard output is on standard error.
      String started = cli.awaitErr(line -> line.startsWith("started "), WAIT);
      long commandPid = Long.parseLong(started.substring("started ".length()).strip());

      Process kill =
          new ProcessBuilder("kill", "-TERM", Long.toString(cli.pid()), Long.toString(commandPid))
              .inheritIO()
              .start();
      assertThat(kill.waitFor()).isZero();
      result = cli.waitFor(WAIT);
    }

    assertThat(result.errLines())
        .as(result.transcript())
        .filteredOn(line -> line.startsWith("fenceline: "))
        .hasSize(1);
    if (result.out().isBlank()) {
      assertThat(result.exitCode()).as(result.transcript()).isEqualTo(ExitCode.TERMINATED.code());
      assertThat(result.errLines())
          .as(result.transcript())
          .anyMatch(line -> line.startsWith("fenceline: interrupted (SIGTERM) while running sh"));
    } else {
      JsonNode document = JsonMapper.builder().build().readTree(result.out());
      assertThat(result.exitCode())
          .as(result.transcript())
          .isEqualTo(document.path("exit-code").asInt())
          .isEqualTo(ExitCode.COMMAND_FAILED.code());
      assertThat(document.path("command-exit-code").asInt()).isEqualTo(143);
    }
  }
}
