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
package dev.fenceline.it;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.fenceline.core.Fenceline;
import dev.fenceline.core.HeldLease;
import dev.fenceline.jdbc.JdbcStore;
import dev.fenceline.spi.Applied;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.PointerState;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.staging.StagedDestination;
import dev.fenceline.tck.ReadmeExamples;
import dev.fenceline.vfs.VfsBlobStore;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's "publish files" examples, compiled from the README as they stand and run; the
 * publish example with its database file and directory pointed at a temporary directory.
 */
class ReadmePublishFilesExampleTest {

  private static final ResourceId NIGHTLY = ResourceId.of("reports/nightly");

  @TempDir Path directory;

  private Class<?> publishExample() {
    return ReadmeExamples.loadDocs()
        .containing("static void publishNightly(Path reportFile)")
        .replacing(
            Map.of(
                "Path.of(\"fenceline.db\")",
                "Path.of(\"" + directory.resolve("fenceline.db") + "\")",
                "\"file:///var/lib/reports\"",
                "\"" + directory.resolve("reports").toUri() + "\""))
        .compile();
  }

  @Test
  void thePublishExamplePublishesTheFileAndReadsItBackVerified() throws Exception {
    Path report = Files.writeString(directory.resolve("report.csv"), "day,orders\n2026-10-27,42\n");

    String printed =
        printedBy(() -> ReadmeExamples.call(publishExample(), "publishNightly", report));

    assertThat(printed).isEqualTo("day,orders\n2026-10-27,42\n");
    try (JdbcStore store = JdbcStore.sqlite(directory.resolve("fenceline.db"))) {
      PointerState current = store.pointerStore("reports").current(NIGHTLY).orElseThrow();
      assertThat(current.version()).isEqualTo(1);
      assertThat(current.operation()).isEqualTo(OperationId.of("report-2026-10-27"));
    }
  }

  @Test
  void thePublishExampleSaysSoWhenAnotherWorkerHoldsTheLease() throws Exception {
    Path report = Files.writeString(directory.resolve("report.csv"), "day,orders\n2026-10-27,42\n");
    Class<?> example = publishExample();
    Files.createDirectories(directory.resolve("reports"));

    String printed;
    try (JdbcStore store = JdbcStore.sqlite(directory.resolve("fenceline.db"));
        Fenceline other = Fenceline.builder().issuer(store.leaseIssuer()).holder("other").build();
        HeldLease held = other.tryAcquire(NIGHTLY).orElseThrow()) {
      printed = printedBy(() -> ReadmeExamples.call(example, "publishNightly", report));
      assertThat(store.pointerStore("reports").current(NIGHTLY)).isEmpty();
    }

    assertThat(printed)
        .isEqualTo("reports/nightly is held by another worker: it publishes, not this one\n");
  }

  @Test
  void theHistoryAndRollbackExampleReadsVersion1AndPublishesItAgain() throws Exception {
    Class<?> example =
        ReadmeExamples.loadDocs().containing("static void auditAndRollBack(").compile();
    try (JdbcStore store = JdbcStore.sqlite(directory.resolve("fenceline.db"));
        VfsBlobStore files = VfsBlobStore.open(directory.resolve("reports").toUri().toString());
        Fenceline fenceline =
            Fenceline.builder().issuer(store.leaseIssuer()).holder("report-worker-1").build()) {
      StagedDestination reports =
          StagedDestination.builder(files, store.pointerStore("reports")).build();
      for (int day = 26; day <= 28; day++) {
        try (HeldLease lease = fenceline.tryAcquire(NIGHTLY).orElseThrow()) {
          fenceline.register(lease, reports);
          String report = "day,orders\n2026-10-" + day + "," + day + "\n";
          assertThat(
                  fenceline.publish(
                      lease,
                      reports,
                      OperationId.of("report-2026-10-" + day),
                      new ByteArrayInputStream(report.getBytes(UTF_8))))
              .isInstanceOf(Applied.class);
        }
      }

      String printed =
          printedBy(
              () ->
                  ReadmeExamples.call(
                      example, "auditAndRollBack", store, reports, fenceline, NIGHTLY));

      assertThat(printed)
          .isEqualTo(
              "3: report-2026-10-28 with epoch 3\n"
                  + "2: report-2026-10-27 with epoch 2\n"
                  + "1: report-2026-10-26 with epoch 1\n"
                  + "day,orders\n2026-10-26,26\n");
      try (InputStream current = reports.openVerified(NIGHTLY)) {
        assertThat(new String(current.readAllBytes(), UTF_8))
            .isEqualTo("day,orders\n2026-10-26,26\n");
      }
      PointerState current = store.pointerStore("reports").current(NIGHTLY).orElseThrow();
      assertThat(current.version()).isEqualTo(4);
      assertThat(current.operation()).isEqualTo(OperationId.of("rollback-2026-10-28"));
    }
  }

  /** What {@code example} printed on standard output. */
  private static String printedBy(Callable<Object> example) throws Exception {
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    PrintStream standardOutput = System.out;
    System.setOut(new PrintStream(printed, true, UTF_8));
    try {
      example.call();
    } finally {
      System.setOut(standardOutput);
    }
    return printed.toString(UTF_8);
  }
}
