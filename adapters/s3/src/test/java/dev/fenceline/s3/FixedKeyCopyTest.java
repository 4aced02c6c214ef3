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
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Pointer;
import dev.fenceline.spi.PointerState;
import dev.fenceline.spi.PointerStore;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StepListener;
import dev.fenceline.spi.StoreException;
import dev.fenceline.tck.memory.InMemoryCasPointerStore;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;

class FixedKeyCopyTest {

  private static final ResourceId RESOURCE = ResourceId.of("reports/daily");
  private static final BlobKey FIXED = BlobKey.of("site/latest.csv");

  private static PointerState version(long version, String target) {
    return new PointerState(
        RESOURCE,
        new Pointer(target, Map.of("sha256", "ab" + version)),
        Epoch.of(version),
        OperationId.of("op-" + version),
        version);
  }

  /**
   * Conditional PUTs of every test's stores go through one client that makes them atomic, as on AWS
   * S3: the probe refuses the raw test servers at times (they check and write non-atomically).
   * Shared and never closed, like the servers.
   */
  private static final AtomicConditionalWrites ATOMIC =
      new AtomicConditionalWrites(Apache5HttpClient.create());

  private static S3Store.Builder atomic(S3TestServer server, String bucket) {
    return server.storeBuilder(bucket).httpClient(ATOMIC);
  }

  private static void putObject(S3TestServer server, String bucket, String key, String body) {
    server.admin().putObject(b -> b.bucket(bucket).key(key), RequestBody.fromString(body));
  }

  private static String read(S3TestServer server, String bucket, String key) {
    return server
        .admin()
        .getObjectAsBytes(b -> b.bucket(bucket).key(key))
        .asString(StandardCharsets.UTF_8);
  }

  @ParameterizedTest
  @EnumSource(
      value = Kind.class,
      names = {"S3MOCK", "S3PROXY"})
  void copiesNewerVersionsOnlyAndRecordsTheVersion(Kind kind) {
    S3TestServer server = S3TestServer.get(kind);
    String bucket = server.createBucket();
    putObject(server, bucket, "p/v1", "version one");
    putObject(server, bucket, "p/v2", "version two");
    try (S3Store store = atomic(server, bucket).prefix("p").build()) {
      FixedKeyCopy copy = store.fixedKeyCopy(FIXED);

      assertThat(copy.copy(version(1, "v1"))).isEqualTo(FixedKeyCopy.Result.COPIED);
      assertThat(read(server, bucket, "p/site/latest.csv")).isEqualTo("version one");
      assertThat(copy.copy(version(1, "v1"))).isEqualTo(FixedKeyCopy.Result.UP_TO_DATE);
      assertThat(copy.copy(version(2, "v2"))).isEqualTo(FixedKeyCopy.Result.COPIED);
      assertThat(copy.copy(version(1, "v1"))).isEqualTo(FixedKeyCopy.Result.NEWER_PRESENT);

      assertThat(read(server, bucket, "p/site/latest.csv")).isEqualTo("version two");
      HeadObjectResponse head =
          server.admin().headObject(b -> b.bucket(bucket).key("p/site/latest.csv"));
      assertThat(head.metadata())
          .containsEntry(FixedKeyCopy.VERSION_METADATA, "2")
          .containsEntry(FixedKeyCopy.RESOURCE_METADATA, RESOURCE.value())
          .containsEntry(FixedKeyCopy.SHA256_METADATA, "ab2");
    }
  }

  /**
   * A stale copier read the fixed key (absent, then at version 1) and is paused just before its
   * CopyObject; a newer copier writes version 3 meanwhile. The stale copy's condition fails, it
   * reads again, sees the newer version and writes nothing.
   */
  @ParameterizedTest
  @EnumSource(
      value = Kind.class,
      names = {"S3MOCK", "S3PROXY"})
  void aLateCopyByAStaleProcessNeverMovesTheFixedKeyBackwards(Kind kind) throws Exception {
    S3TestServer server = S3TestServer.get(kind);
    String bucket = server.createBucket();
    putObject(server, bucket, "v1", "version one");
    putObject(server, bucket, "v2", "version two");
    putObject(server, bucket, "v3", "version three");
    try (S3Store fresh = atomic(server, bucket).build()) {
      for (long staleStart : new long[] {0, 1}) {
        server.admin().deleteObject(b -> b.bucket(bucket).key("site/latest.csv"));
        if (staleStart == 1) {
          assertThat(fresh.fixedKeyCopy(FIXED).copy(version(1, "v1")))
              .isEqualTo(FixedKeyCopy.Result.COPIED);
        }
        PausingHttpClient pausing =
            new PausingHttpClient(
                new AtomicConditionalWrites(Apache5HttpClient.create()),
                request ->
                    request.method().name().equals("PUT")
                        && request.encodedPath().endsWith("/site/latest.csv"));
        try (S3Store stale = server.storeBuilder(bucket).httpClient(pausing).build()) {
          FixedKeyCopy staleCopy = stale.fixedKeyCopy(FIXED);
          CompletableFuture<FixedKeyCopy.Result> late =
              CompletableFuture.supplyAsync(() -> staleCopy.copy(version(2, "v2")));
          pausing.awaitPaused();

          assertThat(fresh.fixedKeyCopy(FIXED).copy(version(3, "v3")))
              .isEqualTo(FixedKeyCopy.Result.COPIED);
          pausing.release();

          assertThat(late.get(60, TimeUnit.SECONDS))
              .as("stale copier starting from version %d", staleStart)
              .isEqualTo(FixedKeyCopy.Result.NEWER_PRESENT);
          assertThat(read(server, bucket, "site/latest.csv")).isEqualTo("version three");
        } finally {
          pausing.close();
        }
      }
    }
  }

  /**
   * S3 ETags are content digests and metadata is not part of them: when a newer version has the
   * same bytes as the version a stale copier read (an unchanged report, a rollback), the fixed
   * key's ETag comes back and the stale copier's {@code If-Match} holds although the version moved
   * on. {@code copyCurrent} reads the pointer again after copying and repairs the fixed key before
   * it returns.
   */
  @ParameterizedTest
  @EnumSource(
      value = Kind.class,
      names = {"S3MOCK", "S3PROXY"})
  void aStaleCopyCurrentThatPutOlderBytesBackRepairsTheFixedKeyBeforeReturning(Kind kind)
      throws Exception {
    S3TestServer server = S3TestServer.get(kind);
    String bucket = server.createBucket();
    putObject(server, bucket, "v1", "unchanged report");
    putObject(server, bucket, "v2", "a different report");
    putObject(server, bucket, "v3", "unchanged report");
    ResourceId resource = RESOURCE;
    InMemoryCasPointerStore.Storage storage = new InMemoryCasPointerStore.Storage();
    PointerStore pointers =
        new InMemoryCasPointerStore(storage, "reports", StepListener.NONE, Clock.systemUTC());
    FencingToken token = new FencingToken("issuer", resource, Epoch.of(1), "worker");
    pointers.write(token, OperationId.of("op-1"), Pointer.to("v1"));
    try (S3Store fresh = atomic(server, bucket).build()) {
      assertThat(fresh.fixedKeyCopy(FIXED).copyCurrent(pointers, resource))
          .contains(FixedKeyCopy.Result.COPIED);
      pointers.write(token, OperationId.of("op-2"), Pointer.to("v2"));
      PausingHttpClient pausing =
          new PausingHttpClient(
              new AtomicConditionalWrites(Apache5HttpClient.create()),
              request ->
                  request.method().name().equals("PUT")
                      && request.encodedPath().endsWith("/site/latest.csv"));
      try (S3Store stale = server.storeBuilder(bucket).httpClient(pausing).build()) {
        FixedKeyCopy staleCopy = stale.fixedKeyCopy(FIXED);
        // Reads version 2, sees version 1 at the fixed key, and is held before its PUT.
        CompletableFuture<Optional<FixedKeyCopy.Result>> late =
            CompletableFuture.supplyAsync(() -> staleCopy.copyCurrent(pointers, resource));
        pausing.awaitPaused();

        pointers.write(token, OperationId.of("op-3"), Pointer.to("v3"));
        assertThat(fresh.fixedKeyCopy(FIXED).copyCurrent(pointers, resource))
            .contains(FixedKeyCopy.Result.COPIED);
        pausing.release();

        // The held PUT of version 2 passes (version 3 has version 1's bytes and so its ETag), then
        // the stale copier sees version 3 at the pointer and copies it again.
        assertThat(late.get(60, TimeUnit.SECONDS)).contains(FixedKeyCopy.Result.COPIED);
        HeadObjectResponse head =
            server.admin().headObject(b -> b.bucket(bucket).key("site/latest.csv"));
        assertThat(head.metadata()).containsEntry(FixedKeyCopy.VERSION_METADATA, "3");
        assertThat(read(server, bucket, "site/latest.csv")).isEqualTo("unchanged report");
      } finally {
        pausing.close();
      }
    }
  }

  @Test
  void aFixedKeyHoldingAForeignObjectIsNeverOverwritten() {
    S3TestServer server = S3TestServer.get(Kind.S3PROXY);
    String bucket = server.createBucket();
    putObject(server, bucket, "v1", "version one");
    putObject(server, bucket, "site/latest.csv", "hand-made");
    try (S3Store store = atomic(server, bucket).build()) {
      assertThatThrownBy(() -> store.fixedKeyCopy(FIXED).copy(version(1, "v1")))
          .isInstanceOf(StoreException.class)
          .hasMessageContaining("s3://" + bucket + "/site/latest.csv")
          .hasMessageContaining("Fenceline did not copy there");
      assertThat(read(server, bucket, "site/latest.csv")).isEqualTo("hand-made");

      putObject(server, bucket, "other", "other resource");
      server.admin().deleteObject(b -> b.bucket(bucket).key("site/latest.csv"));
      store.fixedKeyCopy(FIXED).copy(version(1, "v1"));
      PointerState otherResource =
          new PointerState(
              ResourceId.of("reports/weekly"),
              Pointer.to("other"),
              Epoch.of(9),
              OperationId.of("w"),
              9);
      assertThatThrownBy(() -> store.fixedKeyCopy(FIXED).copy(otherResource))
          .hasMessageContaining("holds a copy of resource reports/daily");
      assertThat(read(server, bucket, "site/latest.csv")).isEqualTo("version one");
    }
  }

  @Test
  void isRefusedOnAnEndpointThatIgnoresConditionalWrites() {
    S3TestServer server = S3TestServer.get(Kind.S3PROXY_WITHOUT_CONDITIONS);
    String bucket = server.createBucket();
    try (S3Store store = server.storeBuilder(bucket).build()) {
      assertThatThrownBy(() -> store.fixedKeyCopy(FIXED))
          .isInstanceOf(ConfigurationException.class)
          .hasMessageContaining("keep a fixed-key copy at s3://" + bucket + "/site/latest.csv")
          .hasMessageContaining(server.endpoint().toString())
          .hasMessageContaining("does not honour conditional writes")
          .hasMessageContaining("StagedDestination.open");
    }
  }
}
