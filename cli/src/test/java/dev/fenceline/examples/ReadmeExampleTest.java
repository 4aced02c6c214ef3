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
package dev.fenceline.examples;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.fenceline.core.Fenceline;
import dev.fenceline.core.HeldLease;
import dev.fenceline.jdbc.JdbcStore;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.RejectedStale;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.tck.ReadmeExamples;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's JDBC program, run as a newcomer runs it (issue 19, item 12): the {@code ```java}
 * block declaring {@code NightlyReport} is copied, as it stands, into an empty directory and run
 * there with {@code java -cp <modules> NightlyReport.java} (the JDK's source launcher). Nothing is
 * prepared for it: it must create its own table, and its write must land.
 */
class ReadmeExampleTest {

  @TempDir Path directory;

  @Test
  void theReadmeProgramCreatesItsTablePublishesOnceAndReplaysOnRetry() throws Exception {
    Program first = runReadmeProgram("42 orders");
    Program retry = runReadmeProgram("42 orders");

    assertThat(first.exitCode()).as(first.transcript()).isZero();
    assertThat(first.out()).as(first.transcript()).isEqualTo("published under epoch 1\n");
    assertThat(retry.exitCode()).as(retry.transcript()).isZero();
    assertThat(retry.out()).as(retry.transcript()).isEqualTo("already published under epoch 1\n");
    assertThat(reportRows()).containsExactly("2026-10-27: 42 orders@1");
  }

  @Test
  void theReadmeProgramSaysSoWhenAnotherWorkerHoldsTheLease() throws Exception {
    Program program;
    try (JdbcStore store = JdbcStore.sqlite(directory.resolve("fenceline.db"));
        Fenceline other = Fenceline.builder().issuer(store.leaseIssuer()).holder("other").build();
        HeldLease held = other.tryAcquire(ResourceId.of("nightly-report")).orElseThrow()) {
      program = runReadmeProgram("42 orders");
    }

    assertThat(program.exitCode()).as(program.transcript()).isZero();
    assertThat(program.out())
        .as(program.transcript())
        .isEqualTo("nightly-report is held by another worker: nothing to do\n");
    assertThat(program.err()).doesNotContain("Exception");
    assertThat(reportRows()).isEmpty();
  }

  @Test
  void aStaleTokenIsRejectedByTheReadmeProgramsDestination() throws Exception {
    assertThat(runReadmeProgram("42 orders").exitCode()).isZero();

    try (JdbcStore store = JdbcStore.sqlite(directory.resolve("fenceline.db"))) {
      FencingToken stale =
          new FencingToken(store.id(), ResourceId.of("nightly-report"), Epoch.of(1), "old-worker");
      store
          .destination("reports")
          .register(new FencingToken(store.id(), stale.resource(), Epoch.of(2), "new-worker"));
      assertThat(
              store
                  .destination("reports")
                  .write(stale, OperationId.of("report-2026-10-28"), (c, t, o) -> Map.of()))
          .isEqualTo(new RejectedStale(stale.resource(), Epoch.of(1), Epoch.of(2)));
    }
  }

  private record Program(int exitCode, String out, String err) {
    String transcript() {
      return "exit " + exitCode + "\nstdout:\n" + out + "\nstderr:\n" + err;
    }
  }

  /** Copies the README's block into {@code directory} and runs it there in a new JVM. */
  private Program runReadmeProgram(String report) throws IOException, InterruptedException {
    ReadmeExamples.Block block =
        ReadmeExamples.load(ReadmeExamples.repositoryRoot().resolve("docs/jdbc.md"))
            .containing("public class NightlyReport");
    Path source = Files.writeString(directory.resolve("NightlyReport.java"), block.text());
    Path out = directory.resolve("program.out");
    Path err = directory.resolve("program.err");
    Process process =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1",
                "-cp",
                System.getProperty("java.class.path"),
                source.getFileName().toString(),
                report)
            .directory(directory.toFile())
            .redirectOutput(out.toFile())
            .redirectError(err.toFile())
            .start();
    if (!process.waitFor(120, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError(
          "the README program did not end within 120 s\nstderr:\n" + Files.readString(err, UTF_8));
    }
    return new Program(
        process.exitValue(), Files.readString(out, UTF_8), Files.readString(err, UTF_8));
  }

  private List<String> reportRows() throws Exception {
    List<String> rows = new ArrayList<>();
    try (Connection connection =
            DriverManager.getConnection("jdbc:sqlite:" + directory.resolve("fenceline.db"));
        Statement statement = connection.createStatement();
        ResultSet result = statement.executeQuery("SELECT day, body, epoch FROM report")) {
      while (result.next()) {
        rows.add(result.getString(1) + ": " + result.getString(2) + "@" + result.getLong(3));
      }
    }
    return rows;
  }
}
