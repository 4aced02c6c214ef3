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

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.fenceline.jdbc.JdbcStore;
import dev.fenceline.spi.ResourceId;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Issue 19, item 2: {@code run}'s standard output belongs to CMD. Fenceline's own lines go to
 * standard error, a quiet success prints nothing, and {@code --json} is the only standard output
 * when asked for. Each run is a separate process whose standard output and error go to files, as in
 * {@code fenceline run ... > out 2> err}, so the bytes are checked exactly.
 */
@Timeout(120) // a failure detector only
class RunStreamsTest {

  private static final ResourceId RESOURCE = ResourceId.of("nightly-report");

  @TempDir Path dir;

  private Path config() {
    return StagedCli.localConfig(dir, "lock-timeout: 5s", "ttl: 30s\nholder: streams-test");
  }

  /** What {@code fenceline run ... > out 2> err} left in {@code out} and {@code err}. */
  private record Run(int exitCode, String out, String err) {
    String transcript() {
      return "exit " + exitCode + "\nstdout:\n" + out + "\nstderr:\n" + err;
    }
  }

  private Run run(String... args) throws Exception {
    Path out = Files.createTempFile(dir, "stdout", ".txt");
    Path err = Files.createTempFile(dir, "stderr", ".txt");
    List<String> command = new ArrayList<>();
    command.add(
        ProcessHandle.current()
            .info()
            .command()
            .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
    command.add("-XX:+UseSerialGC");
    command.add("-XX:TieredStopAtLevel=1");
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(Main.class.getName());
    command.add("run");
    command.add("--config");
    command.add(config().toString());
    command.add("--resource");
    command.add(RESOURCE.value());
    command.addAll(List.of(args));
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
            .redirectOutput(out.toFile())
            .redirectError(err.toFile());
    builder.environment().keySet().removeIf(name -> name.startsWith("FENCELINE_"));
    Process process = builder.start();
    try {
      if (!process.waitFor(60, TimeUnit.SECONDS)) {
        throw new AssertionError("fenceline run did not exit within 60 s");
      }
    } finally {
      process.descendants().forEach(ProcessHandle::destroyForcibly);
      process.destroyForcibly();
    }
    return new Run(process.exitValue(), Files.readString(out, UTF_8), Files.readString(err, UTF_8));
  }

  @Test
  void aQuietSuccessLeavesExactlyTheCommandsOutputAndNothingOnStandardError() throws Exception {
    Run run = run("--", "echo", "hi");

    assertThat(run.exitCode()).as(run.transcript()).isEqualTo(ExitCode.OK.code());
    assertThat(run.out()).as(run.transcript()).isEqualTo("hi\n");
    assertThat(run.err()).as(run.transcript()).isEmpty();
  }

  @Test
  void verboseSaysWhatFencelineDidOnStandardErrorOnly() throws Exception {
    for (String verbose : List.of("--verbose", "-v")) {
      Run run = run(verbose, "--", "echo", "hi");

      assertThat(run.exitCode()).as(run.transcript()).isEqualTo(ExitCode.OK.code());
      assertThat(run.out()).as(run.transcript()).isEqualTo("hi\n");
      assertThat(run.err().lines().toList())
          .as(run.transcript())
          .hasSize(2)
          .allMatch(line -> line.startsWith("fenceline: "))
          .anyMatch(line -> line.matches("fenceline: running echo hi \\(pid \\d+\\) under .*"))
          .contains("fenceline: ran echo hi at epoch " + epochOf(run) + ": exit status 0");
    }
  }

  @Test
  void aFailureLineGoesToStandardErrorAndCommandsOutputStaysAlone() throws Exception {
    Run run = run("--", "sh", "-c", "echo partial; exit 3");

    assertThat(run.exitCode()).as(run.transcript()).isEqualTo(ExitCode.COMMAND_FAILED.code());
    assertThat(run.out()).as(run.transcript()).isEqualTo("partial\n");
    assertThat(run.err())
        .as(run.transcript())
        .isEqualTo(
            "fenceline: sh -c echo partial; exit 3 exited with status 3; nothing was published\n");
  }

  @Test
  void aQuietPublishingRunPrintsOnlyWhatTheCommandPrints() throws Exception {
    Path produced = dir.resolve("report.csv");
    String script = "echo 'a,b' > '" + produced + "'; echo 'wrote the report'";

    Run quiet =
        run("--publish", "reports:" + produced, "--operation", "night-1", "--", "sh", "-c", script);
    Run verbose =
        run(
            "--verbose",
            "--publish",
            "reports:" + produced,
            "--operation",
            "night-2",
            "--",
            "sh",
            "-c",
            script);

    assertThat(quiet.exitCode()).as(quiet.transcript()).isEqualTo(ExitCode.OK.code());
    assertThat(quiet.out()).as(quiet.transcript()).isEqualTo("wrote the report\n");
    assertThat(quiet.err()).as(quiet.transcript()).isEmpty();
    assertThat(verbose.exitCode()).as(verbose.transcript()).isEqualTo(ExitCode.OK.code());
    assertThat(verbose.out()).as(verbose.transcript()).isEqualTo("wrote the report\n");
    assertThat(verbose.err())
        .as(verbose.transcript())
        .contains("fenceline: applied: nightly-report operation night-2 published to reports")
        .contains("fenceline: receipt: destination=reports resource=nightly-report");
    try (JdbcStore store = JdbcStore.sqlite(dir.resolve("fenceline.db"))) {
      assertThat(store.pointerStore("reports").current(RESOURCE)).isPresent();
    }
  }

  @Test
  void withJsonTheDocumentIsTheOnlyStandardOutputAndTheCommandsGoesToStandardError()
      throws Exception {
    for (List<String> flags : List.of(List.of("--json"), List.of("--json", "--verbose"))) {
      List<String> args = new ArrayList<>(flags);
      args.addAll(List.of("--", "echo", "hi"));
      Run run = run(args.toArray(String[]::new));

      JsonNode document = new JsonMapper().readTree(run.out());
      assertThat(run.exitCode()).as(run.transcript()).isEqualTo(ExitCode.OK.code());
      assertThat(document.get("exit-code").asInt()).isEqualTo(run.exitCode());
      assertThat(document.get("command-exit-code").asInt()).isZero();
      assertThat(run.out().strip()).startsWith("{").endsWith("}").doesNotContain("hi\n");
      assertThat(run.err().lines()).as(run.transcript()).contains("hi");
    }
  }

  private static String epochOf(Run run) {
    return run.err().replaceAll("(?s).* at epoch (\\d+)\\b.*", "$1");
  }
}
