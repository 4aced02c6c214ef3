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

import dev.fenceline.config.FencelineConfig;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.LeaseStatus;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.PointerState;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.zookeeper.ZkStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code type: zookeeper} stores in the configuration file: the lease and the publish pointer in
 * ZooKeeper (a curator-test server), the report in a local directory.
 */
@Timeout(120) // a failure detector only
class CliZooKeeperTest {

  /** Distinctive, so that finding it anywhere in an output is a leak and not a coincidence. */
  private static final String PASSWORD = "Zk-Cli-Pw-6613-tulip";

  private static final ResourceId RESOURCE = ResourceId.of("nightly-report");
  private static TestingServer server;

  @TempDir Path dir;

  @BeforeAll
  static void startServer() throws Exception {
    server = new TestingServer(true);
  }

  @AfterAll
  static void stopServer() throws Exception {
    server.close();
  }

  private Path config(String root) throws Exception {
    Files.createDirectories(dir.resolve("reports"));
    return Files.writeString(
        dir.resolve("fenceline.yaml"),
        """
        stores:
          zk:
            type: zookeeper
            connect-string: %s
            root-path: %s
            session-timeout: 10s
            connection-timeout: 5s
            auth-digest: "fenceline:${ZK_PASSWORD}"
          reports-dir:
            type: vfs
            uri: %s
        issuer: zk
        lease:
          ttl: 10s
          holder: cli-test
        destinations:
          reports:
            store: reports-dir
            pointer-store: zk
        """
            .formatted(server.getConnectString(), root, dir.resolve("reports").toUri()));
  }

  private static ZkStore store(String root, String password) {
    return ZkStore.builder(server.getConnectString())
        .rootPath(root)
        .connectionTimeout(Duration.ofSeconds(5))
        .digest("fenceline", password)
        .build();
  }

  private static String[] publish(Path file, Path report) {
    return new String[] {
      "publish",
      "--config",
      file.toString(),
      "--destination",
      "reports",
      "--resource",
      RESOURCE.value(),
      "--operation",
      "report-2026-10-27",
      report.toString()
    };
  }

  @Test
  void publishesWithTheLeaseAndThePointerInZooKeeper() throws Exception {
    String root = "/cli-publish";
    Path file = config(root);
    Path report = Files.writeString(dir.resolve("report.csv"), "day,total\n2026-10-27,42\n");
    Map<String, String> env = Map.of("ZK_PASSWORD", PASSWORD);

    CliProcess.Result doctor = CliProcess.run(env, "doctor", "--config", file.toString());
    CliProcess.Result published = CliProcess.run(env, publish(file, report));

    assertThat(doctor.exitCode()).as(doctor.transcript()).isEqualTo(0);
    assertThat(doctor.out())
        .containsPattern("reports +vfs +FENCED_BY_STAGING +STAGED_WITH_POINTER_STORE")
        .contains("zk (zookeeper)");
    assertThat(published.exitCode()).as(published.transcript()).isEqualTo(0);
    assertThat(published.out())
        .startsWith("applied: nightly-report operation report-2026-10-27")
        .contains("epoch=1");
    assertThat(doctor.out() + doctor.err() + published.out() + published.err())
        .doesNotContain(PASSWORD);
    try (ZkStore zookeeper = store(root, PASSWORD)) {
      LeaseStatus lease = zookeeper.leaseIssuer().status(RESOURCE);
      assertThat(lease.epoch()).as("the lease came from ZooKeeper").isEqualTo(Epoch.of(1));
      assertThat(lease.held()).as("the command released it after publishing").isFalse();
      PointerState pointer = zookeeper.pointerStore("reports").current(RESOURCE).orElseThrow();
      assertThat(pointer.epoch()).isEqualTo(Epoch.of(1));
      assertThat(pointer.operation()).isEqualTo(OperationId.of("report-2026-10-27"));
      String target = pointer.pointer().target();
      assertThat(Files.readString(dir.resolve("reports").resolve(target)))
          .isEqualTo("day,total\n2026-10-27,42\n");
    }
  }

  @Test
  void theDigestPasswordNeverAppearsInOutputsErrorsOrTheConfigsToString() throws Exception {
    String root = "/cli-secret";
    Path file = config(root);
    Path report = Files.writeString(dir.resolve("report.csv"), "x\n");
    store(root, PASSWORD).close(); // the nodes now belong to fenceline with PASSWORD
    String wrong = "Zk-Cli-Wrong-2208-lily";

    CliProcess.Result refused = CliProcess.run(Map.of("ZK_PASSWORD", wrong), publish(file, report));
    CliProcess.Result doctor =
        CliProcess.run(Map.of("ZK_PASSWORD", wrong), "doctor", "--config", file.toString());
    String loaded;
    try (FencelineConfig config = FencelineConfig.load(file, Map.of("ZK_PASSWORD", wrong)::get)) {
      loaded = config.toString();
    }

    assertThat(refused.exitCode())
        .as(refused.transcript())
        .isEqualTo(ExitCode.STORE_UNREACHABLE.code());
    assertThat(refused.err()).contains("ZooKeeper refused access (NOAUTH)");
    assertThat(doctor.exitCode()).as(doctor.transcript()).isNotEqualTo(0);
    assertThat(refused.out() + refused.err() + doctor.out() + doctor.err() + loaded)
        .doesNotContain(wrong)
        .doesNotContain(PASSWORD);
    try (ZkStore zookeeper = store(root, PASSWORD)) {
      assertThat(zookeeper.leaseIssuer().status(RESOURCE).epoch()).isEqualTo(Epoch.NONE);
    }
  }

  @Test
  void theDigestStaysHiddenEvenFromAVariableTheConfigDoesNotKnowAsSecret() throws Exception {
    // ZK_AUTH does not look secret to the configuration, so only the adapter keeps it out.
    String root = "/cli-auth-variable";
    Path file = config(root);
    Files.writeString(
        file, Files.readString(file).replace("\"fenceline:${ZK_PASSWORD}\"", "\"${ZK_AUTH}\""));
    Path report = Files.writeString(dir.resolve("report.csv"), "x\n");
    store(root, PASSWORD).close();
    String wrong = "Zk-Cli-Wrong-5150-aster";

    CliProcess.Result refused =
        CliProcess.run(Map.of("ZK_AUTH", "fenceline:" + wrong), publish(file, report));

    assertThat(refused.exitCode())
        .as(refused.transcript())
        .isEqualTo(ExitCode.STORE_UNREACHABLE.code());
    assertThat(refused.out() + refused.err()).doesNotContain(wrong);
  }

  @Test
  void anAuthDigestWithoutAColonIsRefusedWithoutShowingIt() throws Exception {
    Path file = config("/cli-malformed");
    Files.writeString(
        file, Files.readString(file).replace("\"fenceline:${ZK_PASSWORD}\"", "\"${ZK_PASSWORD}\""));
    Path report = Files.writeString(dir.resolve("report.csv"), "x\n");

    CliProcess.Result result =
        CliProcess.run(Map.of("ZK_PASSWORD", PASSWORD), publish(file, report));

    assertThat(result.exitCode()).as(result.transcript()).isEqualTo(2);
    assertThat(result.err()).contains("stores.zk.auth-digest").contains("is not user:password");
    assertThat(result.out() + result.err()).doesNotContain(PASSWORD);
  }
}
