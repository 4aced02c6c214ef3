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

import dev.fenceline.spi.ConfigurationException;
import dev.fenceline.tck.memory.InMemoryIntentStore;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The settings both HTTP destinations share are checked by one builder, so both builders answer
 * alike where their copies used to differ.
 */
class SharedEndpointSettingsTest {

  @Test
  void bothTakeABaseUriWhoseSchemeIsWrittenInCapitals() {
    // Schemes are case-insensitive (RFC 3986, 3.1) and the JDK client sends HTTPS://... as is.
    URI capitals = URI.create("HTTPS://api.example.com/v1");

    HttpApiDestination intent =
        HttpApiDestination.builder()
            .name("payments")
            .baseUri(capitals)
            .intentStore(InMemoryIntentStore.create("payments"))
            .maxAttempts(1)
            .build();
    NativeHttpDestination nativeMode =
        NativeHttpDestination.builder()
            .name("reports")
            .baseUri(capitals)
            .registerRequest("/fencing/register")
            .currentEpochRequest("/fencing/epoch?resource={resource}")
            .build();

    assertThat(intent.toString()).contains("HTTPS://api.example.com/v1");
    assertThat(nativeMode.toString()).contains("HTTPS://api.example.com/v1");
  }

  @Test
  void bothRefuseAKeyHeaderTheClientRefusesToSendOrTheDestinationSets() {
    for (String header : List.of("Expect", "Upgrade", "Transfer-Encoding", "Authorization")) {
      assertThatThrownBy(() -> HttpApiDestination.builder().idempotencyKeyHeader(header))
          .isInstanceOf(ConfigurationException.class)
          .hasMessageContaining("\"" + header + "\"");
      assertThatThrownBy(() -> NativeHttpDestination.builder().idempotencyKeyHeader(header))
          .isInstanceOf(ConfigurationException.class)
          .hasMessageContaining("\"" + header + "\"");
      assertThatThrownBy(() -> NativeHttpDestination.builder().tokenHeader(header))
          .isInstanceOf(ConfigurationException.class)
          .hasMessageContaining("\"" + header + "\"");
    }
  }

  @Test
  void bothStartFromTheSameStatedDefaults() {
    for (EndpointSettings.Kind kind :
        List.of(EndpointSettings.Kind.INTENT, EndpointSettings.Kind.NATIVE)) {
      EndpointSettings.Builder builder = new EndpointSettings.Builder(kind);
      builder.name("payments");
      builder.baseUri(URI.create("https://api.example.com"));
      EndpointSettings settings = builder.build();

      assertThat(settings.attemptTimeLimit())
          .as(kind.named())
          .isEqualTo(HttpApiDestination.DEFAULT_ATTEMPT_TIME_LIMIT)
          .isEqualTo(Duration.ofSeconds(3));
      assertThat(settings.maxAttempts()).as(kind.named()).isEqualTo(3);
      assertThat(settings.idempotencyKeyHeader()).as(kind.named()).isEqualTo("Idempotency-Key");
      assertThat(settings.bearer()).as(kind.named()).isEmpty();
    }
  }
}
