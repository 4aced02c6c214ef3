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
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 19 item 9, through the real command: a configuration mistake is reported at its own line
 * with the word for it, whichever destination the command uses, and nothing is published.
 */
class ConfigMistakesCliTest {

  @TempDir Path dir;

  private String stores() throws Exception {
    Files.createDirectories(dir.resolve("reports"));
    return """
        stores:
          main:
            type: jdbc
            url: jdbc:sqlite:%s
          reports-dir:
            type: vfs
            uri: %s
        issuer: main
        """
        .formatted(dir.resolve("fenceline.db"), dir.resolve("reports").toUri());
  }

  private CliProcess.Result publish(Path config) throws Exception {
    Path report = Files.writeString(dir.resolve("report.csv"), "a,b\n");
    return CliProcess.run(
        Map.of(),
        "publish",
        "--config",
        config.toString(),
        "--destination",
        "reports",
        "--resource",
        "nightly-report",
        "--operation",
        "report-2026-12-02",
        report.toString());
  }

  @Test
  void credentialsInAnotherDestinationsBaseUriStopAPublishToThisOne() throws Exception {
    Path config =
        Files.writeString(
            dir.resolve("fenceline.yaml"),
            stores()
                + """
                allow-fenced-at-intent: true
                destinations:
                  reports:
                    store: reports-dir
                  payments:
                    type: http
                    base-uri: https://app:hunter2@api.example.com/v1
                    max-attempts: 1
                    request: {path: /payments}
                """);

    CliProcess.Result result = publish(config);

    assertThat(result.exitCode())
        .as(result.transcript())
        .isEqualTo(ExitCode.BAD_CONFIG_OR_USAGE.code());
    assertThat(result.err())
        .as(result.transcript())
        .contains("Cannot configure destinations.payments.base-uri at " + config + ":15:15")
        .contains("carries credentials")
        .contains("bearer-token-env")
        .doesNotContain("hunter2");
    try (var files = Files.walk(dir.resolve("reports"))) {
      assertThat(files.filter(Files::isRegularFile)).as("nothing was staged").isEmpty();
    }
  }

  @Test
  void aTabAndAPasswordOnSqliteAreNamedAtTheirLines() throws Exception {
    Path tab =
        Files.writeString(
            dir.resolve("tab.yaml"),
            stores().replace("    uri: ", "\turi: ")
                + "destinations:\n  reports:\n    store: reports-dir\n");
    Path password =
        Files.writeString(
            dir.resolve("password.yaml"),
            stores()
                    .replace(
                        "    url: jdbc:sqlite:", "    password: hunter2\n    url: jdbc:sqlite:")
                + "destinations:\n  reports:\n    store: reports-dir\n");

    CliProcess.Result tabbed = publish(tab);
    CliProcess.Result ignored = publish(password);

    assertThat(tabbed.exitCode()).as(tabbed.transcript()).isEqualTo(2);
    assertThat(tabbed.err())
        .as(tabbed.transcript())
        .contains(tab + ":7:1: a tab indents this line; YAML allows only spaces for indentation");
    assertThat(ignored.exitCode()).as(ignored.transcript()).isEqualTo(2);
    assertThat(ignored.err())
        .as(ignored.transcript())
        .contains("Cannot configure stores.main.password at " + password + ":4:5")
        .contains("password does not apply to a jdbc:sqlite store")
        .contains("keys for jdbc:sqlite: lock-timeout")
        .doesNotContain("hunter2");
  }
}
