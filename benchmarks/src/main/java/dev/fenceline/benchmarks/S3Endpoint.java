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
package dev.fenceline.benchmarks;

import dev.fenceline.benchmarks.Options.StoreKind;
import dev.fenceline.jdbc.JdbcStore;
import dev.fenceline.s3.S3PointerStore;
import dev.fenceline.s3.S3Store;
import dev.fenceline.spi.LeaseIssuer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * One S3 server under test and the clients every S3 row shares: one Apache 5 HTTP client (wrapped
 * by {@link AtomicConditionalWrites}, which counts requests), the {@link S3Store} built on it as
 * docs/s3.md shows (endpoint, path-style, static credentials), and a plain {@link S3Client} on the
 * same HTTP client with the same checksum settings for the raw {@code PutObject} peers. The S3 rows
 * need fencing tokens from an issuer that is not under test: a {@link JdbcStore} on a SQLite file
 * issues them (outside every measurement).
 */
final class S3Endpoint implements AutoCloseable {

  static final String BUCKET = "fenceline-bench";

  /** The S3Store's key prefix in the bucket. */
  static final String STORE_PREFIX = "fenceline";

  private final S3Server server;
  private final AtomicConditionalWrites http;
  private final S3Store store;
  private final S3Client raw;
  private final JdbcStore issuerStore;
  private final Map<String, S3PointerStore> pointerStores = new LinkedHashMap<>();
  private long probeRequests = -1;

  private S3Endpoint(
      S3Server server,
      AtomicConditionalWrites http,
      S3Store store,
      S3Client raw,
      JdbcStore issuerStore) {
    this.server = server;
    this.http = http;
    this.store = store;
    this.raw = raw;
    this.issuerStore = issuerStore;
  }

  /** Starts the server of {@code kind} with its data under {@code directory}, and the clients. */
  static S3Endpoint start(StoreKind kind, Path directory) throws IOException {
    S3Server server = S3Server.start(kind, directory.resolve("server"));
    AtomicConditionalWrites http = null;
    S3Store store = null;
    S3Client raw = null;
    try {
      http = new AtomicConditionalWrites(Apache5HttpClient.create());
      StaticCredentialsProvider credentials =
          StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local"));
      raw =
          S3Client.builder()
              .endpointOverride(server.endpoint())
              .forcePathStyle(true)
              .region(Region.US_EAST_1)
              .credentialsProvider(credentials)
              .httpClient(http)
              // As S3Store with an endpoint: checksums only where S3 requires them.
              .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
              .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
              .build();
      raw.createBucket(b -> b.bucket(BUCKET));
      store =
          S3Store.builder(BUCKET)
              .endpoint(server.endpoint())
              .pathStyle(true)
              .region("us-east-1")
              .credentials(credentials)
              .httpClient(http)
              .prefix(STORE_PREFIX)
              .build();
      Path issuerFile = Files.createDirectories(directory.resolve("issuer")).resolve("issuer.db");
      JdbcStore issuerStore = JdbcStore.builder().url("jdbc:sqlite:" + issuerFile).build();
      return new S3Endpoint(server, http, store, raw, issuerStore);
    } catch (IOException | RuntimeException e) {
      if (store != null) {
        store.close();
      }
      if (raw != null) {
        raw.close();
      }
      if (http != null) {
        http.close();
      }
      server.close();
      throw e;
    }
  }

  StoreKind kind() {
    return server.kind();
  }

  S3Store store() {
    return store;
  }

  /** The raw SDK client for the peers (shares the HTTP client; do not close). */
  S3Client raw() {
    return raw;
  }

  LeaseIssuer issuer() {
    return issuerStore.leaseIssuer();
  }

  /** HTTP requests sent so far by every client of this endpoint. */
  long requests() {
    return http.requests();
  }

  /**
   * The S3 pointer store {@code name}, opened once. The first one runs the store's probe of the
   * endpoint's conditional writes (its requests are counted once, for the report).
   */
  synchronized S3PointerStore pointerStore(String name) {
    S3PointerStore pointers = pointerStores.get(name);
    if (pointers == null) {
      long before = requests();
      pointers = store.pointerStore(name);
      if (probeRequests < 0) {
        probeRequests = requests() - before;
      }
      pointerStores.put(name, pointers);
    }
    return pointers;
  }

  /** What the report shows about the server and the clients. */
  Map<String, String> settings() {
    Map<String, String> settings = new LinkedHashMap<>(server.settings());
    settings.put(
        "client",
        "AWS SDK "
            + software.amazon.awssdk.core.util.VersionInfo.SDK_VERSION
            + ", one Apache 5 HTTP client for every row, conditional writes serialized per key in"
            + " the client");
    if (probeRequests >= 0) {
      settings.put(
          "probe",
          probeRequests + " requests when the first S3 pointer store opened (not measured)");
    }
    return settings;
  }

  @Override
  public void close() {
    try {
      store.close();
      raw.close();
      http.close();
      issuerStore.close();
    } finally {
      server.close();
    }
  }

  @Override
  public String toString() {
    return server.toString();
  }
}
