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

import dev.fenceline.config.LeaseConfig;
import dev.fenceline.jdbc.JdbcStore;
import dev.fenceline.spi.ResourceId;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A lease held by a process of this host that died without releasing it ({@code host:pid}, the
 * default holder): {@code publish}, {@code run} and {@code status} say so, and that the lease ends
 * at its expiry; nothing is taken over. Separate processes.
 */
@Timeout(120) // a failure detector only
class DeadLeaseHolderTest {

  private static final Map<String, String> NO_ENV = Map.of();
  private static final ResourceId RESOURCE = ResourceId.of("nightly-report");

  @TempDir Path dir;

  private Path db() {
    return dir.resolve("fenceline.db");
  }

  private Path config() {
    return StagedCli.localConfig(dir, "", "");
  }

  /** {@code host:pid} of this host for a process that has ended. */
  private static String deadHolder() throws Exception {
    Process gone = new ProcessBuilder("true").start();
    gone.waitFor();
    assertThat(ProcessHandle.of(gone.pid())).isEmpty();
    return thisHost() + ":" + gone.pid();
  }

  private static String thisHost() {
    String own = LeaseConfig.defaultHolder();
    return own.substring(0, own.lastIndexOf(':'));
  }

  private void holdLease(String holder) {
    try (JdbcStore store = JdbcStore.sqlite(db())) {
      assertThat(store.leaseIssuer().tryAcquire(RESOURCE, holder, Duration.ofMinutes(10)))
          .isPresent();
    }
  }

  @Test
  void publishAndStatusSayTheHolderIsNoLongerRunning() throws Exception {
    Path file = config();
    String holder = deadHolder();
    holdLease(holder);
    Path report = Files.writeString(dir.resolve("report.csv"), "a\n");

    CliProcess.Result publish =
        CliProcess.run(
            NO_ENV,
            "publish",
            "--config",
            file.toString(),
            "--destination",
            "reports",
            "--resource",
            RESOURCE.value(),
            "--operation",
            "report-1",
            report.toString());
    CliProcess.Result run =
        CliProcess.run(
            NO_ENV,
            "run",
            "--config",
            file.toString(),
            "--resource",
            RESOURCE.value(),
            "--",
            "true");
    CliProcess.Result status =
        CliProcess.run(NO_ENV, "status", "--config", file.toString(), RESOURCE.value());

    String dead =
        "held by "
            + holder
            + ", a process that is no longer running on this host; the lease"
            + " expires at ";
    assertThat(publish.exitCode())
        .as(publish.transcript())
        .isEqualTo(ExitCode.LEASE_NOT_ACQUIRED.code());
    assertThat(publish.err())
        .as(publish.transcript())
        .startsWith("fenceline: Cannot acquire the lease on nightly-report: it is " + dead)
        .contains("by the issuer's clock at epoch 1 (nothing was started; run again after that");
    assertThat(run.exitCode()).as(run.transcript()).isEqualTo(ExitCode.LEASE_NOT_ACQUIRED.code());
    assertThat(run.err()).as(run.transcript()).contains(dead);
    assertThat(status.exitCode()).as(status.transcript()).isEqualTo(ExitCode.OK.code());
    assertThat(status.out()).as(status.transcript()).contains("lease: " + dead);
  }

  @Test
  void aLiveHolderIsNotCalledDead() throws Exception {
    Path file = config();
    String holder = thisHost() + ":" + ProcessHandle.current().pid(); // this test JVM
    holdLease(holder);

    CliProcess.Result status =
        CliProcess.run(NO_ENV, "status", "--config", file.toString(), RESOURCE.value());

    assertThat(status.out())
        .as(status.transcript())
        .contains("lease: held by " + holder + " at epoch 1")
        .doesNotContain("no longer running");
  }
}
