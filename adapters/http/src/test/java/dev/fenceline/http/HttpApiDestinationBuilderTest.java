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
package dev.fenceline.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fenceline.spi.Capability;
import dev.fenceline.spi.ConfigurationException;
import dev.fenceline.spi.Guarantee;
import dev.fenceline.tck.memory.InMemoryIntentStore;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HttpApiDestinationBuilderTest {

  private static final String SECRET = "tok-very-secret-123";

  private static HttpApiDestination.Builder valid() {
    return HttpApiDestination.builder()
        .name("payments")
        .baseUri(URI.create("https://api.example.com/v1"))
        .intentStore(InMemoryIntentStore.create("payments"))
        .keysHonoured(true) // no lookup: re-sends rely on the API honouring keys
        .bearerTokenFromEnv("PARTNER_TOKEN")
        .environment(Map.of("PARTNER_TOKEN", SECRET)::get);
  }

  @Test
  void withoutALookupTheGuaranteeIsStillFencedAtIntentButNoResultLookup() {
    HttpApiDestination destination = valid().build();

    assertThat(destination.capabilities())
        .containsExactlyInAnyOrder(Capability.FENCED_INTENT, Capability.IDEMPOTENCY_KEY);
    assertThat(destination.guarantee()).isEqualTo(Guarantee.FENCED_AT_INTENT);
    assertThat(destination.toString()).contains("payments", "PARTNER_TOKEN").doesNotContain(SECRET);
  }

  @Test
  void requiresNameBaseUriAndIntentStore() {
    assertThatThrownBy(() -> HttpApiDestination.builder().build())
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("no name is set");
    assertThatThrownBy(() -> HttpApiDestination.builder().name("payments").build())
        .hasMessageContaining("no base URI is set");
    assertThatThrownBy(
            () ->
                HttpApiDestination.builder()
                    .name("payments")
                    .baseUri(URI.create("https://api.example.com"))
                    .build())
        .hasMessageStartingWith("Cannot build HTTP API destination payments: no intent store");
  }

  @Test
  void theIntentStoreMustCarryTheDestinationsName() {
    assertThatThrownBy(() -> valid().intentStore(InMemoryIntentStore.create("refunds")).build())
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("\"refunds\"")
        .hasMessageContaining("open the intent store as \"payments\"");
  }

  @Test
  void aMissingTokenVariableNamesTheVariable() {
    assertThatThrownBy(() -> valid().environment(name -> null).build())
        .isInstanceOf(ConfigurationException.class)
        .hasMessage(
            "Cannot read the bearer token from environment variable PARTNER_TOKEN: it is not set"
                + " or blank (export PARTNER_TOKEN with the API's token before starting)");
    assertThatThrownBy(
            () -> valid().environment(Map.of("PARTNER_TOKEN", SECRET + "\n x")::get).build())
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("PARTNER_TOKEN")
        .message()
        .doesNotContain(SECRET);
    assertThatThrownBy(() -> valid().bearerTokenFromEnv("PARTNER-TOKEN"))
        .hasMessageContaining("\"PARTNER-TOKEN\"");
  }

  @Test
  void refusesBadValuesNamingThemAndTheFix() {
    assertThatThrownBy(() -> valid().name("Payments"))
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("\"Payments\"");
    assertThatThrownBy(() -> valid().baseUri(URI.create("ftp://api.example.com")))
        .hasMessageContaining("\"ftp://api.example.com\"")
        .hasMessageContaining("http or https");
    assertThatThrownBy(() -> valid().baseUri(URI.create("https://user:pw@api.example.com")))
        .hasMessageContaining("***@api.example.com")
        .hasMessageContaining("user information")
        .message()
        .doesNotContain("pw");
    assertThatThrownBy(() -> valid().idempotencyKeyHeader("Authorization"))
        .hasMessageContaining("\"Authorization\"");
    assertThatThrownBy(() -> valid().attemptTimeLimit(Duration.ZERO))
        .hasMessageContaining("attempt time limit PT0S");
    assertThatThrownBy(() -> valid().maxAttempts(0)).hasMessageContaining("max attempts 0");
    assertThatThrownBy(() -> valid().backoff(Duration.ofSeconds(2), 2.0, Duration.ofSeconds(1)))
        .hasMessageContaining("max backoff PT1S");
    assertThatThrownBy(() -> valid().backoff(Duration.ofMillis(1), 0.5, Duration.ofSeconds(1)))
        .hasMessageContaining("backoff multiplier 0.5");
    assertThatThrownBy(() -> valid().jitter(1.0)).hasMessageContaining("backoff jitter 1.0");
    assertThatThrownBy(() -> valid().receiptField("Payment ID", "/id"))
        .hasMessageContaining("\"Payment ID\"");
    assertThatThrownBy(() -> valid().receiptField("http-status", "/id"))
        .hasMessageContaining("\"http-status\"");
    assertThatThrownBy(() -> valid().receiptField("payment-id", "id"))
        .hasMessageContaining("JSON pointer \"id\"")
        .hasMessageContaining("receipt field payment-id");
    assertThatThrownBy(() -> valid().lookup("/payments?key={id}"))
        .hasMessageContaining("unknown placeholder {id}");
    assertThatThrownBy(() -> valid().lookup("/payments"))
        .hasMessageContaining("\"/payments\"")
        .hasMessageContaining("no {key} placeholder");
    assertThatThrownBy(() -> valid().lookup("payments/{key}"))
        .hasMessageContaining("starting with /");
    assertThatThrownBy(() -> valid().lookup("/payments?idempotency_key={key}"))
        .as("a list endpoint without a record pointer would take {\"data\":[]} as found")
        .hasMessageContaining("without a record pointer")
        .hasMessageContaining("\"/data/0\"");
    assertThat(valid().lookup("/payments/by-key/{key}").build().capabilities())
        .contains(dev.fenceline.spi.Capability.RESULT_LOOKUP);
    assertThatThrownBy(() -> valid().maxResponseBytes(10))
        .hasMessageContaining("max response bytes 10");
  }

  @Test
  void withoutALookupInCallReSendsMustBeDeclaredToRelyOnTheApiHonouringKeys() {
    HttpApiDestination.Builder undeclared =
        HttpApiDestination.builder()
            .name("payments")
            .baseUri(URI.create("https://api.example.com/v1"))
            .intentStore(InMemoryIntentStore.create("payments"));

    assertThatThrownBy(undeclared::build)
        .isInstanceOf(ConfigurationException.class)
        .hasMessageStartingWith("Cannot build HTTP API destination payments: no lookup request")
        .hasMessageContaining(
            "max attempts 3", "Idempotency-Key", "keysHonoured(true)", "lookup(", "maxAttempts(1)");
    assertThatThrownBy(() -> undeclared.idempotencyKeyHeader("X-Request-Key").build())
        .hasMessageContaining("X-Request-Key");
    assertThatThrownBy(() -> undeclared.maxAttempts(1).resendInDoubtWithoutLookup(true).build())
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("resendInDoubtWithoutLookup(true)", "keysHonoured(true)");

    assertThat(undeclared.resendInDoubtWithoutLookup(false).maxAttempts(1).build().resendRule())
        .isEqualTo(HttpApiDestination.ResendRule.SEND_ONCE);
    HttpApiDestination declared = undeclared.maxAttempts(3).keysHonoured(true).build();
    assertThat(declared.resendRule()).isEqualTo(HttpApiDestination.ResendRule.KEYS_HONOURED);
    assertThat(declared.describeResendRule())
        .contains("keys honoured", "X-Request-Key", "applies it again");
    HttpApiDestination withLookup =
        undeclared.keysHonoured(false).lookup("/payments/by-key/{key}").build();
    assertThat(withLookup.resendRule()).isEqualTo(HttpApiDestination.ResendRule.LOOKUP_FIRST);
    assertThat(withLookup.describeResendRule()).contains("lookup first", "/payments/by-key/{key}");
  }

  @Test
  void lookupTemplateIsUrlEncoded() {
    ApiCalls.LookupRequest lookup =
        new ApiCalls.LookupRequest(
            "/p/{resource}?op={operation}&k={key}",
            java.util.Optional.empty(),
            java.util.Optional.empty());
    assertThat(
            lookup.path(
                "fl1-ab",
                dev.fenceline.spi.ResourceId.of("reports/2026-10"),
                dev.fenceline.spi.OperationId.of("a&b=c d")))
        .isEqualTo("/p/reports%2F2026-10?op=a%26b%3Dc%20d&k=fl1-ab");
  }

  @Test
  void keyRetentionThatTheWritesOwnRetriesCouldOutlastIsRefused() {
    // 4 × (50 s + 10 s) = 4 min: the API could forget the key while one write still retries.
    HttpApiDestination.Builder tooShort =
        valid()
            .maxAttempts(4)
            .attemptTimeLimit(Duration.ofSeconds(50))
            .backoff(Duration.ofSeconds(1), 2.0, Duration.ofSeconds(10))
            .keyRetention(Duration.ofMinutes(4));

    assertThatThrownBy(tooShort::build)
        .isInstanceOf(ConfigurationException.class)
        .hasMessageStartingWith(
            "Cannot build HTTP API destination payments with key retention PT4M")
        .hasMessageContaining("up to PT4M", "attempt time limit PT50S", "lower maxAttempts");
    assertThat(tooShort.keyRetention(Duration.ofMinutes(4).plusSeconds(1)).build()).isNotNull();
  }
}
