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
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A SQLite file whose write lock another process holds: {@code status} answers at once (it only
 * looks, so it neither creates tables nor waits for the lock), and a command that needs the lock
 * says on standard error what it waits for instead of hanging in silence. Separate processes.
 */
@Timeout(180) // a failure detector only
class StatusReadOnlyAndLockWaitTest {

  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final Map<String, String> NO_ENV = Map.of();

  @TempDir Path dir;

  private Path db() {
    return dir.resolve("fenceline.db");
  }

  /** A lock timeout longer than any test waits: a command that waits for the lock is seen. */
  private Path config() {
    return StagedCli.localConfig(dir, "lock-timeout: 40s", "");
  }

  /** Holds the database's write lock, as a process inside a long transaction does. */
  private Connection holdWriteLock() throws Exception {
    Connection holder = DriverManager.getConnection("jdbc:sqlite:" + db().toUri().toASCIIString());
    try (Statement statement = holder.createStatement()) {
      statement.execute("BEGIN IMMEDIATE");
    }
    return holder;
  }

  @Test
  void statusOnAStoreNobodyUsedYetSaysSoAndCreatesNothing() throws Exception {
    Path file = config();

    CliProcess.Result result =
        CliProcess.run(NO_ENV, "status", "--config", file.toString(), "nightly-report");

    assertThat(result.exitCode()).as(result.transcript()).isEqualTo(ExitCode.OK.code());
    assertThat(result.out()).contains("lease: free (no leases issued yet)");
    assertThat(db()).as("status created no database file").doesNotExist();
  }

  @Test
  void statusOnAStoreWithoutTablesCreatesNone() throws Exception {
    Path file = config();
    try (Connection empty =
            DriverManager.getConnection("jdbc:sqlite:" + db().toUri().toASCIIString());
        Statement statement = empty.createStatement()) {
      statement.execute("CREATE TABLE unrelated (a INTEGER)");
    }

    CliProcess.Result result =
        CliProcess.run(NO_ENV, "status", "--config", file.toString(), "nightly-report");

    assertThat(result.exitCode()).as(result.transcript()).isEqualTo(ExitCode.OK.code());
    assertThat(result.out()).contains("no leases issued yet");
    try (Connection check =
            DriverManager.getConnection("jdbc:sqlite:" + db().toUri().toASCIIString());
        Statement statement = check.createStatement();
        var rows =
            statement.executeQuery(
                "SELECT count(*) FROM sqlite_master WHERE name LIKE 'fenceline%'")) {
      rows.next();
      assertThat(rows.getInt(1)).as("no Fenceline table was created").isZero();
    }
  }

  @Test
  void statusAnswersWhileAnotherProcessHoldsTheWriteLock() throws Exception {
    Path file = config();
    try (JdbcStore store = JdbcStore.sqlite(db())) {
      store.leaseIssuer(); // the tables exist, as after any earlier run
    }
    CliProcess.Result result;
    long started;
    try (Connection holder = holdWriteLock()) {
      started = System.nanoTime();
      result = CliProcess.run(NO_ENV, "status", "--config", file.toString(), "nightly-report");
    }
    Duration took = Duration.ofNanos(System.nanoTime() - started);

    // Before: status migrated in a write transaction and waited the whole lock timeout (40 s).
    assertThat(result.exitCode()).as(result.transcript()).isEqualTo(ExitCode.OK.code());
    assertThat(result.out()).contains("lease: free");
    assertThat(result.err()).as(result.transcript()).doesNotContain("waiting for");
    assertThat(took).as("status did not wait for the lock").isLessThan(Duration.ofSeconds(30));
  }

  @Test
  void aPublishThatWaitsForTheLockSaysWhatItWaitsFor() throws Exception {
    Path file = config();
    Path report = Files.writeString(dir.resolve("report.csv"), "a,b\n");
    try (JdbcStore store = JdbcStore.sqlite(db())) {
      store.leaseIssuer();
    }
    CliProcess.Result result;
    try (CliProcess publish =
        CliProcess.start(
            NO_ENV,
            "publish",
            "--config",
            file.toString(),
            "--destination",
            "reports",
            "--resource",
            "nightly-report",
            "--operation",
            "report-1",
            report.toString())) {
      try (Connection holder = holdWriteLock()) {
        String line = publish.awaitErr(text -> text.contains("waiting for"), WAIT);
        assertThat(line)
            .isEqualTo(
                "fenceline: waiting for the SQLite write lock on "
                    + db().toAbsolutePath()
                    + " (held by another connection or process; lock-timeout 40s)");
        try (Statement statement = holder.createStatement()) {
          statement.execute("ROLLBACK"); // the publish goes on once the lock is free
        }
      }
      result = publish.waitFor(WAIT);
    }

    assertThat(result.exitCode()).as(result.transcript()).isEqualTo(ExitCode.OK.code());
  }
}
