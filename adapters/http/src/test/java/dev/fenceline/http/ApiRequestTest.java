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

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ApiRequestTest {

  @TempDir Path directory;

  @Test
  void refusesAMethodThatChangesNothing() {
    assertThatThrownBy(
            () -> ApiRequest.of("GET", "/payments", "application/json", Map.of(), bytes("{}")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("\"GET\"")
        .hasMessageContaining("use POST, PUT, PATCH or DELETE");
  }

  @Test
  void refusesPathsThatAreNotRelative() {
    for (String path :
        new String[] {"payments", "//evil.example/x", "/a/../b", "/a b", "/a#frag", ""}) {
      assertThatThrownBy(() -> ApiRequest.postJson(path, "{}"))
          .as(path)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageStartingWith("Cannot send an API request to path")
          .hasMessageContaining("relative to the base URI");
    }
  }

  @Test
  void refusesHeadersTheDestinationSets() {
    for (String header : new String[] {"Authorization", "idempotency-key", "Content-Type"}) {
      assertThatThrownBy(
              () ->
                  ApiRequest.of("POST", "/p", "application/json", Map.of(header, "x"), bytes("{}")))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining(header)
          .hasMessageContaining("the destination sets it");
    }
  }

  @Test
  void refusesHeaderValuesWithControlCharacters() {
    assertThatThrownBy(
            () ->
                ApiRequest.of(
                    "POST",
                    "/p",
                    "application/json",
                    Map.of("X-Trace", "a\r\nInjected: 1"),
                    bytes("{}")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("control character");
  }

  @Test
  void fingerprintIsStableAndCoversEveryPart() {
    ApiRequest request =
        ApiRequest.of("post", "/p?x=1", "application/json", Map.of("X-A", "1"), bytes("{}"));
    ApiRequest same =
        ApiRequest.of("POST", "/p?x=1", "application/json", Map.of("x-a", "1"), bytes("{}"));

    assertThat(same.fingerprint()).isEqualTo(request.fingerprint());
    assertThat(same).isEqualTo(request);
    assertThat(request.fingerprint().value())
        .isEqualTo(
            ApiRequest.of("POST", "/p?x=1", "application/json", Map.of("X-A", "1"), bytes("{}"))
                .fingerprint()
                .value());
    assertThat(
            java.util.List.of(
                ApiRequest.of("PUT", "/p?x=1", "application/json", Map.of("X-A", "1"), bytes("{}")),
                ApiRequest.of(
                    "POST", "/p?x=2", "application/json", Map.of("X-A", "1"), bytes("{}")),
                ApiRequest.of("POST", "/p?x=1", "text/plain", Map.of("X-A", "1"), bytes("{}")),
                ApiRequest.of(
                    "POST", "/p?x=1", "application/json", Map.of("X-A", "2"), bytes("{}")),
                ApiRequest.of("POST", "/p?x=1", "application/json", Map.of(), bytes("{}")),
                ApiRequest.of(
                    "POST", "/p?x=1", "application/json", Map.of("X-A", "1"), bytes("{ }"))))
        .extracting(ApiRequest::fingerprint)
        .doesNotContain(request.fingerprint())
        .doesNotHaveDuplicates();
  }

  @Test
  void fileBodyIsStreamedAndFingerprintedLikeTheSameBytes() throws IOException {
    byte[] content = new byte[3 * 1024 * 1024 + 17];
    for (int i = 0; i < content.length; i++) {
      content[i] = (byte) (i * 31);
    }
    Path file = Files.write(directory.resolve("report.bin"), content);
    ApiRequest fromFile =
        ApiRequest.of(
            "PUT",
            "/reports/1",
            "application/octet-stream",
            Map.of(),
            new ApiRequest.FileBody(file));
    ApiRequest fromBytes =
        ApiRequest.of(
            "PUT",
            "/reports/1",
            "application/octet-stream",
            Map.of(),
            new ApiRequest.BytesBody(content));

    assertThat(fromFile.fingerprint()).isEqualTo(fromBytes.fingerprint());
    assertThat(fromFile.body().length()).isEqualTo(content.length);
    // Each attempt opens a fresh stream over the file.
    try (InputStream first = fromFile.body().open();
        InputStream second = fromFile.body().open()) {
      assertThat(first.readAllBytes()).isEqualTo(content);
      assertThat(second.readNBytes(4))
          .containsExactly(content[0], content[1], content[2], content[3]);
    }
  }

  @Test
  void missingFileIsAClearError() {
    Path missing = directory.resolve("missing.json");
    assertThatThrownBy(
            () ->
                ApiRequest.of(
                    "POST", "/p", "application/json", Map.of(), new ApiRequest.FileBody(missing)))
        .isInstanceOf(java.io.UncheckedIOException.class)
        .hasMessageStartingWith("Cannot read the request body");
  }

  @Test
  void resolvesUnderTheBaseUri() {
    ApiRequest request = ApiRequest.postJson("/payments?x=1", "{}");
    assertThat(request.resolve(URI.create("https://api.example.com/v1/")))
        .isEqualTo(URI.create("https://api.example.com/v1/payments?x=1"));
    assertThat(request.resolve(URI.create("https://api.example.com/v1")))
        .isEqualTo(URI.create("https://api.example.com/v1/payments?x=1"));
  }

  private static ApiRequest.Body bytes(String text) {
    return new ApiRequest.BytesBody(text.getBytes(StandardCharsets.UTF_8));
  }
}
