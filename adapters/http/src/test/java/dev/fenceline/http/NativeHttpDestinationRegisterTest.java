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

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.tomakehurst.wiremock.WireMockServer;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.Registered;
import dev.fenceline.spi.RejectedStale;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StoreException;
import java.net.URI;
import java.net.http.HttpClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * How {@link NativeHttpDestination#register} reads a success: the epochs in a 2xx answer must agree
 * with the epoch it was asked to register (issue 18, item 10). Against WireMock, which answers what
 * each test says, right or wrong.
 */
class NativeHttpDestinationRegisterTest {

  private static final HttpClient CLIENT =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  private static final ResourceId RESOURCE = ResourceId.of("reports/nightly");
  private static final FencingToken TOKEN =
      new FencingToken("issuer-1", RESOURCE, Epoch.of(5), "worker-5");

  private WireMockServer server;
  private NativeHttpDestination destination;

  @BeforeEach
  void start() {
    server = new WireMockServer(options().dynamicPort());
    server.start();
    destination =
        NativeHttpDestination.builder()
            .name("reports")
            .baseUri(URI.create(server.baseUrl()))
            .httpClient(CLIENT)
            .registerRequest("/fencing/register")
            .currentEpochRequest("/fencing/epoch?resource={resource}")
            .build();
  }

  @AfterEach
  void stop() {
    server.stop();
  }

  private void registerAnswers(int status, String body) {
    server.stubFor(
        post(urlEqualTo("/fencing/register"))
            .willReturn(
                aResponse()
                    .withStatus(status)
                    .withHeader("Content-Type", "application/json")
                    .withBody(body)));
  }

  @Test
  void aSuccessWithTheRequestedEpochIsRegistered() {
    registerAnswers(200, "{\"current-epoch\":5,\"previous-epoch\":3}");

    assertThat(destination.register(TOKEN))
        .isEqualTo(new Registered(RESOURCE, Epoch.of(5), Epoch.of(3)));
    server.verify(1, postRequestedFor(urlEqualTo("/fencing/register")));
  }

  @Test
  void aSuccessThatSaysANewerEpochIsCurrentIsRejectedStale() {
    // An API that answers 200 with its current state even when it kept the newer epoch.
    registerAnswers(200, "{\"current-epoch\":7,\"previous-epoch\":7}");

    assertThat(destination.register(TOKEN))
        .as("epoch 7 is registered: the new owner with epoch 5 is already stale")
        .isEqualTo(new RejectedStale(RESOURCE, Epoch.of(5), Epoch.of(7)));
  }

  @Test
  void aSuccessThatSaysAnOlderEpochIsCurrentIsAnErrorWhoseOutcomeIsUnknown() {
    registerAnswers(200, "{\"current-epoch\":4,\"previous-epoch\":4}");

    assertThatThrownBy(() -> destination.register(TOKEN))
        .isInstanceOfSatisfying(StoreException.class, e -> assertThat(e.outcomeUnknown()).isTrue())
        .hasMessage(
            "Cannot register reports/nightly@5 (worker-5) at reports: the API answered 200 but says"
                + " the current epoch is 4 and the previous one 4, which contradicts registering"
                + " epoch 5 (check the API and the current and previous epoch pointers; registering"
                + " the same epoch again is safe)");
  }

  @Test
  void aSuccessWhosePreviousEpochIsNewerThanTheRegisteredOneIsAnError() {
    registerAnswers(200, "{\"current-epoch\":5,\"previous-epoch\":9}");

    assertThatThrownBy(() -> destination.register(TOKEN))
        .isInstanceOfSatisfying(StoreException.class, e -> assertThat(e.outcomeUnknown()).isTrue())
        .hasMessageContaining("the current epoch is 5 and the previous one 9");
  }

  @Test
  void aSuccessWithoutAnEpochIsAnErrorThatMayHaveRegistered() {
    registerAnswers(200, "{\"registered\":true}");

    assertThatThrownBy(() -> destination.register(TOKEN))
        .isInstanceOfSatisfying(
            StoreException.class,
            e -> assertThat(e.outcomeUnknown()).as("the API said it registered").isTrue())
        .hasMessageContaining("the API answered 200 but no epoch at /current-epoch");
  }
}
