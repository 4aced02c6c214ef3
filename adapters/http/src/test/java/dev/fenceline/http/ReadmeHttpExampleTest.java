package dev.fenceline.http;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.tomakehurst.wiremock.WireMockServer;
import dev.fenceline.core.Fenceline;
import dev.fenceline.core.HeldLease;
import dev.fenceline.jdbc.JdbcStore;
import dev.fenceline.spi.AlreadyApplied;
import dev.fenceline.spi.Applied;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.WriteOutcome;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The README's "call an external API" example, kept compiling and passing (on WireMock). */
class ReadmeHttpExampleTest {

  @TempDir Path directory;

  /** The README's example, verbatim apart from the base URI and where the token is read from. */
  String payInvoice(Path database, URI partnerApi) {
    try (JdbcStore store = JdbcStore.sqlite(database);
        Fenceline fenceline =
            Fenceline.builder()
                .issuer(store.leaseIssuer())
                .holder("billing-worker-1")
                .allowFencedAtIntent(true) // see the failure table below
                .build()) {
      HttpApiDestination payments =
          HttpApiDestination.builder()
              .name("payments")
              .baseUri(partnerApi) // README: URI.create("https://api.partner.example")
              .intentStore(store.intentStore("payments")) // fenced intents, same database
              .bearerTokenFromEnv("PARTNER_API_TOKEN")
              .environment(Map.of("PARTNER_API_TOKEN", "test-token")::get) // README: not set
              .attemptTimeLimit(Duration.ofSeconds(10))
              .maxAttempts(4)
              .receiptField("payment-id", "/id")
              .lookup("/v1/payments?idempotency_key={key}", "/data/0", "/idempotency_key")
              .keyRetention(Duration.ofHours(24))
              .build();
      ResourceId invoice = ResourceId.of("invoice-2026-11");

      try (HeldLease lease = fenceline.tryAcquire(invoice).orElseThrow()) {
        fenceline.register(lease, payments);
        ApiRequest payment =
            ApiRequest.postJson("/v1/payments", "{\"amount\":1200,\"currency\":\"EUR\"}");
        WriteOutcome outcome =
            fenceline.publish(lease, payments, OperationId.of("pay-invoice-2026-11"), payment);
        if (outcome instanceof Applied applied) {
          return "paid " + applied.receipt().attribute("payment-id").orElse("?");
        } else if (outcome instanceof AlreadyApplied) {
          return "paid before"; // answered from the record, nothing sent
        } else {
          return "lost the lease, sent nothing"; // RejectedStale
        }
      } catch (ApiOutcomeUnknownException inDoubt) {
        return "in doubt under key " + inDoubt.idempotencyKey() + ": retry later";
      }
    }
  }

  @Test
  void theReadmeExamplePaysOnceAndAnswersARetryFromTheRecord() {
    WireMockServer api = new WireMockServer(options().dynamicPort());
    api.start();
    try {
      api.stubFor(
          post(urlEqualTo("/v1/payments"))
              .willReturn(aResponse().withStatus(201).withBody("{\"id\":\"pay_123\"}")));
      Path database = directory.resolve("fenceline.db");

      assertThat(payInvoice(database, URI.create(api.baseUrl()))).isEqualTo("paid pay_123");
      assertThat(payInvoice(database, URI.create(api.baseUrl()))).isEqualTo("paid before");

      api.verify(
          1,
          postRequestedFor(urlEqualTo("/v1/payments"))
              .withHeader("Authorization", equalTo("Bearer test-token"))
              .withHeader(
                  "Idempotency-Key",
                  equalTo(
                      IdempotencyKeys.of(
                          "payments",
                          ResourceId.of("invoice-2026-11"),
                          OperationId.of("pay-invoice-2026-11")))));
    } finally {
      api.stop();
    }
  }
}
