package dev.fenceline.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fenceline.core.Fenceline;
import dev.fenceline.core.HeldLease;
import dev.fenceline.jdbc.JdbcStore;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.WriteOutcome;
import dev.fenceline.staging.StagedDestination;
import dev.fenceline.vfs.VfsBlobStore;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The README's "publish files" example, kept compiling and passing. */
class ReadmePublishFilesExampleTest {

  @TempDir Path directory;

  /** The README example, verbatim apart from the paths. */
  String publishAndReadBack(Path databaseFile, String filesUri, Path reportFile) {
    try (JdbcStore store = JdbcStore.sqlite(databaseFile);
        VfsBlobStore files = VfsBlobStore.open(filesUri); // or sftp://user@host/srv/reports
        Fenceline fenceline =
            Fenceline.builder().issuer(store.leaseIssuer()).holder("report-worker-1").build()) {
      StagedDestination reports =
          StagedDestination.builder(files, store.pointerStore("reports"))
              .keepVersions(3) // the sweep keeps the newest 3 published versions
              .sweepGrace(Duration.ofHours(1))
              .build();
      ResourceId nightly = ResourceId.of("reports/nightly");

      try (HeldLease lease = fenceline.tryAcquire(nightly).orElseThrow();
          InputStream csv = Files.newInputStream(reportFile)) {
        fenceline.register(lease, reports);
        WriteOutcome outcome =
            fenceline.publish(lease, reports, OperationId.of("report-2026-10-27"), csv);
        System.out.println(outcome); // Applied, AlreadyApplied or RejectedStale
      }

      // Any reader, in any process: resolves the pointer, verifies size and SHA-256 while reading.
      try (InputStream published = reports.open(nightly)) {
        String text = new String(published.readAllBytes(), StandardCharsets.UTF_8);
        reports.sweep(); // from time to time: deletes stale, unpublished staged files
        return text;
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Test
  void theExamplePublishesAFileAndReadsItBack() throws IOException {
    Path report = Files.writeString(directory.resolve("report.csv"), "day,orders\n2026-10-27,42\n");

    String text =
        publishAndReadBack(
            directory.resolve("fenceline.db"),
            directory.resolve("reports").toUri().toString(),
            report);

    assertThat(text).isEqualTo("day,orders\n2026-10-27,42\n");
  }
}
