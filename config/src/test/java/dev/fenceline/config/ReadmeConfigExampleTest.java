package dev.fenceline.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fenceline.core.Fenceline;
import dev.fenceline.core.HeldLease;
import dev.fenceline.spi.AlreadyApplied;
import dev.fenceline.spi.Applied;
import dev.fenceline.spi.Guarantee;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.WriteOutcome;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The README's "configure with YAML" example, kept compiling and passing. */
class ReadmeConfigExampleTest {

  @TempDir Path directory;

  /** The README's example, verbatim apart from where the file and the environment come from. */
  WriteOutcome publishReport(Path configFile, Path reportFile, Map<String, String> env) {
    try (FencelineConfig config =
        FencelineConfig.load(configFile, env::get)) { // README: load(file)
      Fenceline fenceline =
          config.fenceline(); // issuer, holder, ttl and allow-* flags from the file
      ConfiguredDestination reports = config.destination("reports");
      System.out.println(
          reports.guarantee() + ": " + reports.why()); // FENCED_BY_STAGING: staged...
      try (HeldLease lease = fenceline.tryAcquire(ResourceId.of("nightly-report")).orElseThrow()) {
        fenceline.register(lease, reports.destination());
        return reports.publish(lease.token(), OperationId.of("report-2026-11-30"), reportFile);
      }
    }
  }

  @Test
  void theReadmeExamplePublishesOnceThenAnswersAlreadyApplied() throws Exception {
    Path config =
        ConfigFiles.write(
            directory,
            """
            stores:
              main:
                type: jdbc
                url: jdbc:sqlite:${FENCELINE_HOME}/fenceline.db
              reports-dir:
                type: vfs
                uri: file://${FENCELINE_HOME}/reports
            issuer: main
            lease:
              ttl: 30s
            destinations:
              reports:
                store: reports-dir
            """);
    Path report = Files.writeString(directory.resolve("report.csv"), "day,total\n2026-11-30,42\n");
    Files.createDirectories(directory.resolve("reports"));
    Map<String, String> env = Map.of("FENCELINE_HOME", directory.toString());

    WriteOutcome first = publishReport(config, report, env);
    WriteOutcome second = publishReport(config, report, env);

    assertThat(first).isInstanceOf(Applied.class);
    assertThat(second).isEqualTo(new AlreadyApplied(((Applied) first).receipt()));
    try (FencelineConfig loaded = FencelineConfig.load(config, env::get)) {
      assertThat(loaded.destination("reports").guarantee()).isEqualTo(Guarantee.FENCED_BY_STAGING);
    }
  }
}
