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
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Issue 19 item 6: {@code ./fenceline doctor --config examples/fenceline.yaml} on a fresh clone,
 * run exactly as a new user runs it: from the repository root, nothing copied or set up,
 * PAYMENTS_API_TOKEN and FENCELINE_HOME unset. Doctor creates nothing (item 8), so the repository
 * stays as it was.
 */
@Timeout(120) // a failure detector only
class DoctorExampleConfigTest {

  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
  private static final String EXAMPLE = "examples/fenceline.yaml";
  private static final List<String> UNSET = List.of("PAYMENTS_API_TOKEN");
  private static final String TOKEN = "example-token-3f9a1c";

  @TempDir Path dir;

  @Test
  void doctorOnTheExampleFromAFreshCloneExitsZeroNamingEveryGuaranteeAndCreatesNothing()
      throws Exception {
    assertThat(ROOT.resolve(EXAMPLE)).isRegularFile();
    boolean dataBefore = Files.exists(ROOT.resolve("fenceline-data"));

    CliProcess.Result text =
        CliProcess.run(ROOT, List.of(), UNSET, Map.of(), "doctor", "--config", EXAMPLE);
    CliProcess.Result json =
        CliProcess.run(ROOT, List.of(), UNSET, Map.of(), "doctor", "--config", EXAMPLE, "--json");

    assertThat(text.exitCode()).as(text.transcript()).isEqualTo(ExitCode.OK.code());
    assertThat(text.out())
        .containsPattern("reports +vfs +FENCED_BY_STAGING +STAGED_WITH_POINTER_STORE")
        .containsPattern("payments-api +http +FENCED_AT_INTENT +FENCED_AT_INTENT")
        .contains(
            "  not usable: environment variable PAYMENTS_API_TOKEN (bearer-token-env) is not set");
    if (!dataBefore) { // a fresh clone (a checkout where publish ran from the root has the data)
      assertThat(text.out())
          .contains("store main (jdbc): would create directory " + ROOT.resolve("fenceline-data"))
          .contains(
              "store reports-dir (vfs): would create directory "
                  + ROOT.resolve("fenceline-data").resolve("reports"));
    }
    assertThat(text.out().lines().filter(line -> line.startsWith("  not usable:")).count())
        .as("only payments-api is not usable")
        .isEqualTo(1);
    JsonNode document = new JsonMapper().readTree(json.out());
    assertThat(json.exitCode()).as(json.transcript()).isEqualTo(ExitCode.OK.code());
    JsonNode destinations = document.get("destinations");
    assertThat(destinations.size()).isEqualTo(2);
    assertThat(destinations.get(0).get("name").asString()).isEqualTo("reports");
    assertThat(destinations.get(0).get("usable").asBoolean()).isTrue();
    assertThat(destinations.get(1).get("name").asString()).isEqualTo("payments-api");
    assertThat(destinations.get(1).get("guarantee").asString()).isEqualTo("FENCED_AT_INTENT");
    assertThat(destinations.get(1).get("usable").asBoolean()).isFalse();
    assertThat(destinations.get(1).get("not-usable").asString()).contains("PAYMENTS_API_TOKEN");
    assertThat(Files.exists(ROOT.resolve("fenceline-data")))
        .as("doctor created nothing in the repository")
        .isEqualTo(dataBefore);
  }

  @Test
  void withTheTokenSetEveryDestinationOfTheExampleIsUsable() {
    CliProcess.Result text =
        CliProcess.run(
            ROOT,
            List.of(),
            UNSET,
            Map.of("PAYMENTS_API_TOKEN", TOKEN),
            "doctor",
            "--config",
            EXAMPLE);

    assertThat(text.exitCode()).as(text.transcript()).isEqualTo(ExitCode.OK.code());
    assertThat(text.out())
        .containsPattern("payments-api +http +FENCED_AT_INTENT")
        .doesNotContain("not usable")
        .doesNotContain(TOKEN);
  }

  @Test
  void publishWithoutTheTokenFailsNamingTheVariableWhileTheOtherDestinationPublishes()
      throws Exception {
    // publish creates ./fenceline-data, so it runs in a copy of the layout, not in the repository.
    Files.createDirectories(dir.resolve("examples"));
    Files.copy(ROOT.resolve(EXAMPLE), dir.resolve(EXAMPLE));
    Path payload = Files.writeString(dir.resolve("payload.json"), "{\"amount\": 42}\n");

    CliProcess.Result payments =
        CliProcess.run(
            dir,
            List.of(),
            UNSET,
            Map.of(),
            "publish",
            "--config",
            EXAMPLE,
            "--destination",
            "payments-api",
            "--resource",
            "payments",
            "--operation",
            "pay-1",
            payload.toString());
    CliProcess.Result reports =
        CliProcess.run(
            dir,
            List.of(),
            UNSET,
            Map.of(),
            "publish",
            "--config",
            EXAMPLE,
            "--destination",
            "reports",
            "--resource",
            "nightly-report",
            "--operation",
            "report-1",
            payload.toString());

    assertThat(payments.exitCode())
        .as(payments.transcript())
        .isEqualTo(ExitCode.BAD_CONFIG_OR_USAGE.code());
    assertThat(payments.err())
        .contains("bearer-token-env")
        .contains("environment variable PAYMENTS_API_TOKEN is not set or blank");
    assertThat(reports.exitCode()).as(reports.transcript()).isEqualTo(ExitCode.OK.code());
    assertThat(dir.resolve("fenceline-data").resolve("fenceline.db")).isRegularFile();
    assertThat(dir.resolve("fenceline-data").resolve("reports")).isDirectory();
  }
}
