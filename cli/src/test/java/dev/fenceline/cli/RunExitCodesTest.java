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
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fenceline.jdbc.JdbcStore;
import dev.fenceline.spi.ResourceId;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Issue 19, item 1: {@code run}'s exit status tells Fenceline's own outcomes from CMD's failure,
 * and {@code --json}'s {@code exit-code} is the status the process really exits with. Separate
 * processes on SQLite and a local directory.
 */
@Timeout(180) // a failure detector only
class RunExitCodesTest {

  private static final Map<String, String> NO_ENV = Map.of();
  private static final ResourceId RESOURCE = ResourceId.of("nightly-report");

  @TempDir Path dir;

  /**
   * The issuer on {@code issuer.db}; the destination's pointers (its registered epochs) on {@code
   * pointers.db}, so that the issuer's database can be lost without losing them.
   */
  private Path config() throws Exception {
    Files.createDirectories(dir.resolve("reports"));
    return Files.writeString(
        dir.resolve("fenceline.yaml"),
        """
        stores:
          main:
            type: jdbc
            url: jdbc:sqlite:%s
            lock-timeout: 5s
          pointers:
            type: jdbc
            url: jdbc:sqlite:%s
            lock-timeout: 5s
          reports-dir:
            type: vfs
            uri: %s
        issuer: main
        lease:
          ttl: 30s
          holder: exit-codes-test
        destinations:
          reports:
            store: reports-dir
            pointer-store: pointers
        """
            .formatted(
                dir.resolve("issuer.db"),
                dir.resolve("pointers.db"),
                dir.resolve("reports").toUri()));
  }

  private CliProcess.Result run(Path config, String... rest) {
    List<String> args =
        new ArrayList<>(
            List.of("run", "--config", config.toString(), "--resource", RESOURCE.value()));
    args.addAll(Arrays.asList(rest));
    return CliProcess.run(NO_ENV, args.toArray(String[]::new));
  }

  private static JsonNode json(CliProcess.Result result) {
    return new JsonMapper().readTree(result.out());
  }

  /** The document's exit status is the process's, by number and by name. */
  private static void assertJsonAgrees(CliProcess.Result result, ExitCode expected) {
    JsonNode document = json(result);
    assertThat(result.exitCode()).as(result.transcript()).isEqualTo(expected.code());
    assertThat(document.get("exit-code").asInt())
        .as("--json exit-code is the process's exit status\n" + result.transcript())
        .isEqualTo(result.exitCode());
    assertThat(document.get("exit").asString()).isEqualTo(expected.name());
  }

  @ParameterizedTest(name = "CMD exits {0}")
  @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8, 9, 42, 255})
  void aFailingCommandIsCommandFailedWhateverItsStatus(int status) throws Exception {
    Path config = config();

    CliProcess.Result result = run(config, "--json", "--", "sh", "-c", "exit " + status);

    assertJsonAgrees(result, ExitCode.COMMAND_FAILED);
    JsonNode document = json(result);
    assertThat(document.get("command-exit-code").asInt()).isEqualTo(status);
    assertThat(document.get("published").asBoolean()).isFalse();
    assertThat(document.has("command-signal")).isFalse();
    assertThat(result.err())
        .isEqualTo(
            "fenceline: sh -c exit "
                + status
                + " exited with status "
                + status
                + "; nothing was published\n");
  }

  @Test
  void aCommandExitingAsAFencelineOutcomeIsStillCommandFailedWithoutJson() throws Exception {
    Path config = config();

    for (ExitCode lookalike :
        List.of(ExitCode.REJECTED_STALE, ExitCode.LEASE_NOT_ACQUIRED, ExitCode.OUTCOME_UNKNOWN)) {
      int status = lookalike.code();
      CliProcess.Result result = run(config, "--", "sh", "-c", "exit " + status);

      assertThat(result.exitCode())
          .as(result.transcript())
          .isEqualTo(ExitCode.COMMAND_FAILED.code());
      assertThat(result.out()).isEmpty();
      assertThat(result.err())
          .isEqualTo(
              "fenceline: sh -c exit "
                  + status
                  + " exited with status "
                  + status
                  + "; nothing was published\n");
    }
  }

  @Test
  void aCommandKilledBySignalIsCommandFailedNamingTheSignal() throws Exception {
    Path config = config();

    CliProcess.Result killed = run(config, "--json", "--", "sh", "-c", "kill -KILL $$");
    CliProcess.Result terminated = run(config, "--json", "--", "sh", "-c", "kill -TERM $$");

    assertJsonAgrees(killed, ExitCode.COMMAND_FAILED);
    assertThat(json(killed).get("command-exit-code").asInt()).isEqualTo(128 + 9);
    assertThat(json(killed).get("command-signal").asString()).isEqualTo("SIGKILL");
    assertThat(killed.err())
        .startsWith(
            "fenceline: sh -c kill -KILL $$ exited with status 137 (128+9: killed by SIGKILL")
        .endsWith("; nothing was published\n");
    assertJsonAgrees(terminated, ExitCode.COMMAND_FAILED);
    assertThat(json(terminated).get("command-exit-code").asInt()).isEqualTo(128 + 15);
    assertThat(json(terminated).get("command-signal").asString()).isEqualTo("SIGTERM");
  }

  @Test
  void aSucceedingCommandIsOkInTheStatusAndTheDocument() throws Exception {
    CliProcess.Result result = run(config(), "--json", "--", "true");

    assertJsonAgrees(result, ExitCode.OK);
    assertThat(json(result).get("command-exit-code").asInt()).isZero();
  }

  /**
   * A real stale rejection: the issuer's database is restored from an old backup, so it hands out
   * an epoch the destination has already seen a newer one than. {@code run} exits 3, unlike a CMD
   * that exits 3 (8), and never starts CMD.
   */
  @Test
  void aStaleRejectionIsThreeAndTellsItselfApartFromACommandExitingThree() throws Exception {
    Path config = config();
    Path produced = Files.writeString(dir.resolve("out.txt"), "report\n");
    CliProcess.Result first = run(config, "--", "true"); // epoch 1
    assertThat(first.exitCode()).as(first.transcript()).isZero();
    Path backup = copyIssuerDatabase(dir, Files.createDirectories(dir.resolve("backup")));
    // Epochs 2, 3 and 4, registered at the destination.
    for (String operation : List.of("night-1", "night-2", "night-3")) {
      CliProcess.Result published =
          run(config, "--publish", "reports:" + produced, "--operation", operation, "--", "true");
      assertThat(published.exitCode()).as(published.transcript()).isZero();
    }
    try (var stale = Files.list(dir)) {
      for (Path file : stale.filter(RunExitCodesTest::isIssuerDatabase).toList()) {
        Files.delete(file);
      }
    }
    copyIssuerDatabase(backup, dir); // the issuer is back at epoch 1: it hands out 2 and 3 again
    Path marker = dir.resolve("started");

    CliProcess.Result text =
        run(
            config,
            "--publish",
            "reports:" + produced,
            "--operation",
            "night-4",
            "--",
            "touch",
            marker.toString());
    CliProcess.Result json =
        run(
            config,
            "--json",
            "--publish",
            "reports:" + produced,
            "--operation",
            "night-5",
            "--",
            "touch",
            marker.toString());
    CliProcess.Result lookalike = run(config, "--", "sh", "-c", "exit 3");

    assertThat(text.exitCode()).as(text.transcript()).isEqualTo(ExitCode.REJECTED_STALE.code());
    assertThat(text.err())
        .contains("epoch 2 is older than current epoch 4")
        .doesNotContain("exited with status");
    assertJsonAgrees(json, ExitCode.REJECTED_STALE);
    assertThat(json(json).get("supplied-epoch").asLong()).isEqualTo(3);
    assertThat(json(json).get("current-epoch").asLong()).isEqualTo(4);
    assertThat(marker).as("CMD never started").doesNotExist();
    assertThat(lookalike.exitCode()).isNotEqualTo(text.exitCode());
  }

  private static boolean isIssuerDatabase(Path file) {
    return file.getFileName().toString().startsWith("issuer.db");
  }

  /** Copies {@code issuer.db} and its journal files, if any, from {@code from} to {@code to}. */
  private static Path copyIssuerDatabase(Path from, Path to) throws Exception {
    try (var files = Files.list(from)) {
      for (Path file : files.filter(RunExitCodesTest::isIssuerDatabase).toList()) {
        Files.copy(file, to.resolve(file.getFileName()));
      }
    }
    return to;
  }

  @Test
  void aLeaseHeldElsewhereIsFourInTheStatusAndTheDocument() throws Exception {
    Path config = config();
    CliProcess.Result first = run(config, "--", "true"); // creates the schema
    assertThat(first.exitCode()).as(first.transcript()).isZero();
    Path marker = dir.resolve("started");
    CliProcess.Result result;
    try (JdbcStore store = JdbcStore.sqlite(dir.resolve("issuer.db"))) {
      assertThat(store.leaseIssuer().tryAcquire(RESOURCE, "other-host", Duration.ofMinutes(5)))
          .isPresent();

      result = run(config, "--json", "--", "touch", marker.toString());
    }

    assertJsonAgrees(result, ExitCode.LEASE_NOT_ACQUIRED);
    assertThat(marker).as("CMD never started").doesNotExist();
    assertThat(json(result).has("command-exit-code")).isFalse();
  }

  @Test
  void everyExitStatusIsOneOfTheDocumentedCodes() {
    assertThat(Arrays.stream(ExitCode.values()).mapToInt(ExitCode::code))
        .containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 129, 130, 143);
    for (ExitCode code : ExitCode.values()) {
      assertThat(ExitCode.of(code.code())).isSameAs(code);
    }
    assertThatThrownBy(() -> ExitCode.of(42))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("42");
  }
}
