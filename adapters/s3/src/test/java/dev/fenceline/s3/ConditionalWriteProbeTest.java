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
import dev.fenceline.spi.BlobKey;
import dev.fenceline.spi.ConfigurationException;
import dev.fenceline.spi.StoreException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.services.s3.model.S3Object;

class ConditionalWriteProbeTest {

  @ParameterizedTest
  @EnumSource(
      value = Kind.class,
      names = {"S3MOCK", "S3PROXY"})
  void anEndpointThatHonoursConditionalWritesPassesEveryCheck(Kind kind) {
    S3TestServer server = S3TestServer.get(kind);
    String bucket = server.createBucket();
    // Atomic conditional PUTs, as AWS S3 has them: the raw test servers are not atomic.
    try (AtomicConditionalWrites http = new AtomicConditionalWrites(Apache5HttpClient.create());
        S3Store store =
            server.storeBuilder(bucket).prefix("team/reports").httpClient(http).build()) {
      ConditionalWrites result = store.conditionalWrites();

      assertThat(result.honoured()).as(result.toString()).isTrue();
      assertThat(result.passed()).hasSize(6).endsWith("concurrent conditional PUTs on one key");
      assertThat(result.location())
          .contains("s3://" + bucket + "/team/reports at http://127.0.0.1:");
      // The probe cleans up after itself.
      assertThat(server.admin().listObjectsV2(b -> b.bucket(bucket)).contents()).isEmpty();
    }
  }

  @Test
  void anEndpointThatIgnoresConditionalWritesFailsTheFirstCheckThatOverwrites() {
    S3TestServer server = S3TestServer.get(Kind.S3PROXY_WITHOUT_CONDITIONS);
    String bucket = server.createBucket();
    try (S3Store store = server.storeBuilder(bucket).build()) {
      ConditionalWrites result = store.conditionalWrites();

      assertThat(result.honoured()).isFalse();
      assertThat(result.failure().orElseThrow())
          .contains("create-only PUT (If-None-Match: *) on an existing key")
          .contains("answered 200");
      assertThatThrownBy(
              () ->
                  result.require(
                      "open the S3 pointer store \"reports\"", "use a JDBC pointer store"))
          .isInstanceOf(ConfigurationException.class)
          .hasMessageContaining(server.endpoint().toString())
          .hasMessageContaining("does not honour conditional writes")
          .hasMessageContaining("use a JDBC pointer store");
    }
  }

  /**
   * An endpoint that checks a condition and writes in separate steps lets several racing PUTs
   * through; {@link NonAtomicConditions} plays that deterministically on S3Proxy 4.1.0, for
   * create-only PUTs and for PUTs with the same If-Match.
   */
  @ParameterizedTest
  @ValueSource(strings = {"If-None-Match", "If-Match"})
  void anEndpointThatChecksAndWritesNonAtomicallyGetsNoPointerStore(String header) {
    S3TestServer server = S3TestServer.get(Kind.S3PROXY);
    String bucket = server.createBucket();
    try (NonAtomicConditions http =
            new NonAtomicConditions(
                new AtomicConditionalWrites(Apache5HttpClient.create()), header);
        S3Store store = server.storeBuilder(bucket).prefix("team").httpClient(http).build()) {
      String race =
          header.equals("If-Match")
              ? " PUTs with the same If-Match were accepted; the endpoint checks and writes"
                  + " non-atomically, so two writers could both swap"
              : " create-only PUTs (If-None-Match: *) of one new key were accepted; the endpoint"
                  + " checks and writes non-atomically, so two writers could both create";

      assertThatThrownBy(() -> store.pointerStore("reports"))
          .isInstanceOf(ConfigurationException.class)
          .hasMessageContaining("Cannot open the S3 pointer store \"reports\"")
          .hasMessageContaining(server.endpoint().toString())
          .hasMessageContaining(
              "check \"concurrent conditional PUTs on one key\": "
                  + ConditionalWriteProbe.RACE_THREADS
                  + " of "
                  + ConditionalWriteProbe.RACE_THREADS
                  + race)
          .hasMessageContaining(
              "use S3 as a blob store with a JDBC pointer store:"
                  + " StagedDestination.builder(s3.blobStore(), jdbcStore.pointerStore(name))");
      assertThat(store.conditionalWrites().passed())
          .hasSize(5)
          .doesNotContain("concurrent conditional PUTs on one key");
      assertThatThrownBy(() -> store.fixedKeyCopy(BlobKey.of("site/latest.csv")))
          .isInstanceOf(ConfigurationException.class)
          .hasMessageContaining("concurrent conditional PUTs on one key");
      // Every probe key is deleted, and no pointer store wrote anything.
      assertThat(server.admin().listObjectsV2(b -> b.bucket(bucket)).contents())
          .extracting(S3Object::key)
          .isEmpty();
    }
  }

  @Test
  void aMissingBucketIsAStoreFailureNotAVerdictOnConditionalWrites() {
    S3TestServer server = S3TestServer.get(Kind.S3PROXY);
    try (S3Store store = server.storeBuilder("no-such-bucket-here").build()) {
      assertThatThrownBy(store::conditionalWrites)
          .isInstanceOf(StoreException.class)
          .hasMessageContaining("no-such-bucket-here")
          .hasMessageContaining("HTTP 404");
    }
  }
}
