package dev.fenceline.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fenceline.core.Fenceline;
import dev.fenceline.core.HeldLease;
import dev.fenceline.jdbc.JdbcStore;
import dev.fenceline.spi.Applied;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.PointerState;
import dev.fenceline.spi.PointerStore;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.WriteOutcome;
import dev.fenceline.staging.StagedDestination;
import dev.fenceline.vfs.VfsBlobStore;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The README's "publish files" example, kept compiling and passing. */
class ReadmePublishFilesExampleTest {

  @TempDir Path directory;
  private final List<String> log = new ArrayList<>();

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

      // Any reader, in any process: resolves the pointer, verifies size and SHA-256 while reading
      // (a reader that may stop early uses openVerified, see below).
      try (InputStream published = reports.open(nightly)) {
        String text = new String(published.readAllBytes(), StandardCharsets.UTF_8);
        reports.sweep(); // from time to time: deletes stale, unpublished staged files
        return text;
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The README's history and rollback example, verbatim apart from the log, what is done with the
   * old version's bytes, and returning the outcome.
   */
  WriteOutcome auditAndRollBack(
      JdbcStore store, StagedDestination reports, Fenceline fenceline, ResourceId nightly)
      throws IOException {
    PointerStore pointers = store.pointerStore("reports");
    // Audit: every swap, newest first.
    for (PointerState version : pointers.history(nightly, 10)) {
      log(version.version() + ": " + version.operation() + " with epoch " + version.epoch());
    }
    // Read version 1, checked against its size and SHA-256 before the first byte.
    try (InputStream first = reports.openVerified(nightly, 1)) {
      log("version 1: " + new String(first.readAllBytes(), StandardCharsets.UTF_8));
    }
    // Roll back: publish version 1 again, as a new version, with a current token.
    try (HeldLease lease = fenceline.tryAcquire(nightly).orElseThrow()) {
      fenceline.register(lease, reports);
      WriteOutcome outcome =
          reports.rollback(lease.token(), OperationId.of("rollback-2026-10-28"), 1);
      return outcome;
    }
  }

  private void log(String line) {
    log.add(line);
  }

  @Test
  void theHistoryAndRollbackExampleReadsVersion1AndPublishesItAgain() throws IOException {
    ResourceId nightly = ResourceId.of("reports/nightly");
    try (JdbcStore store = JdbcStore.sqlite(directory.resolve("fenceline.db"));
        VfsBlobStore files = VfsBlobStore.open(directory.resolve("reports").toUri().toString());
        Fenceline fenceline =
            Fenceline.builder().issuer(store.leaseIssuer()).holder("report-worker-1").build()) {
      StagedDestination reports =
          StagedDestination.builder(files, store.pointerStore("reports")).build();
      for (int day = 26; day <= 28; day++) {
        try (HeldLease lease = fenceline.tryAcquire(nightly).orElseThrow()) {
          fenceline.register(lease, reports);
          String report = "day,orders\n2026-10-" + day + "," + day + "\n";
          assertThat(
                  fenceline.publish(
                      lease,
                      reports,
                      OperationId.of("report-2026-10-" + day),
                      new ByteArrayInputStream(report.getBytes(StandardCharsets.UTF_8))))
              .isInstanceOf(Applied.class);
        }
      }

      WriteOutcome outcome = auditAndRollBack(store, reports, fenceline, nightly);

      assertThat(outcome).isInstanceOf(Applied.class);
      assertThat(log)
          .containsExactly(
              "3: report-2026-10-28 with epoch 3",
              "2: report-2026-10-27 with epoch 2",
              "1: report-2026-10-26 with epoch 1",
              "version 1: day,orders\n2026-10-26,26\n");
      try (InputStream current = reports.openVerified(nightly)) {
        assertThat(new String(current.readAllBytes(), StandardCharsets.UTF_8))
            .isEqualTo("day,orders\n2026-10-26,26\n");
      }
      assertThat(store.pointerStore("reports").current(nightly).orElseThrow().version())
          .isEqualTo(4);
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
