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
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.tomakehurst.wiremock.WireMockServer;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.tck.ReadmeExamples;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's "call an external API" example, compiled from the README as it stands and run on
 * WireMock; its base URI, database file and token environment point at the test's.
 */
class ReadmeHttpExampleTest {

  @TempDir Path directory;

  @Test
  void theReadmeExamplePaysOnceAndAnswersARetryFromTheRecord() throws Exception {
    WireMockServer api = new WireMockServer(options().dynamicPort());
    api.start();
    try {
      api.stubFor(
          post(urlEqualTo("/v1/payments"))
              .willReturn(aResponse().withStatus(201).withBody("{\"id\":\"pay_123\"}")));
      Class<?> example =
          ReadmeExamples.loadDocs()
              .containing("static void payInvoice()")
              .replacing(
                  Map.of(
                      "URI.create(\"https://api.partner.example\")",
                      "URI.create(\"" + api.baseUrl() + "\")",
                      "Path.of(\"fenceline.db\")",
                      "Path.of(\"" + directory.resolve("fenceline.db") + "\")",
                      ".bearerTokenFromEnv(\"PARTNER_API_TOKEN\")",
                      ".bearerTokenFromEnv(\"PARTNER_API_TOKEN\")"
                          + ".environment(java.util.Map.of(\"PARTNER_API_TOKEN\", \"test-token\")::get)"))
              .compile();

      String first = printedBy(example);
      String retry = printedBy(example);

      assertThat(first).startsWith("Applied[").contains("pay_123");
      assertThat(retry).startsWith("AlreadyApplied[").contains("pay_123");
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

  /** What the example's {@code payInvoice()} printed on standard output. */
  private static String printedBy(Class<?> example) throws Exception {
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    PrintStream standardOutput = System.out;
    System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
    try {
      ReadmeExamples.call(example, "payInvoice");
    } finally {
      System.setOut(standardOutput);
    }
    return printed.toString(StandardCharsets.UTF_8);
  }
}
