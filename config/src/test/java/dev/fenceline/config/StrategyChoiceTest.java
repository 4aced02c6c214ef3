package dev.fenceline.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.fenceline.spi.Guarantee;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The strategy follows the stores' capabilities, shown with an S3-like fake whose conditional-write
 * probe passes or fails.
 */
class StrategyChoiceTest {

  @TempDir Path directory;

  private String yaml(String probe, String destinationExtra) {
    return """
        stores:
          main: {type: jdbc, url: "jdbc:sqlite:%s"}
          bucket: {type: fake-object-store, probe: %s}
        issuer: main
        destinations:
          reports: {store: bucket%s}
        """
        .formatted(directory.resolve("fenceline.db"), probe, destinationExtra);
  }

  @Test
  void aBucketWhoseProbePassesIsStagedWithItsOwnPointerStore() {
    try (FencelineConfig config = ConfigFiles.load(directory, yaml("pass", ""))) {
      ConfiguredDestination reports = config.destination("reports");

      assertThat(reports.strategy()).isEqualTo(Strategy.STAGED_WITH_OWN_POINTER_STORE);
      assertThat(reports.guarantee()).isEqualTo(Guarantee.FENCED_BY_STAGING);
      assertThat(reports.why())
          .isEqualTo(
              "fake-object-store store bucket offers a blob store and a pointer store that passed"
                  + " its checks; staged with its own pointer store");
    }
  }

  @Test
  void aBucketWhoseProbeFailsIsStagedWithTheIssuersPointerStoreAndTheReasonIsGiven() {
    try (FencelineConfig config = ConfigFiles.load(directory, yaml("fail", ""))) {
      ConfiguredDestination reports = config.destination("reports");

      assertThat(reports.strategy()).isEqualTo(Strategy.STAGED_WITH_POINTER_STORE);
      assertThat(reports.guarantee()).isEqualTo(Guarantee.FENCED_BY_STAGING);
      assertThat(reports.why())
          .isEqualTo(
              "fake-object-store store bucket: its pointer store failed its checks: Cannot open the"
                  + " pointer store \"reports\": the endpoint ignored If-None-Match (use a JDBC"
                  + " pointer store); staged with pointer store main (jdbc), the issuer's store");
      assertThat(config.describe())
          .extracting(DestinationReport::why)
          .containsExactly(reports.why());
    }
  }

  @Test
  void aConfiguredPointerStoreWinsOverTheBucketsOwn() {
    try (FencelineConfig config =
        ConfigFiles.load(directory, yaml("pass", ", pointer-store: main"))) {
      ConfiguredDestination reports = config.destination("reports");

      assertThat(reports.strategy()).isEqualTo(Strategy.STAGED_WITH_POINTER_STORE);
      assertThat(reports.why())
          .isEqualTo("pointer-store: main is set; staged with pointer store main (jdbc)");
    }
  }

  @Test
  void aStoreWithoutABlobStoreCannotHoldFiles() {
    String yaml =
        """
        stores:
          main: {type: jdbc, url: "jdbc:sqlite:%s"}
        issuer: main
        destinations:
          reports: {store: main}
        """
            .formatted(directory.resolve("fenceline.db"));
    try (FencelineConfig config = ConfigFiles.load(directory, yaml)) {
      ConfigFileException error =
          catchThrowableOfType(ConfigFileException.class, () -> config.destination("reports"));
      assertThat(error.keyPath()).isEqualTo("destinations.reports.store");
      assertThat(error)
          .hasMessageEndingWith(
              ": store main (jdbc) offers no blob store to stage files in (point store at a vfs or"
                  + " s3 store; a jdbc store serves as pointer-store or issuer)");
    }
  }

  @Test
  void anIssuerThatIssuesNoLeasesIsRefusedAtTheIssuerKey() {
    String yaml =
        """
        stores:
          files: {type: vfs, uri: "%s"}
        issuer: files
        """
            .formatted(directory.toUri());
    try (FencelineConfig config = ConfigFiles.load(directory, yaml)) {
      ConfigFileException error = catchThrowableOfType(ConfigFileException.class, config::issuer);
      assertThat(error.keyPath()).isEqualTo("issuer");
      assertThat(error).hasMessageContaining("store \"files\" (vfs) offers no lease issuer");
    }
  }
}
