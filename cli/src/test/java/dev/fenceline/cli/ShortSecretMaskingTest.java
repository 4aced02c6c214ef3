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
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 19 item 7: a short or common secret ({@code PAYMENTS_API_TOKEN=x}, a PostgreSQL password
 * {@code postgres}) neither garbles the output nor appears as a value: every {@code x} and every
 * {@code postgres} of other text stays as it is, in text and JSON, on stdout and stderr.
 */
class ShortSecretMaskingTest {

  @TempDir Path dir;

  private Path config() throws Exception {
    Files.createDirectories(dir.resolve("examples"));
    return Files.writeString(
        dir.resolve("fenceline.yaml"),
        """
        stores:
          main:
            type: jdbc
            url: jdbc:sqlite:%s
          reports-dir:
            type: vfs
            uri: %s
          pg:
            type: jdbc
            url: jdbc:postgresql://127.0.0.1:1/postgres
            user: postgres
            password: ${PG_PASSWORD}
            login-timeout: 2s
        issuer: main
        allow-fenced-at-intent: true
        destinations:
          examples:
            store: reports-dir
            prefix: export
          pg-examples:
            store: reports-dir
            pointer-store: pg
          payments-api:
            type: http
            base-uri: https://api.example.com/v1
            bearer-token-env: PAYMENTS_API_TOKEN
            max-attempts: 1
            request: {path: '/payments/{resource}'}
        """
            .formatted(dir.resolve("fenceline.db"), dir.resolve("examples").toUri()));
  }

  @Test
  void aOneLetterTokenAndAPasswordThatIsAWordLeaveEveryMessageIntact() throws Exception {
    Map<String, String> env = Map.of("PAYMENTS_API_TOKEN", "x", "PG_PASSWORD", "postgres");
    String withPg = config().toString();
    // Without the unreachable store, doctor prints its table.
    Path plain =
        Files.writeString(
            dir.resolve("plain.yaml"),
            Files.readString(Path.of(withPg))
                .replaceAll("(?s)  pg:\n.*?login-timeout: 2s\n", "")
                .replaceAll("(?s)  pg-examples:\n.*?pointer-store: pg\n", ""));
    String config = plain.toString();
    Path missing = dir.resolve("no-such-export.csv");

    CliProcess.Result doctor = CliProcess.run(env, "doctor", "--config", config);
    CliProcess.Result doctorJson = CliProcess.run(env, "doctor", "--config", config, "--json");
    CliProcess.Result publish =
        CliProcess.run(
            env,
            "publish",
            "--config",
            config,
            "--destination",
            "examples",
            "--resource",
            "nightly-export",
            "--operation",
            "export-2026-12-02",
            missing.toString());
    CliProcess.Result unreachable =
        CliProcess.run(env, "status", "--config", withPg, "x", "--destination", "pg-examples");
    Files.writeString(
        dir.resolve("typo.yaml"),
        Files.readString(Path.of(withPg)).replace("prefix: export", "prefix: export\n    max: x"));
    CliProcess.Result typo =
        CliProcess.run(env, "doctor", "--config", dir.resolve("typo.yaml").toString());

    for (CliProcess.Result result : List.of(doctor, doctorJson, publish, unreachable, typo)) {
      String all = result.out() + "\n" + result.err();
      assertThat(all).as(result.transcript()).doesNotContain("****").doesNotContain("***");
      assertThat(all)
          .as(result.transcript())
          .doesNotContain("Bearer x")
          .doesNotContain(":postgres@")
          .doesNotContain("password=postgres");
    }
    assertThat(doctor.err() + doctor.out())
        .as(doctor.transcript())
        .contains("payments-api", "https://api.example.com/v1", "examples");
    assertThat(doctor.exitCode()).as(doctor.transcript()).isEqualTo(ExitCode.OK.code());
    assertThat(doctorJson.out()).as(doctorJson.transcript()).contains("api.example.com/v1");
    assertThat(publish.err()).as(publish.transcript()).contains(missing.toString());
    assertThat(unreachable.err())
        .as(unreachable.transcript())
        .contains("pg (jdbc)")
        .contains("127.0.0.1:1/postgres");
    assertThat(typo.exitCode())
        .as(typo.transcript())
        .isEqualTo(ExitCode.BAD_CONFIG_OR_USAGE.code());
    assertThat(typo.err())
        .as(typo.transcript())
        .contains("destinations.examples.max at " + dir.resolve("typo.yaml") + ":20:5")
        .contains("unknown key \"max\"")
        .contains("keep-versions, pointer-store, prefix");
  }
}
