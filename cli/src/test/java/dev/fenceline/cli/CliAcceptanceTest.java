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

import dev.fenceline.jdbc.JdbcStore;
import dev.fenceline.spi.ResourceId;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The {@code fenceline} command as a new user drives it: separate processes, a real configuration
 * file on SQLite and a local directory.
 */
@Timeout(120) // a failure detector only
class CliAcceptanceTest {

  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final Map<String, String> NO_ENV = Map.of();
  private static final ResourceId RESOURCE = ResourceId.of("nightly-report");

  @TempDir Path dir;

  private Path db() {
    return dir.resolve("fenceline.db");
  }

  /** SQLite control store, a directory of reports, a short lease for the loss test. */
  private Path config(String extra) throws Exception {
    Files.createDirectories(dir.resolve("reports"));
    return Files.writeString(
        dir.resolve("fenceline.yaml"),
        """
        stores:
          main:
            type: jdbc
            url: jdbc:sqlite:%s
            lock-timeout: 5s
          reports-dir:
            type: vfs
            uri: %s
        issuer: main
        lease:
          ttl: 2s
          renew-every: 500ms
          holder: cli-test
        destinations:
          reports:
            store: reports-dir
        %s"""
            .formatted(db(), dir.resolve("reports").toUri(), extra));
  }

  private Path config() throws Exception {
    return config("");
  }

  private Optional<dev.fenceline.spi.PointerState> published() {
    try (JdbcStore store = JdbcStore.sqlite(db())) {
      return store.pointerStore("reports").current(RESOURCE);
    }
  }

  @Test
  void doctorPrintsEachDestinationsGuaranteeAndWhy() throws Exception {
    Path file = config();

    CliProcess.Result text = CliProcess.run(NO_ENV, "doctor", "--config", file.toString());
    CliProcess.Result json =
        CliProcess.run(NO_ENV, "doctor", "--config", file.toString(), "--json");

    assertThat(text.exitCode()).as(text.transcript()).isEqualTo(0);
    assertThat(text.out())
        .contains("DESTINATION", "GUARANTEE", "STRATEGY")
        .containsPattern("reports +vfs +FENCED_BY_STAGING +STAGED_WITH_POINTER_STORE")
        .contains("why: vfs store reports-dir: it offers no pointer store");
    assertThat(text.err()).isEmpty();
    JsonNode document = new JsonMapper().readTree(json.out());
    assertThat(json.exitCode()).isEqualTo(0);
    assertThat(document.get("exit").asString()).isEqualTo("OK");
    assertThat(document.get("destinations").get(0).get("guarantee").asString())
        .isEqualTo("FENCED_BY_STAGING");
  }

  @Test
  void doctorAdvisesALeaseLengthFromThePausesItObserved() throws Exception {
    Path file = config();

    CliProcess.Result advice =
        CliProcess.run(
            NO_ENV, "doctor", "--config", file.toString(), "--advise", "--observe", "1s");
    CliProcess.Result json =
        CliProcess.run(
            NO_ENV, "doctor", "--config", file.toString(), "--advise", "--observe", "1s", "--json");

    assertThat(advice.exitCode()).as(advice.transcript()).isEqualTo(0);
    assertThat(advice.out())
        .containsPattern("(?i)ttl")
        .contains("not a universal bound")
        .contains("FENCED_BY_STAGING");
    assertThat(json.exitCode()).as(json.transcript()).isEqualTo(0);
    assertThat(new JsonMapper().readTree(json.out()).toString()).containsIgnoringCase("ttl");
  }

  @Test
  void doctorNamesTheRuleEachHttpDestinationsReSendsFollow() throws Exception {
    String destinations =
        """
          with-lookup:
            type: http
            base-uri: https://api.example.com/v1
            lookup: {path: '/payments?idempotency_key={key}', record-pointer: /data/0}
            request: {path: /payments}
          keys-honoured:
            type: http
            base-uri: https://api.example.com/v1
            keys-honoured: true
            request: {path: /payments}
          send-once:
            type: http
            base-uri: https://api.example.com/v1
            max-attempts: 1
            request: {path: /payments}
        allow-fenced-at-intent: true
        """;
    Path file = config(destinations);

    CliProcess.Result text = CliProcess.run(NO_ENV, "doctor", "--config", file.toString());
    CliProcess.Result json =
        CliProcess.run(NO_ENV, "doctor", "--config", file.toString(), "--json");

    assertThat(text.exitCode()).as(text.transcript()).isEqualTo(0);
    assertThat(text.out())
        .contains("re-sends: lookup first: every re-send after an attempt that may have reached")
        .contains("GET /payments?idempotency_key={key} first")
        .contains("re-sends: keys honoured (declared, no lookup): up to 3 attempts per call")
        .contains("applies it again on every re-send")
        .contains("re-sends: send once (no lookup, one attempt)");
    JsonNode rows = new JsonMapper().readTree(json.out()).get("destinations");
    List<String> rules = new ArrayList<>();
    rows.forEach(row -> rules.add(row.path("re-sends").asString("-")));
    assertThat(rules).hasSize(4);
    assertThat(rules.get(0)).isEqualTo("-"); // the staged destination has no re-send rule
    assertThat(rules.subList(1, 4))
        .satisfiesExactly(
            rule -> assertThat(rule).startsWith("lookup first"),
            rule -> assertThat(rule).startsWith("keys honoured"),
            rule -> assertThat(rule).startsWith("send once"));

    // Without a lookup and without the declaration, the file is refused at its line.
    Files.writeString(
        file, Files.readString(file).replace("keys-honoured: true\n", "max-attempts: 2\n"));
    CliProcess.Result refused = CliProcess.run(NO_ENV, "doctor", "--config", file.toString());
    assertThat(refused.exitCode()).as(refused.transcript()).isEqualTo(2);
    assertThat(refused.errLines())
        .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
        .startsWith("fenceline: Cannot configure destinations.keys-honoured.keys-honoured at ")
        .contains("max-attempts 2", "Idempotency-Key", "keys-honoured: true", "max-attempts: 1");
  }

  @Test
  void doctorRefusesAGuaranteeWeakerThanTheFileAllows() throws Exception {
    Path file =
        config(
            """
              api:
                type: http
                base-uri: https://api.example.com/v1
                keys-honoured: true
                request:
                  method: POST
                  path: /things/{resource}
            """);

    CliProcess.Result refused = CliProcess.run(NO_ENV, "doctor", "--config", file.toString());

    assertThat(refused.exitCode()).as(refused.transcript()).isEqualTo(2);
    assertThat(refused.out()).containsPattern("api +http +FENCED_AT_INTENT");
    assertThat(refused.errLines())
        .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
        .startsWith("fenceline: Cannot accept api (FENCED_AT_INTENT, set allow-fenced-at-intent:");

    Files.writeString(file, Files.readString(file) + "allow-fenced-at-intent: true\n");
    CliProcess.Result allowed = CliProcess.run(NO_ENV, "doctor", "--config", file.toString());
    assertThat(allowed.exitCode()).as(allowed.transcript()).isEqualTo(0);
  }

  @Test
  void publishingTwiceWithTheSameOperationPrintsTheSameReceiptAndSaysItWasAlreadyApplied()
      throws Exception {
    Path file = config();
    Path report = Files.writeString(dir.resolve("report.csv"), "day,total\n2026-10-27,42\n");
    String[] args = {
      "publish",
      "--config",
      file.toString(),
      "--destination",
      "reports",
      "--resource",
      RESOURCE.value(),
      "--operation",
      "report-2026-10-27"
    };

    CliProcess.Result first = CliProcess.run(NO_ENV, append(args, report.toString()));
    CliProcess.Result second;
    try (CliProcess fromStdin = CliProcess.start(NO_ENV, report, append(args, "-"))) {
      second = fromStdin.waitFor(WAIT);
    }

    assertThat(first.exitCode()).as(first.transcript()).isEqualTo(0);
    assertThat(second.exitCode()).as(second.transcript()).isEqualTo(0);
    assertThat(first.out()).startsWith("applied: nightly-report operation report-2026-10-27");
    assertThat(second.out()).startsWith("already applied: operation report-2026-10-27");
    String receipt = receiptLine(first.out());
    assertThat(receipt).contains("epoch=1", "sha256=", "size=24");
    assertThat(receiptLine(second.out())).isEqualTo(receipt);
    // Not a terminal: no progress indicator, and nothing else on standard error.
    assertThat(first.err()).isEmpty();
    assertThat(second.err()).isEmpty();
    assertThat(published()).get().extracting(state -> state.epoch().value()).isEqualTo(1L);
  }

  @Test
  void runStopsTheCommandWhenTheLeaseIsLostAndPublishesNothing() throws Exception {
    Path file = config();
    Path output = dir.resolve("out.csv");
    String script =
        "echo payload > '" + output + "'; sleep 60 & echo \"started $FENCELINE_EPOCH $!\"; wait";

    CliProcess.Result result;
    long sleeper;
    try (CliProcess run =
        CliProcess.start(
            NO_ENV,
            "run",
            "--config",
            file.toString(),
            "--resource",
            RESOURCE.value(),
            "--grace",
            "2s",
            "--publish",
            "reports:" + output,
            "--operation",
            "run-1",
            "--",
            "sh",
            "-c",
            script)) {
      String started = run.awaitOut(line -> line.startsWith("started "), WAIT);
      sleeper = Long.parseLong(started.split(" ")[2]);
      assertThat(started.split(" ")[1]).isEqualTo("1");
      try (Connection holder =
              DriverManager.getConnection("jdbc:sqlite:" + db().toUri().toASCIIString());
          Statement statement = holder.createStatement()) {
        statement.execute("BEGIN IMMEDIATE"); // renewals cannot commit from here on
        run.awaitErr(line -> line.contains("lost the lease"), WAIT);
        statement.execute("ROLLBACK"); // a publish after the loss would now go through
      }
      result = run.waitFor(WAIT);
    }

    assertThat(result.exitCode()).as(result.transcript()).isEqualTo(ExitCode.LEASE_LOST.code());
    assertThat(result.errLines())
        .as(result.transcript())
        .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
        .startsWith("fenceline: Cannot finish sh -c")
        .contains("lost the lease on nightly-report at epoch 1", "publishing nothing");
    assertThat(ProcessHandle.of(sleeper).map(ProcessHandle::isAlive).orElse(false))
        .as("the command's child process was stopped too")
        .isFalse();
    assertThat(Files.readString(output)).isEqualTo("payload\n");
    assertThat(published()).as("nothing was published").isEmpty();
  }

  @Test
  void runExitsAtOnceWithoutStartingTheCommandWhenAnotherHolderHasTheLease() throws Exception {
    Path file = config();
    Path marker = dir.resolve("started");
    CliProcess.run(NO_ENV, "doctor", "--config", file.toString()); // creates the schema
    CliProcess.Result result;
    try (JdbcStore store = JdbcStore.sqlite(db())) {
      assertThat(store.leaseIssuer().tryAcquire(RESOURCE, "other-host", Duration.ofMinutes(5)))
          .isPresent();

      result =
          CliProcess.run(
              NO_ENV,
              "run",
              "--config",
              file.toString(),
              "--resource",
              RESOURCE.value(),
              "--",
              "touch",
              marker.toString());
    }

    assertThat(result.exitCode())
        .as(result.transcript())
        .isEqualTo(ExitCode.LEASE_NOT_ACQUIRED.code());
    assertThat(marker).as("the command never started").doesNotExist();
    assertThat(result.errLines())
        .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
        .startsWith(
            "fenceline: Cannot acquire the lease on nightly-report: it is held by other-host");
  }

  @Test
  void runPublishesWhatTheCommandProducedWithTheSameEpoch() throws Exception {
    Path file = config();
    Path output = dir.resolve("out.txt");
    String script =
        "echo \"$FENCELINE_EPOCH $FENCELINE_RESOURCE $FENCELINE_HOLDER\" > '" + output + "'";
    // An earlier run so that the epoch is not simply 1.
    CliProcess.run(
        NO_ENV, "run", "--config", file.toString(), "--resource", RESOURCE.value(), "--", "true");

    CliProcess.Result result =
        CliProcess.run(
            NO_ENV,
            "run",
            "--config",
            file.toString(),
            "--resource",
            RESOURCE.value(),
            "--publish",
            "reports:" + output,
            "--operation",
            "run-2",
            "--verbose",
            "--",
            "sh",
            "-c",
            script);
    CliProcess.Result status =
        CliProcess.run(
            NO_ENV,
            "status",
            "--config",
            file.toString(),
            RESOURCE.value(),
            "--destination",
            "reports",
            "--json");

    assertThat(result.exitCode()).as(result.transcript()).isEqualTo(0);
    assertThat(Files.readString(output)).isEqualTo("2 nightly-report cli-test\n");
    assertThat(result.out()).as("standard output is CMD's, and it printed nothing").isEmpty();
    assertThat(result.err())
        .contains(
            "fenceline: applied: nightly-report operation run-2 published to reports at epoch 2");
    assertThat(receiptLine(result.err().replace("fenceline: ", "")))
        .contains("operation=run-2 epoch=2");
    assertThat(published()).get().extracting(state -> state.epoch().value()).isEqualTo(2L);
    JsonNode document = new JsonMapper().readTree(status.out());
    assertThat(status.exitCode()).as(status.transcript()).isEqualTo(0);
    assertThat(document.at("/lease/held").asBoolean()).isFalse();
    assertThat(document.at("/destination/published/epoch").asLong()).isEqualTo(2);
    assertThat(document.at("/destination/receipt/operation").asString()).isEqualTo("run-2");
  }

  @Test
  void runReportsTheCommandsFailureAsCommandFailedAndPublishesNothing() throws Exception {
    Path file = config();
    Path output = Files.writeString(dir.resolve("out.txt"), "half-done\n");

    CliProcess.Result result =
        CliProcess.run(
            NO_ENV,
            "run",
            "--config",
            file.toString(),
            "--resource",
            RESOURCE.value(),
            "--publish",
            "reports:" + output,
            "--operation",
            "run-3",
            "--",
            "sh",
            "-c",
            "exit 42");

    assertThat(result.exitCode()).as(result.transcript()).isEqualTo(ExitCode.COMMAND_FAILED.code());
    assertThat(result.err())
        .isEqualTo("fenceline: sh -c exit 42 exited with status 42; nothing was published\n");
    assertThat(result.out()).isEmpty();
    assertThat(published()).isEmpty();
  }

  @Test
  void eachConfigMistakeIsOneLineNamingFileLineAndKey() throws Exception {
    Path file = config();
    String good = Files.readString(file);
    String location = file + ":";
    Map<String, String> mistakes =
        Map.of(
            "stores.main.lock-timout", good.replace("lock-timeout: 5s", "lock-timout: 5s"),
            "lease.ttl", good.replace("ttl: 2s", "ttl: two seconds"),
            "stores.main.url", good.replace("url: jdbc:sqlite:", "url: ${FENCELINE_NO_SUCH_HOME}/"),
            "stores.reports-dir.type", good.replace("type: vfs", "type: ftp"));
    List<String> messages = new ArrayList<>();
    for (Map.Entry<String, String> mistake : mistakes.entrySet()) {
      Files.writeString(file, mistake.getValue());

      CliProcess.Result result = CliProcess.run(NO_ENV, "doctor", "--config", file.toString());

      assertThat(result.exitCode()).as(result.transcript()).isEqualTo(2);
      assertThat(result.out()).isEmpty();
      assertThat(result.errLines())
          .as(mistake.getKey())
          .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
          .startsWith("fenceline: Cannot configure " + mistake.getKey() + " at " + location)
          .containsPattern(":\\d+:\\d+: ");
      messages.add(result.err());
    }
    assertThat(String.join("", messages))
        .contains("did you mean \"lock-timeout\"")
        .contains("is not a duration")
        .contains("environment variable FENCELINE_NO_SUCH_HOME is not set")
        .contains("unknown store type \"ftp\"");
  }

  @Test
  void aPasswordNeverAppearsInAnyOutput() throws Exception {
    String password = "Pa55-w0rd-s3cret";
    Map<String, String> env = Map.of("FENCELINE_DB_PASSWORD", password);
    Path file =
        config(
            """
              pg-reports:
                store: reports-dir
                pointer-store: pg
            """);
    Files.writeString(
        file,
        Files.readString(file)
            .replace(
                "issuer: main",
                """
                  pg:
                    type: jdbc
                    url: jdbc:postgresql://127.0.0.1:1/fenceline?user=app&password=${FENCELINE_DB_PASSWORD}
                    login-timeout: 2s
                  pg-key:
                    type: jdbc
                    url: jdbc:postgresql://127.0.0.1:1/fenceline
                    user: app
                    password: ${FENCELINE_DB_PASSWORD}
                    login-timeout: 2s
                issuer: main"""));
    Path report = Files.writeString(dir.resolve("report.csv"), "x\n");
    String config = file.toString();
    List<String[]> commands =
        List.of(
            new String[] {"doctor", "--config", config},
            new String[] {"doctor", "--config", config, "--json"},
            new String[] {"status", "--config", config, "x", "--destination", "pg-reports"},
            new String[] {
              "status", "--config", config, "x", "--destination", "pg-reports", "--json"
            },
            new String[] {
              "publish",
              "--config",
              config,
              "--destination",
              "pg-reports",
              "--resource",
              "x",
              "--operation",
              "o",
              report.toString()
            },
            new String[] {
              "run",
              "--config",
              config,
              "--resource",
              "x",
              "--publish",
              "pg-reports:" + report,
              "--operation",
              "o",
              "--json",
              "--",
              "true"
            });
    for (String[] command : commands) {
      CliProcess.Result result = CliProcess.run(env, command);

      assertThat(result.out() + result.err())
          .as(String.join(" ", command) + "\n" + result.transcript())
          .doesNotContain(password);
      assertThat(result.exitCode())
          .as(result.transcript())
          .isEqualTo(ExitCode.STORE_UNREACHABLE.code());
    }

    Files.writeString(
        file,
        Files.readString(file)
            .replace("login-timeout: 2s\n  pg-key", "login-timout: 2s\n  pg-key"));
    CliProcess.Result typo = CliProcess.run(env, "doctor", "--config", config);
    assertThat(typo.exitCode()).as(typo.transcript()).isEqualTo(2);
    assertThat(typo.out() + typo.err()).doesNotContain(password);
  }

  private static String receiptLine(String out) {
    return out.lines().filter(line -> line.startsWith("receipt: ")).findFirst().orElseThrow();
  }

  private static String[] append(String[] args, String last) {
    String[] all = java.util.Arrays.copyOf(args, args.length + 1);
    all[args.length] = last;
    return all;
  }
}
