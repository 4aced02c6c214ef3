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

import dev.fenceline.s3.S3TestServer.Kind;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The conditional-write probe's pass cached per endpoint, bucket and prefix: a second process (a
 * new store) sends one request instead of the probe's 31, unless the cache expired, the bucket no
 * longer holds the pointer store identity it was cached with, or a recheck was asked for. Requests
 * are counted below the SDK, on S3Mock.
 */
class ProbeCacheTest {

  @TempDir Path cache;

  private static final Duration DAY = Duration.ofHours(24);

  /** Requests one new store sends for its probe result: a process of the CLI. */
  private static List<String> probe(
      S3TestServer server, String bucket, Path cache, boolean recheck) {
    return inNewStore(server, bucket, cache, recheck, false);
  }

  private static List<String> inNewStore(
      S3TestServer server, String bucket, Path cache, boolean recheck, boolean pointerStore) {
    RecordingHttpClient recording = new RecordingHttpClient();
    S3Store.Builder builder = server.storeBuilder(bucket).prefix("team").recheckProbe(recheck);
    if (cache != null) {
      builder.probeCache(cache, DAY);
    }
    try (AtomicConditionalWrites http = new AtomicConditionalWrites(recording);
        S3Store store = builder.httpClient(http).build()) {
      assertThat(store.conditionalWrites().honoured()).isTrue();
      if (pointerStore) {
        store.pointerStore("reports");
      }
      return recording.operations();
    }
  }

  @Test
  void aSecondStoreUsesTheCachedPassWithOneRequestInsteadOfTheProbe() throws Exception {
    S3TestServer server = S3TestServer.get(Kind.S3MOCK);
    String bucket = server.createBucket();

    List<String> first = probe(server, bucket, cache, false);
    List<String> second = probe(server, bucket, cache, false);

    // The probe's 31 requests, then the identity: a GET (absent) and its create-only PUT.
    assertThat(first).hasSize(ConditionalWriteProbe.REQUESTS + 2);
    // The cached pass is checked against the bucket's pointer store identity: one GET.
    assertThat(second).containsExactly("GetObject");
    try (Stream<Path> files = Files.list(cache)) {
      assertThat(files.map(path -> path.getFileName().toString()))
          .singleElement()
          .asString()
          .matches("[0-9a-f]{64}\\.json");
    }
  }

  /** What a CLI run that publishes through the S3 pointer store sends before its first step. */
  @Test
  void openingAPointerStoreInASecondProcessSavesTheProbesRequests() {
    S3TestServer server = S3TestServer.get(Kind.S3MOCK);
    String bucket = server.createBucket();
    String cached = server.createBucket();
    inNewStore(server, bucket, null, false, true);
    inNewStore(server, cached, cache, false, true);

    List<String> without = inNewStore(server, bucket, null, false, true);
    List<String> with = inNewStore(server, cached, cache, false, true);

    System.out.println(
        "opening a pointer store in a second process: "
            + without.size()
            + " requests without the probe cache, "
            + with.size()
            + " with it: "
            + with);
    assertThat(with).hasSize(without.size() - ConditionalWriteProbe.REQUESTS);
  }

  @Test
  void aRecheckProbesAgainAndRefreshesTheCache() throws Exception {
    S3TestServer server = S3TestServer.get(Kind.S3MOCK);
    String bucket = server.createBucket();
    probe(server, bucket, cache, false);

    List<String> rechecked = probe(server, bucket, cache, true);
    List<String> after = probe(server, bucket, cache, false);

    // The probe, and the identity (there already) for the refreshed entry.
    assertThat(rechecked).hasSize(ConditionalWriteProbe.REQUESTS + 1);
    assertThat(after).containsExactly("GetObject");
  }

  @Test
  void aBucketWithoutTheCachedIdentityIsProbedAgain() throws Exception {
    S3TestServer server = S3TestServer.get(Kind.S3MOCK);
    String bucket = server.createBucket();
    probe(server, bucket, cache, false);
    // As if the bucket were re-created, or another server answered at the same URL.
    server.admin().deleteObject(b -> b.bucket(bucket).key("team/" + PointerKeys.store()));

    List<String> again = probe(server, bucket, cache, false);

    assertThat(again).hasSize(1 + ConditionalWriteProbe.REQUESTS + 2);
  }

  @Test
  void aFailedProbeIsNotCached() {
    S3TestServer server = S3TestServer.get(Kind.S3PROXY_WITHOUT_CONDITIONS);
    String bucket = server.createBucket();
    try (S3Store store = server.storeBuilder(bucket).probeCache(cache, DAY).build()) {
      assertThat(store.conditionalWrites().honoured()).isFalse();
    }

    assertThat(cache).isEmptyDirectory();
  }

  @Test
  void aCachedPassCountsUntilItExpires() {
    S3Location location =
        new S3Location(
            software.amazon.awssdk.services.s3.S3Client.builder()
                .region(software.amazon.awssdk.regions.Region.US_EAST_1)
                .build(),
            "reports",
            "team",
            "http://127.0.0.1:9");
    Instant probed = Instant.parse("2026-12-01T00:00:00Z");
    ConditionalWrites pass =
        new ConditionalWrites(location.describe(), List.of("a", "b"), java.util.Optional.empty());
    new ProbeCache(cache, DAY, Clock.fixed(probed, ZoneOffset.UTC)).write(location, pass, "s3-x");

    ProbeCache hourLater =
        new ProbeCache(cache, DAY, Clock.fixed(probed.plusSeconds(3600), ZoneOffset.UTC));
    ProbeCache dayLater = new ProbeCache(cache, DAY, Clock.fixed(probed.plus(DAY), ZoneOffset.UTC));
    ProbeCache otherPrefix = hourLater;
    S3Location elsewhere =
        new S3Location(location.client(), "reports", "other", location.endpoint());

    assertThat(hourLater.read(location))
        .hasValueSatisfying(
            entry -> {
              assertThat(entry.storeId()).isEqualTo("s3-x");
              assertThat(entry.result().passed()).containsExactly("a", "b");
              assertThat(entry.result().honoured()).isTrue();
            });
    assertThat(dayLater.read(location)).isEmpty();
    assertThat(otherPrefix.read(elsewhere)).isEmpty();
    location.client().close();
  }

  @Test
  void theDefaultDirectoryFollowsXdgCacheHome() {
    assertThat(ProbeCache.defaultDirectory(Map.of("XDG_CACHE_HOME", "/var/cache/u")::get))
        .isEqualTo(Path.of("/var/cache/u/fenceline/s3-probe"));
    assertThat(ProbeCache.defaultDirectory(name -> null))
        .isEqualTo(Path.of(System.getProperty("user.home"), ".cache", "fenceline", "s3-probe"));
  }
}
