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
package dev.fenceline.examples;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fenceline.core.Fenceline;
import dev.fenceline.core.HeldLease;
import dev.fenceline.jdbc.JdbcStore;
import dev.fenceline.jdbc.PruneReport;
import dev.fenceline.spi.Applied;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.Lease;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.UntrustedTokenException;
import dev.fenceline.tck.ReadmeExamples;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Java blocks of the README and the general pages (guarantees, operations) that no module's own
 * test runs, compiled from their page as they stand and called, pointed at temporary files.
 */
class GeneralPagesExamplesTest {

  private static final ResourceId NIGHTLY = ResourceId.of("nightly-report");

  @TempDir Path directory;

  /** The README's YAML and Java: a publish, a retry answered from the receipt, a held lease. */
  @Test
  void theReadmeExamplePublishesOnceReplaysARetryAndStepsAsideWhileAnotherWorkerHoldsTheLease()
      throws Exception {
    Path config = Files.writeString(directory.resolve("fenceline.yaml"), readmeYaml(), UTF_8);
    Class<?> example =
        ReadmeExamples.loadDocs()
            .containing("static String publishNightly(Path report)")
            .replacing(Map.of("Path.of(\"fenceline.yaml\")", "Path.of(\"" + config + "\")"))
            .compile();
    Path report = Files.writeString(directory.resolve("report.csv"), "day,total\n2026-11-30,42\n");

    assertThat(ReadmeExamples.call(example, "publishNightly", report)).isEqualTo("Applied");
    assertThat(ReadmeExamples.call(example, "publishNightly", report)).isEqualTo("AlreadyApplied");
    try (JdbcStore store = JdbcStore.sqlite(directory.resolve("fenceline.db"));
        Fenceline other = Fenceline.builder().issuer(store.leaseIssuer()).holder("other").build();
        HeldLease held = other.tryAcquire(NIGHTLY).orElseThrow()) {
      assertThat(ReadmeExamples.call(example, "publishNightly", report))
          .isEqualTo("held by another worker: it publishes, not this one");
    }
    try (var staged = Files.walk(directory.resolve("reports"))) {
      assertThat(
              staged
                  .filter(Files::isRegularFile)
                  .filter(file -> read(file).equals("day,total\n2026-11-30,42\n")))
          .as("the report was staged once")
          .hasSize(1);
    }
  }

  /** docs/guarantees.md: a store with signing keys signs its tokens and refuses unsigned ones. */
  @Test
  void theSigningStoreOfTheGuaranteesPageSignsTokensAndRefusesUnsignedOnes() throws Exception {
    Class<?> example =
        ReadmeExamples.loadDocs()
            .containing("static JdbcStore signingStore(byte[] secret32Bytes)")
            .replacing(
                Map.of("jdbc:sqlite:fenceline.db", "jdbc:sqlite:" + directory.resolve("signed.db")))
            .compile();
    byte[] secret = "0123456789abcdef0123456789abcdef".getBytes(UTF_8);

    try (JdbcStore store = (JdbcStore) ReadmeExamples.call(example, "signingStore", secret)) {
      Lease lease =
          store.leaseIssuer().tryAcquire(NIGHTLY, "worker-a", Duration.ofMinutes(1)).orElseThrow();
      assertThat(lease.token().signature()).isPresent();
      assertThat(
              store
                  .destination("reports")
                  .write(lease.token(), OperationId.of("op"), (c, t, o) -> Map.of()))
          .isInstanceOf(Applied.class);
      FencingToken forged = new FencingToken(store.id(), NIGHTLY, lease.epoch().next(), "forger");
      assertThatThrownBy(
              () ->
                  store
                      .destination("reports")
                      .write(forged, OperationId.of("op2"), (c, t, o) -> Map.of()))
          .isInstanceOf(UntrustedTokenException.class);
    }
  }

  /** docs/operations.md: the retention example opens a store that prunes (on SQLite here). */
  @Test
  void theRetentionExampleOfTheOperationsPageOpensAStoreThatPrunes() throws Exception {
    Class<?> example =
        ReadmeExamples.loadDocs()
            .containing("static JdbcStore openWithRetention()")
            .replacing(
                Map.of(
                    ".url(\"jdbc:postgresql://db-primary:5432/app\")",
                    ".url(\"jdbc:sqlite:" + directory.resolve("retention.db") + "\")"))
            .compile();

    try (JdbcStore store = (JdbcStore) ReadmeExamples.call(example, "openWithRetention")) {
      PruneReport report = store.prune();
      assertThat(report.receiptsDeleted()).isZero();
      assertThat(report.prunedBefore()).isBefore(java.time.Instant.now().minus(Duration.ofDays(6)));
    }
  }

  /**
   * The README's one YAML block, its SQLite file and report directory moved to {@link #directory}.
   */
  private String readmeYaml() throws Exception {
    Path readme = ReadmeExamples.repositoryRoot().resolve("README.md");
    List<ReadmeExamples.Fence> yaml =
        ReadmeExamples.fences(Files.readString(readme, UTF_8), "README.md").stream()
            .filter(fence -> fence.language().equals("yaml"))
            .toList();
    assertThat(yaml).as("YAML blocks of README.md").hasSize(1);
    return replaceOnce(
        replaceOnce(
            yaml.get(0).text(),
            "url: jdbc:sqlite:fenceline.db",
            "url: jdbc:sqlite:" + directory.resolve("fenceline.db")),
        "uri: reports ",
        "uri: " + directory.resolve("reports") + " ");
  }

  private static String replaceOnce(String text, String from, String to) {
    assertThat(text.split(Pattern.quote(from), -1)).as("occurrences of " + from).hasSize(2);
    return text.replace(from, to);
  }

  private static String read(Path file) {
    try {
      return Files.readString(file, UTF_8);
    } catch (java.io.IOException e) {
      return "";
    }
  }
}
