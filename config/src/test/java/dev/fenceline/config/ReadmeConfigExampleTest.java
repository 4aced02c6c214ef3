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

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.fenceline.spi.Guarantee;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.staging.PublishedBlob;
import dev.fenceline.staging.StagedDestination;
import dev.fenceline.tck.ReadmeExamples;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's "configure with YAML" example, compiled from the README as it stands and run, with
 * its configuration file in a temporary directory.
 */
class ReadmeConfigExampleTest {

  private static final ResourceId NIGHTLY = ResourceId.of("nightly-report");

  @TempDir Path directory;

  @Test
  void theReadmeExamplePublishesOnceThenAnswersAlreadyApplied() throws Exception {
    Path config =
        Files.writeString(
            directory.resolve("fenceline.yaml"),
            """
            stores:
              main:
                type: jdbc
                url: jdbc:sqlite:%1$s/fenceline.db
              reports-dir:
                type: vfs
                uri: file://%1$s/reports
            issuer: main
            lease:
              ttl: 30s
            destinations:
              reports:
                store: reports-dir
            """
                .formatted(directory));
    Path report = Files.writeString(directory.resolve("report.csv"), "day,total\n2026-11-30,42\n");
    Files.createDirectories(directory.resolve("reports"));
    Class<?> example =
        ReadmeExamples.loadDocs()
            .containing("static void publishReport(Path reportFile)")
            .replacing(Map.of("Path.of(\"fenceline.yaml\")", "Path.of(\"" + config + "\")"))
            .compile();

    String first = printedBy(example, report);
    PublishedBlob published = published(config);
    String retry = printedBy(example, report);

    assertThat(first).startsWith("FENCED_BY_STAGING: ");
    assertThat(retry).isEqualTo(first);
    assertThat(published(config))
        .as("the retry was answered from the record, not published again")
        .isEqualTo(published);
    try (FencelineConfig loaded = FencelineConfig.load(config)) {
      assertThat(loaded.destination("reports").guarantee()).isEqualTo(Guarantee.FENCED_BY_STAGING);
      StagedDestination reports = (StagedDestination) loaded.destination("reports").destination();
      try (InputStream content = reports.open(NIGHTLY)) {
        assertThat(new String(content.readAllBytes(), UTF_8))
            .isEqualTo("day,total\n2026-11-30,42\n");
      }
    }
  }

  private static PublishedBlob published(Path config) {
    try (FencelineConfig loaded = FencelineConfig.load(config)) {
      return ((StagedDestination) loaded.destination("reports").destination())
          .resolve(NIGHTLY)
          .orElseThrow();
    }
  }

  /** What the example's {@code publishReport(reportFile)} printed on standard output. */
  private static String printedBy(Class<?> example, Path reportFile) throws Exception {
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    PrintStream standardOutput = System.out;
    System.setOut(new PrintStream(printed, true, UTF_8));
    try {
      ReadmeExamples.call(example, "publishReport", reportFile);
    } finally {
      System.setOut(standardOutput);
    }
    return printed.toString(UTF_8);
  }
}
