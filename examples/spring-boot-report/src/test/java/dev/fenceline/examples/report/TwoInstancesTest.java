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
package dev.fenceline.examples.report;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.fenceline.config.FencelineConfig;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.staging.StagedDestination;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The example's claim, run as a user would: two instances of the application with a 1 s lease on
 * one SQLite file. The first acquires the lease and computes its report, then its whole JVM is
 * frozen with SIGSTOP (the GC pause or VM freeze of the article) before it publishes. Its lease
 * expires; the second takes over with a newer epoch and publishes. The first resumes, publishes
 * with its old token, and the destination rejects it: the published report is the second's.
 */
class TwoInstancesTest {

  /** Starting a Spring Boot JVM on a loaded 2-core machine can take a while. */
  private static final Duration STARTUP = Duration.ofSeconds(90);

  private static final Pattern STALLED = Pattern.compile("STALLED epoch=(\\d+)");
  private static final Pattern APPLIED = Pattern.compile("outcome=APPLIED epoch=(\\d+)");
  private static final Pattern REJECTED =
      Pattern.compile("outcome=REJECTED_STALE epoch=(\\d+) current=(\\d+)");

  @TempDir Path home;

  @Test
  void theFrozenInstancesLatePublishIsRejectedAndTheSecondInstancesReportStaysPublished()
      throws Exception {
    long epochA;
    long epochB;
    try (AppInstance a = AppInstance.start("A", arguments("A", true))) {
      epochA = Long.parseLong(a.await(STALLED, STARTUP).group(1));
      freezeOutsideATransaction(a);

      try (AppInstance b = AppInstance.start("B", arguments("B", false))) {
        epochB = Long.parseLong(b.await(APPLIED, STARTUP).group(1));
        assertThat(epochB).as("B's epoch after A's lease expired").isGreaterThan(epochA);

        a.resume();
        a.send("go");
        Matcher rejected = a.await(REJECTED, Duration.ofSeconds(60));

        assertThat(Long.parseLong(rejected.group(1))).isEqualTo(epochA);
        assertThat(Long.parseLong(rejected.group(2))).isGreaterThanOrEqualTo(epochB);
        assertThat(a.output()).doesNotContain("outcome=APPLIED");
      }
    }

    assertThat(published()).startsWith("Nightly report for ").endsWith("computed by instance B\n");
  }

  private List<String> arguments(String instance, boolean stall) {
    return List.of(
        "--nightly-report.home=" + home,
        "--nightly-report.instance=" + instance,
        "--nightly-report.cron=* * * * * *",
        "--nightly-report.demo-stall=" + stall,
        "--fenceline.lease.ttl=1s",
        "--fenceline.lease.holder=instance-" + instance,
        "--spring.main.banner-mode=off");
  }

  /**
   * Freezes {@code a} where it holds no SQLite write lock (a background renewal may be in its
   * transaction at the moment of the signal, and B would wait for it): stops it, and if the lock is
   * taken, lets it run on briefly and stops it again.
   */
  private void freezeOutsideATransaction(AppInstance a) throws Exception {
    for (int attempt = 1; attempt <= 5; attempt++) {
      a.freeze();
      if (!writeLockHeld()) {
        return;
      }
      a.resume();
      writeLockHeld(); // waits (busy timeout) for A to end the transaction it was stopped in
    }
    throw new AssertionError("A was stopped inside a SQLite transaction 5 times in a row");
  }

  private boolean writeLockHeld() throws SQLException {
    try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + database());
        Statement statement = connection.createStatement()) {
      statement.execute("PRAGMA busy_timeout = 200");
      try {
        statement.execute("BEGIN IMMEDIATE");
        statement.execute("ROLLBACK");
        return false;
      } catch (SQLException e) {
        if (String.valueOf(e.getMessage()).contains("SQLITE_BUSY")) {
          return true;
        }
        throw e;
      }
    }
  }

  /** The report the destination publishes now, read as any reader would (through the pointer). */
  private String published() throws Exception {
    Path yaml = home.resolve("reader.yaml");
    Files.writeString(
        yaml,
        String.join(
            "\n",
            "stores:",
            "  main: {type: jdbc, url: 'jdbc:sqlite:" + database() + "'}",
            "  reports-dir: {type: vfs, uri: '" + home.resolve("reports") + "'}",
            "issuer: main",
            "destinations:",
            "  reports: {store: reports-dir}",
            ""),
        UTF_8);
    try (FencelineConfig config = FencelineConfig.load(yaml)) {
      StagedDestination reports = config.destination("reports").staged().orElseThrow();
      try (InputStream in = reports.openVerified(ResourceId.of("nightly-report"))) {
        return new String(in.readAllBytes(), UTF_8);
      }
    }
  }

  private Path database() {
    return home.resolve("nightly-report.db");
  }
}
