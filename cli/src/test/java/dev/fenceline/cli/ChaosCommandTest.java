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
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code fenceline chaos} and {@code fenceline chaos check} as separate processes: a short run on
 * SQLite and local files passes every check and its history checks the same when replayed; a
 * history with an acknowledged write the destination lost exits 9; wrong options exit 2 naming the
 * value, before any worker starts.
 */
@Timeout(300) // a failure detector only
class ChaosCommandTest {

  private static final Map<String, String> NO_ENV = Map.of();

  @TempDir Path dir;

  private Path config() throws Exception {
    Files.createDirectories(dir.resolve("published"));
    return Files.writeString(
        dir.resolve("fenceline.yaml"),
        """
        stores:
          main:
            type: jdbc
            url: jdbc:sqlite:%s
          files:
            type: vfs
            uri: %s
        issuer: main
        destinations:
          reports:
            store: files
        """
            .formatted(dir.resolve("fenceline.db"), dir.resolve("published").toUri()));
  }

  private static List<String> checkLines(String output) {
    return output.lines().filter(l -> l.startsWith("  PASS") || l.startsWith("  FAIL")).toList();
  }

  @Test
  void aShortRunPassesEveryCheckAndItsHistoryChecksTheSameWhenReplayed() throws Exception {
    Path config = config();
    Path out = dir.resolve("run");
    CliProcess.Result run;
    try (CliProcess cli =
        CliProcess.start(
            NO_ENV,
            "chaos",
            "--config",
            config.toString(),
            "--duration",
            "6s",
            "--workers",
            "2",
            "--resources",
            "2",
            "--faults",
            "pause,kill,store",
            "--seed",
            "3",
            "--out",
            out.toString())) {
      run = cli.waitFor(Duration.ofSeconds(240));
    }

    assertThat(run.exitCode()).as(run.transcript()).isZero();
    assertThat(run.out()).contains("checks: PASS", "seed 3", "reports is FENCED_BY_STAGING");
    assertThat(checkLines(run.out())).hasSize(7).allMatch(l -> l.startsWith("  PASS"));
    assertThat(out.resolve("history.jsonl")).isRegularFile();
    assertThat(out.resolve("report.md")).content().contains("# Chaos run: PASS");
    assertThat(out.resolve("epochs.svg")).content().startsWith("<svg");

    CliProcess.Result replay =
        CliProcess.run(NO_ENV, "chaos", "check", out.resolve("history.jsonl").toString());
    assertThat(replay.exitCode()).as(replay.transcript()).isZero();
    assertThat(stripTimes(checkLines(replay.out())))
        .as("the replayed check, line by line")
        .isEqualTo(stripTimes(checkLines(run.out())));

    // The destination "loses" an acknowledged write: its final lookup no longer finds it.
    JsonMapper json = new JsonMapper();
    List<String> lines = Files.readAllLines(out.resolve("history.jsonl"));
    StringBuilder tampered = new StringBuilder();
    boolean lost = false;
    for (String line : lines) {
      JsonNode event = json.readTree(line);
      if (!lost && "final".equals(event.path("type").asString()) && event.has("lookups")) {
        ObjectNode lookups = (ObjectNode) event.get("lookups");
        for (String operation : lookups.propertyNames()) {
          if (!lookups.get(operation).isNull()) {
            lookups.putNull(operation);
            lost = true;
            break;
          }
        }
        line = json.writeValueAsString(event);
      }
      tampered.append(line).append('\n');
    }
    assertThat(lost).as("a final line with a found operation to take away").isTrue();
    Path broken = Files.writeString(dir.resolve("broken.jsonl"), tampered);

    CliProcess.Result check =
        CliProcess.run(
            NO_ENV, "chaos", "check", broken.toString(), "--out", dir.resolve("r").toString());
    assertThat(check.exitCode()).as(check.transcript()).isEqualTo(9);
    assertThat(check.out()).contains("FAIL", "acknowledged-found");
    assertThat(dir.resolve("r").resolve("report.md")).content().contains("FAIL");
  }

  private static List<String> stripTimes(List<String> lines) {
    return lines.stream().map(l -> l.replaceAll("\\(\\d+ ms\\)", "(N ms)")).toList();
  }

  @Test
  void wrongOptionsExit2NamingTheValueBeforeAnyWorkerStarts() throws Exception {
    Path config = config();
    Path used = Files.createDirectories(dir.resolve("used"));
    Files.writeString(used.resolve("history.jsonl"), "{}\n");

    CliProcess.Result kind =
        CliProcess.run(NO_ENV, "chaos", "--config", config.toString(), "--faults", "pause,frob");
    CliProcess.Result noConfig = CliProcess.run(NO_ENV, "chaos", "--duration", "5s");
    CliProcess.Result notEmpty =
        CliProcess.run(NO_ENV, "chaos", "--config", config.toString(), "--out", used.toString());
    CliProcess.Result destination =
        CliProcess.run(NO_ENV, "chaos", "--config", config.toString(), "--destination", "nope");
    CliProcess.Result workers =
        CliProcess.run(NO_ENV, "chaos", "--config", config.toString(), "--workers", "0");
    CliProcess.Result ttl =
        CliProcess.run(
            NO_ENV,
            "chaos",
            "--config",
            config.toString(),
            "--lease-ttl",
            "50ms",
            "--out",
            dir.resolve("ttl").toString());
    CliProcess.Result missing =
        CliProcess.run(NO_ENV, "chaos", "check", dir.resolve("none.jsonl").toString());

    assertThat(kind.exitCode()).as(kind.transcript()).isEqualTo(2);
    assertThat(kind.err()).contains("\"frob\" is not a fault kind");
    assertThat(noConfig.exitCode()).as(noConfig.transcript()).isEqualTo(2);
    assertThat(noConfig.err()).contains("--config FILE is missing");
    assertThat(notEmpty.exitCode()).as(notEmpty.transcript()).isEqualTo(2);
    assertThat(notEmpty.err()).contains("it is not empty");
    assertThat(used.resolve("history.jsonl")).content().isEqualTo("{}\n");
    assertThat(destination.exitCode()).as(destination.transcript()).isEqualTo(2);
    assertThat(destination.err()).contains("\"nope\"", "reports");
    assertThat(workers.exitCode()).as(workers.transcript()).isEqualTo(2);
    assertThat(workers.err()).contains("--workers 0");
    assertThat(ttl.exitCode()).as(ttl.transcript()).isEqualTo(2);
    assertThat(ttl.err()).containsIgnoringCase("lease");
    assertThat(missing.exitCode()).as(missing.transcript()).isEqualTo(2);
    assertThat(missing.err()).contains("none.jsonl");
  }
}
