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
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import dev.fenceline.jdbc.JdbcStore;
import dev.fenceline.spi.PointerState;
import dev.fenceline.spi.ResourceId;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.json.JsonMapper;

/**
 * Ctrl-C and SIGTERM while {@code fenceline publish} uploads, and SIGTERM while {@code fenceline
 * run} runs CMD: separate processes on SQLite and a local directory. The upload is held at a known
 * point by the test itself: it publishes standard input from a pipe the test writes 8 MiB into and
 * keeps open, and signals once the staged file holds part of it. The lease's ttl (60 s) is far
 * longer than the test, so a free lease afterwards was released, not expired.
 */
@Timeout(180) // a failure detector only
class PublishInterruptionTest {

  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final Map<String, String> NO_ENV = Map.of();
  private static final ResourceId RESOURCE = ResourceId.of("nightly-report");

  @TempDir Path dir;

  private Path config() {
    return StagedCli.localConfig(
        dir, "lock-timeout: 5s", "ttl: 60s\nrenew-every: 20s\nholder: interrupt-test");
  }

  private String[] publish(Path config, String operation, String file) {
    return new String[] {
      "publish",
      "--config",
      config.toString(),
      "--destination",
      "reports",
      "--resource",
      RESOURCE.value(),
      "--operation",
      operation,
      file
    };
  }

  @Test
  void sigtermWhilePublishingRemovesThePartialFileReleasesTheLeaseAndPublishesNothing()
      throws Exception {
    interruptAnUpload("TERM", ExitCode.TERMINATED.code());
  }

  @Test
  void ctrlCWhilePublishingRemovesThePartialFileReleasesTheLeaseAndPublishesNothing()
      throws Exception {
    interruptAnUpload("INT", ExitCode.INTERRUPTED.code());
  }

  private void interruptAnUpload(String signal, int expectedExit) throws Exception {
    Path config = config();
    Path first = Files.writeString(dir.resolve("v1.csv"), "version 1\n");
    CliProcess.Result published =
        CliProcess.run(NO_ENV, publish(config, "report-1", first.toString()));
    assertThat(published.exitCode()).as(published.transcript()).isZero();
    List<Path> before = stagedFiles();

    CliProcess.Result interrupted;
    try (CliProcess cli = CliProcess.startPiped(NO_ENV, publish(config, "report-2", "-"))) {
      OutputStream input = cli.input();
      input.write(new byte[8 << 20]);
      input.flush();
      await(
          () -> stagedFiles().stream().anyMatch(file -> !before.contains(file) && size(file) > 0),
          "part of the upload is in a staged file\n" + stagedFiles());

      assumeFalse(
          ignores(cli.pid(), signal),
          "this test's process tree ignores SIG" + signal + " (started in the background?)");
      kill(cli.pid(), signal); // standard input stays open: the upload waits for more
      interrupted = cli.waitFor(WAIT);
    }

    assertThat(interrupted.exitCode()).as(interrupted.transcript()).isEqualTo(expectedExit);
    assertThat(interrupted.errLines())
        .as(interrupted.transcript())
        .containsExactly(
            "fenceline: interrupted (SIG"
                + signal
                + ") while publishing standard input to reports: nothing was published; the"
                + " lease on nightly-report was released");
    assertThat(interrupted.out()).isEmpty();
    assertThat(stagedFiles()).as("the partial staged file was removed").isEqualTo(before);
    assertThat(current()).get().extracting(PointerState::operation).hasToString("report-1");
    assertThat(leaseHeld(config)).as("the lease at the issuer").isFalse();

    Path second = Files.writeString(dir.resolve("v2.csv"), "version 2\n");
    CliProcess.Result retry =
        CliProcess.run(NO_ENV, publish(config, "report-2", second.toString()));
    assertThat(retry.exitCode()).as("a retry at once\n" + retry.transcript()).isZero();
    assertThat(retry.out()).startsWith("applied: nightly-report operation report-2");
  }

  @Test
  void sigtermWhileRunRunsTheCommandStopsItAndReleasesTheLease() throws Exception {
    Path config = config();
    CliProcess.Result result;
    long commandPid;
    try (CliProcess cli =
        CliProcess.start(
            NO_ENV,
            "run",
            "--config",
            config.toString(),
            "--resource",
            RESOURCE.value(),
            "--grace",
            "5s",
            "--",
            "sh",
            "-c",
            "echo started $$; exec sleep 60")) {
      String started = cli.awaitOut(line -> line.startsWith("started "), WAIT);
      commandPid = Long.parseLong(started.substring("started ".length()).strip());

      kill(cli.pid(), "TERM");
      result = cli.waitFor(WAIT);
    }

    assertThat(result.exitCode()).as(result.transcript()).isEqualTo(ExitCode.TERMINATED.code());
    assertThat(result.errLines())
        .as(result.transcript())
        .containsExactly(
            "fenceline: interrupted (SIGTERM) while running sh -c echo started $$; exec sleep 60"
                + " (pid "
                + commandPid
                + "): CMD was stopped and nothing was published; the lease on nightly-report was"
                + " released");
    assertThat(ProcessHandle.of(commandPid).map(ProcessHandle::isAlive))
        .as("CMD after fenceline exited")
        .isNotEqualTo(Optional.of(true));
    assertThat(leaseHeld(config)).as("the lease at the issuer").isFalse();
  }

  private boolean leaseHeld(Path config) {
    CliProcess.Result status =
        CliProcess.run(NO_ENV, "status", "--config", config.toString(), RESOURCE.value(), "--json");
    assertThat(status.exitCode()).as(status.transcript()).isZero();
    return JsonMapper.builder()
        .build()
        .readTree(status.out())
        .path("lease")
        .path("held")
        .asBoolean();
  }

  private Optional<PointerState> current() {
    try (JdbcStore store = JdbcStore.sqlite(dir.resolve("fenceline.db"))) {
      return store.pointerStore("reports").current(RESOURCE);
    }
  }

  /** Every file under the staging area of the reports directory. */
  private List<Path> stagedFiles() {
    Path staging = dir.resolve("reports").resolve(".fenceline").resolve("staging");
    if (!Files.isDirectory(staging)) {
      return List.of();
    }
    try (Stream<Path> files = Files.walk(staging)) {
      return files.filter(Files::isRegularFile).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static long size(Path file) {
    try {
      return Files.size(file);
    } catch (IOException e) {
      return 0; // deleted meanwhile
    }
  }

  /**
   * True if the process ignores {@code signal} (inherited from a shell that started this build in
   * the background): the JVM then installs no handler for it, as a real user's would not either.
   */
  private static boolean ignores(long pid, String signal) throws IOException {
    int number = signal.equals("INT") ? 2 : signal.equals("TERM") ? 15 : 1;
    for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
      if (line.startsWith("SigIgn:")) {
        long mask = Long.parseUnsignedLong(line.substring("SigIgn:".length()).strip(), 16);
        return (mask & (1L << (number - 1))) != 0;
      }
    }
    return false;
  }

  /** Sends {@code signal} with kill(1), as a user or a service manager would. */
  private static void kill(long pid, String signal) throws Exception {
    Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).inheritIO().start();
    assertThat(kill.waitFor()).as("kill -" + signal).isZero();
  }

  /** Waits for a condition the process under test brings about (a failure detector: 60 s). */
  private static void await(BooleanSupplier condition, String what) throws InterruptedException {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not within " + WAIT + ": " + what);
      }
      Thread.sleep(10);
    }
  }
}
