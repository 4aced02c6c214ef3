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
                    "30s"))) {
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
  void rejectsUnknownMissingAndMalformedKeysByName() {
    assertThatThrownBy(() -> jdbc().create("main", Map.of("url", "jdbc:sqlite:x", "uri", "y")))
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("unknown key \"uri\"")
        .hasMessageContaining(
            "known keys: [connect-timeout, lock-timeout, login-timeout, password,");
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
