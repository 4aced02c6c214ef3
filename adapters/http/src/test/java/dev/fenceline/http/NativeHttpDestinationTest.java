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

import dev.fenceline.spi.Destination;
import dev.fenceline.spi.LeaseIssuer;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StepListener;
import dev.fenceline.spi.TokenKeys;
import dev.fenceline.tck.ConcurrencyControl;
import dev.fenceline.tck.DestinationContract;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * The destination suite against {@link FakeFencedApi}: a native destination over HTTP is a fenced
 * destination when the API checks tokens and replays results. The suite's pause points run inside
 * the API's JDBC transaction, on the API's handler thread.
 */
class NativeHttpDestinationTest extends DestinationContract<ApiRequest> {

  private static final HttpClient CLIENT =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

  @TempDir Path directory;
  private FakeFencedApi api;

  private FakeFencedApi api() {
    if (api == null) {
      api = new FakeFencedApi(directory);
    }
    return api;
  }

  @AfterEach
  void stopApi() {
    if (api != null) {
      api.close();
    }
  }

  @Override
  protected Destination<ApiRequest> destination(
      String name, StepListener steps, Optional<TokenKeys> keys) {
    FakeFencedApi.Profile profile = api().profile(steps, keys);
    return new TestedDestination(
        api(),
        profile,
        FakeFencedApi.configuredFor(profile.baseUri())
            .name(name)
            .httpClient(CLIENT)
            // Longer than the suite's pauses (PausePoints.TIMEOUT), which hold a request open.
            .attemptTimeLimit(Duration.ofSeconds(60))
            // The suite simulates a worker crash inside the API, which the destination sees as a
            // 500; a crashed worker sends nothing more, so its requests are sent once here.
            .maxAttempts(1)
            .build());
  }

  @Override
  protected ConcurrencyControl concurrencyControl() {
    return ConcurrencyControl.LOCKING; // the API's SQLite transaction holds the write lock
  }

  @Override
  protected ApiRequest change(ResourceId resource, String payload) {
    return ApiRequest.of(
        "POST",
        "/reports",
        "text/plain; charset=utf-8",
        Map.of(),
        new ApiRequest.BytesBody(payload.getBytes(StandardCharsets.UTF_8)));
  }

  @Override
  protected Optional<String> published(ResourceId resource) {
    return api().published(resource);
  }

  @Override
  protected long applyCount(ResourceId resource) {
    return api().applyCount(resource);
  }

  @Override
  protected LeaseIssuer issuer() {
    return api().store().leaseIssuer();
  }

  @Override
  protected void restartStore() {
    api().restart();
  }
}
