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
package dev.fenceline.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fenceline.spi.Adapter;
import dev.fenceline.spi.AdapterFactory;
import dev.fenceline.spi.ConfigurationException;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.Guarantee;
import dev.fenceline.spi.IntentRecorded;
import dev.fenceline.spi.IntentStore;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Pointer;
import dev.fenceline.spi.PointerState;
import dev.fenceline.spi.PointerStore;
import dev.fenceline.spi.RequestFingerprint;
import dev.fenceline.spi.ResourceId;
import java.nio.file.Path;
import java.util.Map;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JdbcAdapterFactoryTest {

  @TempDir Path directory;

  private static AdapterFactory jdbc() {
    return ServiceLoader.load(AdapterFactory.class).stream()
        .map(ServiceLoader.Provider::get)
        .filter(factory -> factory.name().equals("jdbc"))
        .findFirst()
        .orElseThrow();
  }

  @Test
  void isFoundByServiceLoaderAndOffersAnIssuerAPointerStoreAndAnIntentStore() {
    String url = "jdbc:sqlite:" + directory.resolve("fenceline.db");
    try (Adapter adapter =
        jdbc()
            .create(
                "main",
                Map.of(
                    "url",
                    url,
                    "lock-timeout",
                    "5s",
                    "statement-timeout",
                    "20s",
                    "connect-timeout",
                    "3s",
                    "login-timeout",
                    "4s",
                    "socket-timeout",
                    "30s",
                    "migration-timeout",
                    "20m"))) {
      assertThat(adapter.leaseIssuer()).isPresent();
      assertThat(adapter.pointerStore("reports").orElseThrow().guarantee())
          .isEqualTo(Guarantee.FENCED);
      assertThat(adapter.blobStore()).isEmpty();
      IntentStore payments = adapter.intentStore("payments").orElseThrow();
      ResourceId resource = ResourceId.of("payments/order-1");
      FencingToken token =
          new FencingToken(
              adapter.pointerStore("reports").orElseThrow().storeId(),
              resource,
              Epoch.of(1),
              "worker-a");
      assertThat(payments.name()).isEqualTo("payments");
      assertThat(payments.begin(token, OperationId.of("pay-1"), RequestFingerprint.sha256("x")))
          .isInstanceOf(IntentRecorded.class);
      assertThat(
              adapter
                  .intentStore("payments")
                  .orElseThrow()
                  .lookup(resource, OperationId.of("pay-1")))
          .isPresent();
    }
  }

  @Test
  void retentionKeysPruneInTheBackgroundUntilTheAdapterCloses() {
    String url = "jdbc:sqlite:" + directory.resolve("retention.db");
    ResourceId resource = ResourceId.of("reports/daily");
    try (Adapter adapter =
        jdbc()
            .create(
                "main",
                Map.of(
                    "url", url,
                    "receipt-retention", "PT168H",
                    "pointer-versions", "2",
                    "prune-every", "5ms"))) {
      PointerStore reports = adapter.pointerStore("reports").orElseThrow();
      for (int version = 1; version <= 5; version++) {
        reports.write(
            new FencingToken(reports.storeId(), resource, Epoch.of(1), "worker"),
            OperationId.of("publish-" + version),
            Pointer.to("v" + version));
      }
      // Waits for an observable result of the background thread (no fixed sleep).
      long deadline = System.nanoTime() + java.time.Duration.ofSeconds(30).toNanos();
      while (reports.history(resource, 10).size() > 2 && System.nanoTime() < deadline) {
        java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
      }
      assertThat(reports.history(resource, 10))
          .extracting(PointerState::version)
          .containsExactly(5L, 4L);
      assertThat(reports.lookup(resource, OperationId.of("publish-1")))
          .as("receipts younger than the retention are kept")
          .isPresent();
    }
  }

  @Test
  void rejectsIncompleteAndMalformedRetentionKeysByName() {
    String url = "jdbc:sqlite:" + directory.resolve("retention.db");
    assertThatThrownBy(() -> jdbc().create("main", Map.of("url", url, "pointer-versions", "16")))
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("Cannot configure jdbc adapter \"main\"")
        .hasMessageContaining("key \"pointer-versions\" needs \"receipt-retention\"");
    assertThatThrownBy(
            () -> jdbc().create("main", Map.of("url", url, "receipt-retention", "PT168H")))
        .hasMessageContaining("key \"receipt-retention\" needs \"pointer-versions\"")
        .hasMessageContaining("keep-versions");
    assertThatThrownBy(() -> jdbc().create("main", Map.of("url", url, "prune-every", "60s")))
        .hasMessageContaining("key \"prune-every\" needs \"receipt-retention\"");
    assertThatThrownBy(
            () ->
                jdbc()
                    .create(
                        "main",
                        Map.of("url", url, "receipt-retention", "0s", "pointer-versions", "16")))
        .hasMessageContaining("key \"receipt-retention\" has value \"0s\"")
        .hasMessageContaining("retry");
    assertThatThrownBy(
            () ->
                jdbc()
                    .create(
                        "main",
                        Map.of("url", url, "receipt-retention", "PT1H", "pointer-versions", "0")))
        .hasMessageContaining("key \"pointer-versions\" has value \"0\"")
        .hasMessageContaining("from 1 to");
    assertThatThrownBy(
            () ->
                jdbc()
                    .create(
                        "main",
                        Map.of(
                            "url",
                            url,
                            "receipt-retention",
                            "PT1H",
                            "pointer-versions",
                            "3",
                            "prune-every",
                            "0s")))
        .hasMessageContaining("key \"prune-every\" has value \"0s\"");
  }

  @Test
  void rejectsUnknownMissingAndMalformedKeysByName() {
    assertThatThrownBy(() -> jdbc().create("main", Map.of("url", "jdbc:sqlite:x", "uri", "y")))
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("unknown key \"uri\"")
        .hasMessageContaining(
            "known keys: [connect-timeout, lock-timeout, login-timeout, migration-timeout, password,");
    assertThatThrownBy(() -> jdbc().create("main", Map.of()))
        .hasMessageContaining("key \"url\" is missing");
    assertThatThrownBy(
            () -> jdbc().create("main", Map.of("url", "jdbc:sqlite:x", "lock-timeout", "soon")))
        .hasMessageContaining("\"lock-timeout\" has value \"soon\"")
        .hasMessageContaining("30s");
    assertThatThrownBy(
            () ->
                jdbc()
                    .create(
                        "main",
                        Map.of(
                            "url", "jdbc:sqlite:x", "unsafe-allow-epoch-rollback-on-crash", "yes")))
        .hasMessageContaining("write true or false");
  }
}
