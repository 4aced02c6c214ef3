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
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.fenceline.spi.Guarantee;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The strategy follows the stores' capabilities, shown with an S3-like fake whose conditional-write
 * probe passes or fails. The refusals whose hints list the built-in types (a store without a blob
 * store, an issuer that issues no leases) are in the cli module's EveryAdapterConfigTest, where
 * every built-in adapter is on the class path.
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
  void aBucketWhoseProbeFailsIsRefusedUnlessThePointerStoreIsNamed() {
    try (FencelineConfig config = ConfigFiles.load(directory, yaml("fail", ""))) {
      ConfigFileException error =
          catchThrowableOfType(ConfigFileException.class, () -> config.destination("reports"));

      assertThat(error.keyPath()).isEqualTo("destinations.reports.store");
      assertThat(error)
          .hasMessageEndingWith(
              ": store bucket (fake-object-store) cannot publish destination reports through its"
                  + " own pointer store, which failed its checks: Cannot open the pointer store"
                  + " \"reports\": the endpoint ignored If-None-Match (use a JDBC pointer store);"
                  + " Fenceline does not pick another pointer store by itself, since another"
                  + " process's checks may pass (set pointer-store: to the store every process"
                  + " should publish reports through, e.g. pointer-store: main; the choice is"
                  + " recorded with the files and other choices are refused)");
    }
    try (FencelineConfig config =
        ConfigFiles.load(directory, yaml("fail", ", pointer-store: main"))) {
      ConfiguredDestination reports = config.destination("reports");

      assertThat(reports.strategy()).isEqualTo(Strategy.STAGED_WITH_POINTER_STORE);
      assertThat(reports.why())
          .isEqualTo("pointer-store: main is set; staged with pointer store main (jdbc)");
    }
  }

  /**
   * Process A's probe passes and process B's fails, on one bucket: whichever publishes first
   * records its pointer store, and the other can never publish the destination through another.
   */
  @Test
  void processesWhoseProbesDisagreeNeverPublishOneDestinationThroughDifferentPointerStores()
      throws Exception {
    try (AutoCloseable bucket = FakeObjectStoreFactory.sharedBucket();
        FencelineConfig a = ConfigFiles.load(directory, yaml("pass", ""));
        FencelineConfig b = ConfigFiles.load(directory, yaml("fail", ""));
        FencelineConfig bNamingMain =
            ConfigFiles.load(directory, yaml("fail", ", pointer-store: main"))) {
      assertThat(a.destination("reports").strategy())
          .isEqualTo(Strategy.STAGED_WITH_OWN_POINTER_STORE);

      ConfigFileException silent =
          catchThrowableOfType(ConfigFileException.class, () -> b.destination("reports"));
      assertThat(silent).as("refused").isNotNull();
      assertThat(silent.keyPath()).isEqualTo("destinations.reports.store");
      ConfigFileException named =
          catchThrowableOfType(ConfigFileException.class, () -> bNamingMain.destination("reports"));
      assertThat(named).as("refused").isNotNull();
      assertThat(named.keyPath()).isEqualTo("destinations.reports.pointer-store");
      assertThat(named)
          .hasMessageContaining(
              ": destination reports would publish through pointer store main (jdbc), but another"
                  + " one is recorded for it: Cannot publish destination \"reports\" through"
                  + " pointer store jdbc-")
          .hasMessageContaining("the bucket records pointer store memory-");
    }
  }

  @Test
  void aRecordedJdbcPointerStoreRefusesTheBucketsOwnLater() throws Exception {
    try (AutoCloseable bucket = FakeObjectStoreFactory.sharedBucket();
        FencelineConfig first = ConfigFiles.load(directory, yaml("fail", ", pointer-store: main"));
        FencelineConfig implicit = ConfigFiles.load(directory, yaml("pass", ""));
        FencelineConfig explicit =
            ConfigFiles.load(directory, yaml("pass", ", pointer-store: bucket"));
        FencelineConfig same = ConfigFiles.load(directory, yaml("pass", ", pointer-store: main"))) {
      first.destination("reports");

      ConfigFileException own =
          catchThrowableOfType(ConfigFileException.class, () -> implicit.destination("reports"));
      assertThat(own).as("refused").isNotNull();
      assertThat(own.keyPath()).isEqualTo("destinations.reports.store");
      assertThat(own).hasMessageContaining("the bucket records pointer store jdbc-");
      ConfigFileException named =
          catchThrowableOfType(ConfigFileException.class, () -> explicit.destination("reports"));
      assertThat(named).as("refused").isNotNull();
      assertThat(named.keyPath()).isEqualTo("destinations.reports.pointer-store");
      assertThat(named).hasMessageContaining("the bucket records pointer store jdbc-");
      assertThat(same.destination("reports").strategy())
          .isEqualTo(Strategy.STAGED_WITH_POINTER_STORE);
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
}
