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

import dev.fenceline.spi.AlreadyApplied;
import dev.fenceline.spi.Applied;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.Guarantee;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.RejectedStale;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StepListener;
import dev.fenceline.tck.ReadmeExamples;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The native-mode example of docs/http.md ({@code reportsApi()}), compiled from the page as it
 * stands and used against {@link FakeFencedApi}, an API that checks tokens itself; its base URI and
 * token environment point at the test's.
 */
class ReadmeNativeHttpExampleTest {

  @TempDir Path directory;

  @Test
  void thePagesNativeDestinationPublishesReplaysAndRejectsAStaleToken() throws Exception {
    try (FakeFencedApi api = new FakeFencedApi(directory)) {
      api.requireBearer("reports-token");
      String baseUri = api.profile(StepListener.NONE, Optional.empty()).baseUri().toString();
      Class<?> example =
          ReadmeExamples.loadDocs()
              .containing("static NativeHttpDestination reportsApi()")
              .replacing(
                  Map.of(
                      "URI.create(\"https://reports.partner.example\")",
                      "URI.create(\"" + baseUri + "\")",
                      ".bearerTokenFromEnv(\"REPORTS_API_TOKEN\")",
                      ".bearerTokenFromEnv(\"REPORTS_API_TOKEN\")"
                          + ".environment(java.util.Map.of(\"REPORTS_API_TOKEN\","
                          + " \"reports-token\")::get)"))
              .compile();
      NativeHttpDestination reports =
          (NativeHttpDestination) ReadmeExamples.call(example, "reportsApi");
      String issuer = api.store().leaseIssuer().id();
      ResourceId resource = ResourceId.of("reports/nightly");
      FencingToken current = new FencingToken(issuer, resource, Epoch.of(34), "worker-34");
      FencingToken stale = new FencingToken(issuer, resource, Epoch.of(33), "worker-33");

      assertThat(reports.guarantee()).isEqualTo(Guarantee.FENCED);
      reports.register(current);
      var applied = reports.write(current, OperationId.of("nightly-1"), report("orders: 42"));
      var retried = reports.write(current, OperationId.of("nightly-1"), report("orders: 42"));
      var rejected = reports.write(stale, OperationId.of("nightly-0"), report("orders: 41"));

      assertThat(applied).isInstanceOf(Applied.class);
      assertThat(retried).isEqualTo(new AlreadyApplied(((Applied) applied).receipt()));
      assertThat(rejected).isEqualTo(new RejectedStale(resource, Epoch.of(33), Epoch.of(34)));
      assertThat(api.published(resource)).contains("orders: 42");
      assertThat(api.applyCount(resource)).as("applied once").isEqualTo(1);
      assertThat(api.lastAuthorization()).contains("Bearer reports-token");
    }
  }

  private static ApiRequest report(String text) {
    return ApiRequest.of(
        "POST",
        "/reports",
        "text/plain",
        Map.of(),
        new ApiRequest.BytesBody(text.getBytes(StandardCharsets.UTF_8)));
  }
}
