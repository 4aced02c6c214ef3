package dev.fenceline.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fenceline.core.Fenceline;
import dev.fenceline.core.HeldLease;
import dev.fenceline.spi.Applied;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.WriteOutcome;
import dev.fenceline.staging.StagedDestination;
import dev.fenceline.vfs.VfsBlobStore;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The README's ZooKeeper example, kept compiling and passing (on the test ensemble). */
class ReadmeZkExampleTest {

  @TempDir Path directory;

  /** The README's example, verbatim apart from the connect string and the root path. */
  WriteOutcome publishWithZooKeeper(String connectString, String root, Path reportFile)
      throws IOException {
    try (ZkStore zk =
            ZkStore.builder(connectString) // README: "zk1:2181,zk2:2181,zk3:2181"
                .rootPath(root) // README: "/apps/reports/fenceline"
                .sessionTimeout(Duration.ofSeconds(20))
                .build();
        VfsBlobStore files = VfsBlobStore.open(directory.resolve("site").toUri().toString());
        Fenceline fenceline =
            Fenceline.builder()
                .issuer(zk.leaseIssuer()) // epochs and expiry decided by the ensemble
                .holder("report-worker-1")
                .leaseTtl(Duration.ofMinutes(2))
                .build()) {
      StagedDestination reports =
          StagedDestination.builder(files, zk.pointerStore("reports")).build();
      ResourceId daily = ResourceId.of("reports/daily");
      try (HeldLease lease = fenceline.tryAcquire(daily).orElseThrow();
          InputStream csv = Files.newInputStream(reportFile)) {
        fenceline.register(lease, reports);
        return fenceline.publish(lease, reports, OperationId.of("daily-2026-12-01"), csv);
      }
    }
  }

  @Test
  void theZooKeeperExamplePublishesWithEpochsAndPointerInTheEnsemble() throws IOException {
    Path report = Files.writeString(directory.resolve("daily.csv"), "day,orders\n1,9\n");
    String root = "/readme-" + Long.toString(System.nanoTime(), 36);
    String connect = ZkTestStores.shared().connectString();

    assertThat(publishWithZooKeeper(connect, root, report)).isInstanceOf(Applied.class);

    try (ZkStore zk = ZkStore.builder(connect).rootPath(root).build();
        VfsBlobStore files = VfsBlobStore.open(directory.resolve("site").toUri().toString())) {
      StagedDestination reports =
          StagedDestination.builder(files, zk.pointerStore("reports")).build();
      try (InputStream published = reports.openVerified(ResourceId.of("reports/daily"))) {
        assertThat(new String(published.readAllBytes(), StandardCharsets.UTF_8))
            .isEqualTo("day,orders\n1,9\n");
      }
      assertThat(zk.leaseIssuer().status(ResourceId.of("reports/daily")).held()).isFalse();
    }
  }
}
