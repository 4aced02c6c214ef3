package dev.fenceline.s3;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fenceline.core.Fenceline;
import dev.fenceline.core.HeldLease;
import dev.fenceline.jdbc.JdbcStore;
import dev.fenceline.s3.S3TestServer.Kind;
import dev.fenceline.spi.Applied;
import dev.fenceline.spi.BlobKey;
import dev.fenceline.spi.LeaseIssuer;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.PointerStore;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.WriteOutcome;
import dev.fenceline.staging.StagedDestination;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;

/** The README's "publish to S3" examples, kept compiling and passing (on S3Mock). */
class ReadmeS3ExampleTest {

  @TempDir Path directory;
  private final S3TestServer server = S3TestServer.get(Kind.S3MOCK);
  private final String bucket = server.createBucket();
  private final AtomicConditionalWrites http =
      new AtomicConditionalWrites(Apache5HttpClient.create());

  /** The README's S3-only example, verbatim apart from how the S3 store is built. */
  WriteOutcome publishToS3Only(LeaseIssuer issuer, Path reportFile) throws IOException {
    // The issuer all workers share: fencing needs one, the pointer needs no database.
    try (S3Store s3 =
            server.storeBuilder(bucket).httpClient(http).prefix("nightly").build(); // README:
        // S3Store.builder("reports-prod").region("eu-central-1").prefix("nightly").build()
        Fenceline fenceline =
            Fenceline.builder().issuer(issuer).holder("report-worker-1").build()) {
      PointerStore pointers = s3.pointerStore("reports"); // probes the endpoint first, see below
      StagedDestination reports = StagedDestination.builder(s3.blobStore(), pointers).build();
      ResourceId daily = ResourceId.of("reports/daily");

      WriteOutcome outcome;
      try (HeldLease lease = fenceline.tryAcquire(daily).orElseThrow();
          InputStream csv = Files.newInputStream(reportFile)) {
        fenceline.register(lease, reports);
        outcome = fenceline.publish(lease, reports, OperationId.of("daily-2026-11-29"), csv);
      }
      // For readers that cannot resolve a pointer (a static site, a query engine):
      s3.fixedKeyCopy(BlobKey.of("public/daily.csv")).copyCurrent(pointers, daily);
      return outcome;
    }
  }

  @Test
  void theS3OnlyExamplePublishesAndKeepsAFixedKeyCopy() throws IOException {
    Path report = Files.writeString(directory.resolve("daily.csv"), "day,orders\n29,7\n");
    try (JdbcStore issuerStore = JdbcStore.sqlite(directory.resolve("issuer.db"))) {
      assertThat(publishToS3Only(issuerStore.leaseIssuer(), report)).isInstanceOf(Applied.class);
    }

    String copy =
        server
            .admin()
            .getObjectAsBytes(b -> b.bucket(bucket).key("nightly/public/daily.csv"))
            .asString(StandardCharsets.UTF_8);
    assertThat(copy).isEqualTo("day,orders\n29,7\n");
  }

  @Test
  void theS3AndJdbcExamplePublishesWithThePointerInTheDatabase() {
    try (S3Store s3 = server.storeBuilder(bucket).prefix("nightly").build();
        JdbcStore jdbcStore = JdbcStore.sqlite(directory.resolve("pointers.db"));
        Fenceline fenceline =
            Fenceline.builder().issuer(jdbcStore.leaseIssuer()).holder("report-worker-1").build()) {
      // README, verbatim:
      PointerStore pointers = jdbcStore.pointerStore("reports");
      s3.blobStore().recordPointerStore(pointers); // every process, before its first publish
      StagedDestination reports = StagedDestination.builder(s3.blobStore(), pointers).build();

      ResourceId daily = ResourceId.of("reports/daily");
      try (HeldLease lease = fenceline.tryAcquire(daily).orElseThrow()) {
        fenceline.register(lease, reports);
        assertThat(
                fenceline.publish(
                    lease,
                    reports,
                    OperationId.of("daily-2026-11-29"),
                    new java.io.ByteArrayInputStream("x".getBytes(StandardCharsets.UTF_8))))
            .isInstanceOf(Applied.class);
      }
      try (InputStream published = reports.open(daily)) {
        assertThat(new String(published.readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("x");
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
