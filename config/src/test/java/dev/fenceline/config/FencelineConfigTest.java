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
package dev.fenceline.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fenceline.core.Fenceline;
import dev.fenceline.core.HeldLease;
import dev.fenceline.jdbc.JdbcLeaseIssuer;
import dev.fenceline.spi.AlreadyApplied;
import dev.fenceline.spi.Applied;
import dev.fenceline.spi.Capability;
import dev.fenceline.spi.ConfigurationException;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.Guarantee;
import dev.fenceline.spi.Lease;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.RejectedStale;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.WriteOutcome;
import dev.fenceline.staging.StagedDestination;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FencelineConfigTest {

  @TempDir Path directory;

  private String config() {
    return ConfigFiles.sqliteAndDirectory(directory)
        + """
        lease:
          ttl: 20s
          renew-every: 5s
          holder: worker-a@host-1
        destinations:
          reports:
            store: reports-dir
            prefix: nightly
        """;
  }

  @Test
  void aDirectoryDestinationIsStagedWithTheIssuersPointerStoreAndSaysWhy() {
    try (FencelineConfig config = ConfigFiles.load(directory, config())) {
      ConfiguredDestination reports = config.destination("reports");

      assertThat(reports.destination()).isInstanceOf(StagedDestination.class);
      assertThat(reports.destination().name()).isEqualTo("reports");
      assertThat(reports.strategy()).isEqualTo(Strategy.STAGED_WITH_POINTER_STORE);
      assertThat(reports.guarantee()).isEqualTo(Guarantee.FENCED_BY_STAGING);
      assertThat(reports.capabilities()).contains(Capability.STAGED_PUBLISH);
      assertThat(reports.type()).isEqualTo("vfs");
      assertThat(reports.why())
          .isEqualTo(
              "vfs store reports-dir: it offers no pointer store (it cannot check epochs); staged"
                  + " with pointer store main (jdbc), the issuer's store");
      assertThat(config.describe())
          .containsExactly(
              new DestinationReport(
                  "reports",
                  "vfs",
                  reports.capabilities(),
                  Guarantee.FENCED_BY_STAGING,
                  Strategy.STAGED_WITH_POINTER_STORE,
                  reports.why()));
    }
  }

  @Test
  void givesTheObjectsTheBuildersGiveWithTheLeaseSettingsOfTheFile() {
    try (FencelineConfig config = ConfigFiles.load(directory, config())) {
      assertThat(config.issuer()).isInstanceOf(JdbcLeaseIssuer.class);
      assertThat(config.lease())
          .isEqualTo(
              new LeaseConfig(Duration.ofSeconds(20), Duration.ofSeconds(5), "worker-a@host-1"));
      Fenceline fenceline = config.fenceline();
      assertThat(config.fenceline()).isSameAs(fenceline);
      try (HeldLease lease = fenceline.tryAcquire(ResourceId.of("nightly-report")).orElseThrow()) {
        assertThat(lease.token().holder()).isEqualTo("worker-a@host-1");
        assertThat(lease.token().issuer()).isEqualTo(config.issuer().id());
      }
    }
  }

  @Test
  void publishesAFileStreamedOnceAndRejectsTheStaleOwnerAfterATakeover() throws Exception {
    Path file = directory.resolve("report.csv");
    Files.writeString(file, "day,total\n2026-10-27,42\n");
    ResourceId resource = ResourceId.of("nightly-report");
    try (FencelineConfig config = ConfigFiles.load(directory, config())) {
      ConfiguredDestination reports = config.destination("reports");
      FencingToken a =
          config
              .issuer()
              .tryAcquire(resource, "worker-a", Duration.ofMillis(50))
              .map(Lease::token)
              .orElseThrow();
      reports.destination().register(a);

      WriteOutcome first = reports.publish(a, OperationId.of("report-1"), file);
      WriteOutcome again = reports.publish(a, OperationId.of("report-1"), file);

      assertThat(first).isInstanceOf(Applied.class);
      assertThat(again).isInstanceOf(AlreadyApplied.class);
      assertThat(((AlreadyApplied) again).receipt()).isEqualTo(((Applied) first).receipt());
      StagedDestination staged = (StagedDestination) reports.destination();
      try (InputStream published = staged.open(resource)) {
        assertThat(new String(published.readAllBytes(), StandardCharsets.UTF_8))
            .isEqualTo("day,total\n2026-10-27,42\n");
      }

      // A's lease expires; B takes over and registers a newer epoch; A's late publish is refused.
      FencingToken b = awaitTakeover(config, resource);
      reports.destination().register(b);
      assertThat(reports.publish(a, OperationId.of("report-2"), file))
          .isInstanceOf(RejectedStale.class);
    }
  }

  private static FencingToken awaitTakeover(FencelineConfig config, ResourceId resource) {
    // The issuer decides expiry by its own clock; poll until it hands the resource to B.
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (System.nanoTime() < deadline) {
      var lease = config.issuer().tryAcquire(resource, "worker-b", Duration.ofSeconds(30));
      if (lease.isPresent()) {
        return lease.get().token();
      }
      Thread.onSpinWait();
    }
    throw new AssertionError("the issuer never handed the expired lease to worker-b");
  }

  @Test
  void anUnknownDestinationNameListsTheConfiguredOnes() {
    try (FencelineConfig config = ConfigFiles.load(directory, config())) {
      assertThatThrownBy(() -> config.destination("reprots"))
          .isInstanceOf(ConfigurationException.class)
          .hasMessage(
              "Cannot find destination \"reprots\" in "
                  + directory.resolve("fenceline.yaml")
                  + ": configured are reports (check the spelling)");
    }
  }

  @Test
  void aPublishToAGuaranteeTheFileDoesNotAllowIsRefusedByTheFacade() throws Exception {
    Path file = directory.resolve("payload.json");
    Files.writeString(file, "{}");
    String yaml =
        ConfigFiles.sqliteAndDirectory(directory)
            + """
            destinations:
              payments:
                type: http
                base-uri: http://127.0.0.1:9/v1
                keys-honoured: true
                request: {path: /payments}
            """;
    try (FencelineConfig config = ConfigFiles.load(directory, yaml)) {
      ConfiguredDestination payments = config.destination("payments");
      assertThat(payments.guarantee()).isEqualTo(Guarantee.FENCED_AT_INTENT);
      FencingToken token =
          config
              .issuer()
              .tryAcquire(ResourceId.of("r"), "w", Duration.ofSeconds(30))
              .orElseThrow()
              .token();
      assertThatThrownBy(() -> payments.publish(token, OperationId.of("op"), file))
          .isInstanceOf(ConfigurationException.class)
          .hasMessageContaining("allowFencedAtIntent(true)");
    }
  }

  @Test
  void closeClosesTheStoresAndLaterCallsFail() {
    FencelineConfig config = ConfigFiles.load(directory, config());
    config.destination("reports");
    config.close();
    assertThatThrownBy(() -> config.destination("reports"))
        .isInstanceOf(IllegalStateException.class);
  }
}
