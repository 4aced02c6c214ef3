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

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code fenceline demo --json} as a script runs it (issue 19, item 11): a separate JVM with its
 * two worker JVMs; standard output is one JSON document with the run's facts, the narration is on
 * standard error, and the exit status is the same as without {@code --json}.
 */
class DemoJsonTest {

  private static final JsonMapper JSON = JsonMapper.builder().build();

  @TempDir Path dir;

  @Test
  void demoJsonPrintsOneDocumentWithTheRunsFactsAndNarratesOnStandardError() {
    CliProcess.Result result = CliProcess.run(Map.of(), "demo", "--dir", dir.toString(), "--json");

    assertThat(result.exitCode()).as(result.transcript()).isEqualTo(ExitCode.OK.code());
    JsonNode document = JSON.readTree(result.out()); // fails unless stdout is one JSON document
    assertThat(document.get("command").asString()).isEqualTo("demo");
    assertThat(document.get("exit-code").asInt()).isEqualTo(ExitCode.OK.code());
    assertThat(document.get("exit").asString()).isEqualTo(ExitCode.OK.name());
    long epochA = document.get("epoch-a").asLong();
    long epochB = document.get("epoch-b").asLong();
    assertThat(epochA).isEqualTo(1);
    assertThat(epochB).isEqualTo(epochA + 1);

    JsonNode stalePublish = document.get("worker-a");
    assertThat(stalePublish.get("outcome").asString()).isEqualTo(PublishReport.REJECTED_STALE);
    assertThat(stalePublish.get("supplied-epoch").asLong()).isEqualTo(epochA);
    assertThat(stalePublish.get("current-epoch").asLong()).isEqualTo(epochB);
    assertThat(document.get("worker-b").get("outcome").asString()).isEqualTo(PublishReport.APPLIED);
    assertThat(document.get("published").get("target").asString())
        .isEqualTo(Worker.report("B", epochB));
    assertThat(document.get("published").get("epoch").asLong()).isEqualTo(epochB);

    JsonNode timeline = document.get("timeline");
    assertThat(timeline.size()).isEqualTo(4);
    for (int i = 0; i < 4; i++) {
      assertThat(timeline.get(i).get("step").asInt()).isEqualTo(i + 1);
    }
    assertThat(timeline.get(3).get("worker").asString()).isEqualTo("A");
    assertThat(timeline.get(3).get("epoch").asLong()).isEqualTo(epochA);
    assertThat(timeline.get(3).get("destination").asString())
        .contains("rejected as stale (current " + epochB + ")");
    assertThat(document.get("problems").isEmpty()).isTrue();

    assertThat(result.err()).contains("SIGSTOP", "SIGCONT", "verdict: PASS");
    assertThat(result.out()).doesNotContain("verdict");
  }

  @Test
  void demoJsonWithABadOptionPrintsADocumentNamingItAndExitsWithTheUsageStatus() {
    CliProcess.Result result =
        CliProcess.run(Map.of(), "demo", "--json", "--ttl-millis", "1", "--dir", dir.toString());

    assertThat(result.exitCode())
        .as(result.transcript())
        .isEqualTo(ExitCode.BAD_CONFIG_OR_USAGE.code());
    JsonNode document = JSON.readTree(result.out());
    assertThat(document.get("exit").asString()).isEqualTo(ExitCode.BAD_CONFIG_OR_USAGE.name());
    assertThat(document.get("error").asString()).contains("--ttl-millis");
    assertThat(result.err()).startsWith("fenceline: Cannot");
  }
}
