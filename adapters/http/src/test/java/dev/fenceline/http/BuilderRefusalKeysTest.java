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
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.fenceline.spi.ConfigurationException;
import dev.fenceline.tck.memory.InMemoryIntentStore;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every refusal of a builder setting or of a {@code build()} cross-check carries, as {@link
 * ConfigurationException#key()}, the YAML key of the http destination it is about (for a
 * cross-check, the key whose change fixes it), so that the configuration loader points at that line
 * without reading the message; a setting that YAML does not offer is refused without a key.
 */
class BuilderRefusalKeysTest {

  private static final String NONE = null;

  private static HttpApiDestination.Builder intent() {
    return HttpApiDestination.builder()
        .name("payments")
        .baseUri(URI.create("https://api.example.com/v1"))
        .intentStore(InMemoryIntentStore.create("payments"))
        .keysHonoured(true)
        .bearerTokenFromEnv("PARTNER_TOKEN")
        .environment(Map.of("PARTNER_TOKEN", "tok-123")::get);
  }

  private static NativeHttpDestination.Builder nativeMode() {
    return NativeHttpDestination.builder()
        .name("reports")
        .baseUri(URI.create("https://api.example.com"))
        .registerRequest("/fencing/register")
        .currentEpochRequest("/fencing/epoch?resource={resource}");
  }

  private static Arguments intent(
      String refusal, String key, Consumer<HttpApiDestination.Builder> setting) {
    return Arguments.of("intent mode: " + refusal, key, (Runnable) () -> setting.accept(intent()));
  }

  private static Arguments nativeMode(
      String refusal, String key, Consumer<NativeHttpDestination.Builder> setting) {
    return Arguments.of(
        "native mode: " + refusal, key, (Runnable) () -> setting.accept(nativeMode()));
  }

  static Stream<Arguments> refusals() {
    Duration zero = Duration.ZERO;
    Duration second = Duration.ofSeconds(1);
    return Stream.of(
        intent("invalid name", NONE, b -> b.name("Payments")),
        intent("scheme", "base-uri", b -> b.baseUri(URI.create("ftp://api.example.com"))),
        intent("user info", "base-uri", b -> b.baseUri(URI.create("https://u:p@api.example.com"))),
        intent("key header", "idempotency-key-header", b -> b.idempotencyKeyHeader("Host")),
        intent("token variable name", "bearer-token-env", b -> b.bearerTokenFromEnv("A-B")),
        intent("token variable unset", "bearer-token-env", b -> b.environment(v -> null).build()),
        intent("token value", "bearer-token-env", b -> b.environment(v -> "a b").build()),
        intent("attempt time limit", "attempt-time-limit", b -> b.attemptTimeLimit(zero)),
        intent("call time limit", NONE, b -> b.callTimeLimit(zero)),
        intent("max attempts", "max-attempts", b -> b.maxAttempts(21)),
        intent("initial backoff", "backoff.initial", b -> b.backoff(zero, 2.0, second)),
        intent("max backoff", "backoff.max", b -> b.backoff(second, 2.0, zero)),
        intent("multiplier", "backoff.multiplier", b -> b.backoff(second, 0.5, second)),
        intent(
            "max below initial", "backoff.max", b -> b.backoff(second, 2.0, Duration.ofMillis(1))),
        intent("jitter", NONE, b -> b.jitter(1.0)),
        intent("receipt field name", "receipt-fields", b -> b.receiptField("http-status", "/id")),
        intent("receipt field pointer", "receipt-fields", b -> b.receiptField("id", "id")),
        intent("lookup placeholder", "lookup.path", b -> b.lookup("/p?key={id}")),
        intent("lookup without key", "lookup.path", b -> b.lookup("/payments")),
        intent("lookup not relative", "lookup.path", b -> b.lookup("payments/{key}")),
        intent("lookup list", "lookup.path", b -> b.lookup("/p?idempotency_key={key}")),
        intent("record pointer", "lookup.record-pointer", b -> b.lookup("/p/{key}", "data")),
        intent("key pointer", "lookup.key-pointer", b -> b.lookup("/p/{key}", null, "key")),
        intent("key retention", "key-retention", b -> b.keyRetention(zero)),
        intent("max response bytes", NONE, b -> b.maxResponseBytes(10)),
        Arguments.of(
            "intent mode: build without a name",
            NONE,
            (Runnable) () -> HttpApiDestination.builder().build()),
        Arguments.of(
            "intent mode: build without a base URI",
            "base-uri",
            (Runnable) () -> HttpApiDestination.builder().name("payments").build()),
        Arguments.of(
            "intent mode: build without an intent store",
            "intent-store",
            (Runnable)
                () ->
                    HttpApiDestination.builder()
                        .name("payments")
                        .baseUri(URI.create("https://api.example.com"))
                        .build()),
        intent(
            "build with another destination's intent store",
            "intent-store",
            b -> b.intentStore(InMemoryIntentStore.create("refunds")).build()),
        intent(
            "build re-sending blind without keys honoured",
            "keys-honoured",
            b -> b.keysHonoured(false).build()),
        intent(
            "build re-sending in doubt without keys honoured",
            "resend-in-doubt-without-lookup",
            b -> b.keysHonoured(false).maxAttempts(1).resendInDoubtWithoutLookup(true).build()),
        intent(
            "build with a key retention the retries outlast",
            "key-retention",
            b -> b.keyRetention(Duration.ofSeconds(5)).build()),
        nativeMode("scheme", "base-uri", b -> b.baseUri(URI.create("ftp://api.example.com"))),
        nativeMode("key header", "idempotency-key-header", b -> b.idempotencyKeyHeader("Expect")),
        nativeMode("token variable name", "bearer-token-env", b -> b.bearerTokenFromEnv("A-B")),
        nativeMode("attempt time limit", "attempt-time-limit", b -> b.attemptTimeLimit(zero)),
        nativeMode("max attempts", "max-attempts", b -> b.maxAttempts(0)),
        nativeMode("token header", NONE, b -> b.tokenHeader("Authorization")),
        nativeMode("stale token status", NONE, b -> b.staleTokenStatus(503)),
        nativeMode("epoch pointer", NONE, b -> b.epochPointer("epoch")),
        nativeMode("lookup request", NONE, b -> b.lookupRequest("/operations/{resource}")),
        nativeMode("receipt attribute", NONE, b -> b.receiptAttribute("Payment ID", "/id")),
        Arguments.of(
            "native mode: build without a base URI",
            "base-uri",
            (Runnable) () -> NativeHttpDestination.builder().name("reports").build()),
        Arguments.of(
            "native mode: build without a register request",
            NONE,
            (Runnable)
                () ->
                    NativeHttpDestination.builder()
                        .name("reports")
                        .baseUri(URI.create("https://api.example.com"))
                        .build()),
        nativeMode("build with clashing statuses", NONE, b -> b.conflictStatus(409).build()),
        nativeMode(
            "build with the token in the key header",
            NONE,
            b -> b.idempotencyKeyHeader("fencing-token").build()));
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @MethodSource("refusals")
  void eachRefusalCarriesTheYamlKeyItIsAbout(String refusal, String key, Runnable setting) {
    ConfigurationException refused =
        catchThrowableOfType(ConfigurationException.class, setting::run);

    assertThat(refused).as(refusal + " is refused").isNotNull();
    assertThat(refused.key()).as(refused.getMessage()).isEqualTo(Optional.ofNullable(key));
  }
}
