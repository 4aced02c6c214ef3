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
package dev.fenceline.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fenceline.s3.S3TestServer.Kind;
import dev.fenceline.spi.Adapter;
import dev.fenceline.spi.AdapterFactory;
import dev.fenceline.spi.ConfigurationException;
import java.util.Map;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

class S3AdapterFactoryTest {

  private static AdapterFactory s3() {
    return ServiceLoader.load(AdapterFactory.class).stream()
        .map(ServiceLoader.Provider::get)
        .filter(factory -> factory.name().equals("s3"))
        .findFirst()
        .orElseThrow();
  }

  private static Map<String, String> settings(S3TestServer server, String bucket) {
    return Map.ofEntries(
        Map.entry("bucket", bucket),
        Map.entry("prefix", "reports"),
        Map.entry("region", "eu-central-1"),
        Map.entry("endpoint", server.endpoint().toString()),
        Map.entry("path-style", "true"),
        Map.entry("connect-timeout", "5s"),
        Map.entry("socket-timeout", "30s"),
        Map.entry("attempt-timeout", "2m"),
        Map.entry("call-timeout", "3m"),
        Map.entry("multipart-threshold", "32MiB"),
        Map.entry("part-size", "8MiB"));
  }

  /**
   * Whether a pointer store opens on S3Proxy 4.1.0 depends on chance (it checks conditions and
   * writes non-atomically, which the probe sees in most runs), and the factory builds its own HTTP
   * client, so this test checks only what does not depend on the race; the probe's verdicts are
   * tested in {@link ConditionalWriteProbeTest}.
   */
  @Test
  void isFoundByServiceLoaderAndOffersABlobStore() {
    S3TestServer server = S3TestServer.get(Kind.S3PROXY);
    System.setProperty("aws.accessKeyId", "local");
    System.setProperty("aws.secretAccessKey", "local");
    String bucket = server.createBucket();
    try (Adapter adapter = s3().create("reports", settings(server, bucket))) {
      assertThat(adapter.blobStore()).isPresent();
      assertThat(adapter.leaseIssuer()).isEmpty();
    } finally {
      System.clearProperty("aws.accessKeyId");
      System.clearProperty("aws.secretAccessKey");
    }
  }

  @Test
  void onAnEndpointWithoutConditionalWritesOffersOnlyTheBlobStore() {
    S3TestServer server = S3TestServer.get(Kind.S3PROXY_WITHOUT_CONDITIONS);
    System.setProperty("aws.accessKeyId", "local");
    System.setProperty("aws.secretAccessKey", "local");
    String bucket = server.createBucket();
    try (Adapter adapter = s3().create("reports", settings(server, bucket))) {
      assertThat(adapter.blobStore()).isPresent();
      assertThatThrownBy(() -> adapter.pointerStore("daily"))
          .isInstanceOf(ConfigurationException.class)
          .hasMessageContaining("does not honour conditional writes")
          .hasMessageContaining("JDBC pointer store");
    } finally {
      System.clearProperty("aws.accessKeyId");
      System.clearProperty("aws.secretAccessKey");
    }
  }

  @Test
  void rejectsUnknownMissingAndMalformedKeysByName() {
    assertThatThrownBy(() -> s3().create("reports", Map.of("bucket", "b-1", "secret-key", "x")))
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("unknown key \"secret-key\"")
        .hasMessageNotContaining("x\"");
    assertThatThrownBy(() -> s3().create("reports", Map.of()))
        .hasMessageContaining("key \"bucket\" is missing");
    assertThatThrownBy(() -> s3().create("reports", Map.of("bucket", "Reports_Prod")))
        .hasMessageContaining("Cannot use S3 bucket \"Reports_Prod\"");
    assertThatThrownBy(
            () -> s3().create("reports", Map.of("bucket", "reports", "part-size", "8 megabytes")))
        .hasMessageContaining("key \"part-size\" has value \"8 megabytes\", not a size");
    assertThatThrownBy(
            () -> s3().create("reports", Map.of("bucket", "reports", "part-size", "3GiB")))
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("key \"part-size\" is 3221225472 bytes");
    assertThatThrownBy(
            () -> s3().create("reports", Map.of("bucket", "reports", "part-size", "1MiB")))
        .hasMessageContaining("Cannot use part size 1048576");
    assertThatThrownBy(
            () -> s3().create("reports", Map.of("bucket", "reports", "attempt-timeout", "30s")))
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("Cannot use attempt timeout PT30S above the call timeout PT20S")
        .hasMessageContaining("raise callTimeout / call-timeout");
    assertThatThrownBy(
            () -> s3().create("reports", Map.of("bucket", "reports", "endpoint", "ftp://host")))
        .hasMessageContaining("expected an http or https URL");
    assertThatThrownBy(
            () ->
                s3().create(
                        "reports",
                        Map.of("bucket", "reports", "endpoint", "https://key:secret@s3.example")))
        .hasMessageContaining("carries user information")
        .hasMessageNotContaining("secret");
    assertThatThrownBy(
            () -> s3().create("reports", Map.of("bucket", "reports", "connect-timeout", "5")))
        .hasMessageContaining("\"connect-timeout\" has value \"5\"");
  }
}
