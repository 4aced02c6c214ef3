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
import dev.fenceline.spi.BlobKey;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.Lease;
import dev.fenceline.spi.LeaseIssuer;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.staging.StagedDestination;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * The S3 large-publish table: a staged publish of a large payload ({@code StagedDestination} over
 * the S3 blob store and an S3 pointer store) against one plain {@code PutObject} of the same file,
 * the plainest thing a user would do (the SDK's synchronous client sends it as one request). A
 * diagnostic variant, the blob store's {@code put} alone, separates the upload (multipart above the
 * store's 16 MiB threshold, 8 MiB parts, create-only) from the pointer swap. One thread; per round
 * every variant runs once, the order rotated by one each round, after one discarded warm-up of
 * each. Payloads are streamed from a source file, never held in memory; after each round the staged
 * and diagnostic objects but the published one are deleted (outside the timing).
 */
final class S3LargePublishBenchmark {

  static final String STAGED = "staged publish";
  static final String RAW_PUT = "raw PutObject";
  static final String BLOB_PUT = "blob put only (S3BlobStore.put)";
  static final List<String> VARIANTS = List.of(STAGED, RAW_PUT, BLOB_PUT);

  /** The publish times and request counts of one variant. */
  record Variant(String name, Latencies latencies, long requests) {
    double requestsPerOperation() {
      return latencies.count() == 0 ? Double.NaN : requests / (double) latencies.count();
    }
  }

  /** The results of one store and payload size. */
  record SizeResult(StoreKind store, long size, List<Variant> variants) {
    Optional<Variant> variant(String name) {
      return variants.stream().filter(v -> v.name().equals(name)).findFirst();
    }
  }

  private S3LargePublishBenchmark() {}

  static List<SizeResult> run(
      S3Endpoint s3,
      Path directory,
      List<Long> sizes,
      int rounds,
      String prefix,
      Consumer<String> progress)
      throws IOException {
    Files.createDirectories(directory);
    List<SizeResult> results = new ArrayList<>();
    StagedDestination staged =
        StagedDestination.builder(s3.store().blobStore(), s3.pointerStore("bench-large")).build();
    for (long size : sizes) {
      results.add(runSize(s3, staged, directory, size, rounds, prefix, progress));
    }
    return results;
  }

  private static SizeResult runSize(
      S3Endpoint s3,
      StagedDestination staged,
      Path directory,
      long size,
      int rounds,
      String prefix,
      Consumer<String> progress)
      throws IOException {
    Path source = directory.resolve("source-" + size + ".bin");
    StagedPublishBenchmark.writeSource(source, size);
    LeaseIssuer issuer = s3.issuer();
    ResourceId resource = ResourceId.of("bench/" + prefix + "/large-" + size);
    Lease lease = Publishing.acquire(issuer, resource, "bench-large", Publishing.LONG_LEASE);
    try {
      Publishing.expectRegistered(staged.register(lease.token()), resource);
      List<Latencies> latencies = new ArrayList<>();
      long[] requests = new long[VARIANTS.size()];
      for (int v = 0; v < VARIANTS.size(); v++) {
        latencies.add(new Latencies());
      }
      long[] count = {0};
      String label = s3.kind().shown() + ": " + Options.shownSize(size) + " publish";
      progress.accept(label + ": warm-up");
      for (int v = 0; v < VARIANTS.size(); v++) {
        runVariant(v, s3, staged, lease.token(), resource, source, prefix, size, count, null, null);
      }
      deleteLargeObjects(s3.raw(), staged, resource, prefix);
      for (int round = 0; round < rounds; round++) {
        progress.accept(label + ": round " + (round + 1) + "/" + rounds);
        for (int k = 0; k < VARIANTS.size(); k++) {
          int v = (k + round) % VARIANTS.size();
          runVariant(
              v,
              s3,
              staged,
              lease.token(),
              resource,
              source,
              prefix,
              size,
              count,
              latencies.get(v),
              requests);
        }
        deleteLargeObjects(s3.raw(), staged, resource, prefix);
      }
      List<Variant> variants = new ArrayList<>();
      for (int v = 0; v < VARIANTS.size(); v++) {
        variants.add(new Variant(VARIANTS.get(v), latencies.get(v), requests[v]));
      }
      return new SizeResult(s3.kind(), size, variants);
    } finally {
      issuer.release(lease);
      Files.deleteIfExists(source);
    }
  }

  private static void runVariant(
      int variant,
      S3Endpoint s3,
      StagedDestination staged,
      FencingToken token,
      ResourceId resource,
      Path source,
      String prefix,
      long size,
      long[] count,
      Latencies into,
      long[] requests)
      throws IOException {
    long n = ++count[0];
    long requestsBefore = s3.requests();
    long begin = System.nanoTime();
    switch (VARIANTS.get(variant)) {
      case STAGED -> {
        try (InputStream payload = Files.newInputStream(source)) {
          Publishing.expectApplied(staged.write(token, Publishing.operation(resource, n), payload));
        }
      }
      case RAW_PUT ->
          s3.raw()
              .putObject(
                  b -> b.bucket(S3Endpoint.BUCKET).key("raw/" + prefix + "/large-" + size),
                  RequestBody.fromFile(source));
      case BLOB_PUT -> {
        try (InputStream payload = Files.newInputStream(source)) {
          s3.store().blobStore().put(BlobKey.of("diagnostic/" + prefix + "/put-" + n), payload);
        }
      }
      default -> throw new IllegalStateException("unknown variant " + variant);
    }
    long nanos = System.nanoTime() - begin;
    if (into != null) {
      into.record(nanos);
      requests[variant] += s3.requests() - requestsBefore;
    }
  }

  /**
   * Deletes the large objects of this table but the published blob of {@code resource}: the other
   * staged blobs of the resource (beside the published one) and the diagnostic puts; the raw peer
   * overwrites one key. Keeps the servers' disks from filling up.
   */
  private static void deleteLargeObjects(
      S3Client raw, StagedDestination staged, ResourceId resource, String prefix) {
    String published =
        S3Endpoint.STORE_PREFIX + "/" + staged.resolve(resource).orElseThrow().key().value();
    String stagedDirectory = published.substring(0, published.lastIndexOf('/') + 1);
    for (String listed :
        List.of(stagedDirectory, S3Endpoint.STORE_PREFIX + "/diagnostic/" + prefix + "/")) {
      for (S3Object object :
          raw.listObjectsV2Paginator(b -> b.bucket(S3Endpoint.BUCKET).prefix(listed)).contents()) {
        if (!object.key().equals(published)) {
          raw.deleteObject(b -> b.bucket(S3Endpoint.BUCKET).key(object.key()));
        }
      }
    }
  }
}
