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

import dev.fenceline.benchmarks.Row.Operation;
import dev.fenceline.s3.S3PointerStore;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.Lease;
import dev.fenceline.spi.LeaseIssuer;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.staging.StagedDestination;
import java.io.ByteArrayInputStream;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The rows of an S3 table, on public API only: the {@link S3PointerStore} of an {@link
 * dev.fenceline.s3.S3Store} (the pointer, the registered epoch and the receipts in the bucket), and
 * a {@link StagedDestination} over the same store's blob store and an S3 pointer store (S3 only, as
 * docs/s3.md's first example); as their peers, a plain {@code PutObject} of the same bytes. Every
 * worker thread has its own keys and resources.
 */
final class S3Rows {

  static final String RAW_PUT_POINTER = "raw PutObject (pointer bytes)";
  static final String POINTER_PUBLISH = "pointer publish";
  static final String RAW_PUT_KIB = "raw PutObject 1 KiB";
  static final String STAGED_KIB = "staged publish 1 KiB";

  static final int KIB = 1024;

  private S3Rows() {}

  /** The rows of one group; {@code prefix} makes every key and resource of it unique. */
  static List<Row> of(S3Endpoint s3, String holder, String prefix) {
    S3Client raw = s3.raw();
    LeaseIssuer issuer = s3.issuer();
    S3PointerStore pointers = s3.pointerStore("bench-pointers");
    StagedDestination staged =
        StagedDestination.builder(s3.store().blobStore(), s3.pointerStore("bench-staged")).build();
    byte[] kib = payload(KIB);
    return List.of(
        new Row(
            RAW_PUT_POINTER,
            Optional.empty(),
            thread -> rawPutCounter(raw, "raw/" + prefix + "/pointer-" + thread)),
        new Row(
            POINTER_PUBLISH,
            Optional.of(RAW_PUT_POINTER),
            thread ->
                Publishing.pointerPublish(
                    issuer,
                    pointers,
                    holder + "-t" + thread,
                    Publishing.resource(prefix, "pointer", thread))),
        new Row(
            RAW_PUT_KIB,
            Optional.empty(),
            thread -> rawPut(raw, "raw/" + prefix + "/kib-" + thread, kib)),
        new Row(
            STAGED_KIB,
            Optional.of(RAW_PUT_KIB),
            thread ->
                stagedPublish(
                    issuer,
                    staged,
                    holder + "-t" + thread,
                    Publishing.resource(prefix, "staged", thread),
                    kib)));
  }

  /** {@code PutObject} of the bytes a pointer publish points to ({@code value-<n>}). */
  static Operation rawPutCounter(S3Client raw, String key) {
    long[] count = {0};
    return () ->
        raw.putObject(
            b -> b.bucket(S3Endpoint.BUCKET).key(key),
            RequestBody.fromBytes(Publishing.value(++count[0])));
  }

  /** {@code PutObject} of {@code bytes} to one key, overwritten each time. */
  private static Operation rawPut(S3Client raw, String key, byte[] bytes) {
    return () ->
        raw.putObject(b -> b.bucket(S3Endpoint.BUCKET).key(key), RequestBody.fromBytes(bytes));
  }

  /**
   * {@code StagedDestination.write(token, new OperationId, stream of bytes)} under a lease acquired
   * and registered when opened: stage under a new key, then the fenced pointer swap.
   */
  static Operation stagedPublish(
      LeaseIssuer issuer,
      StagedDestination staged,
      String holder,
      ResourceId resource,
      byte[] bytes) {
    Lease lease = Publishing.acquire(issuer, resource, holder, Publishing.LONG_LEASE);
    FencingToken token = lease.token();
    Publishing.expectRegistered(staged.register(token), resource);
    long[] count = {0};
    return new Operation() {
      @Override
      public void run() {
        long n = ++count[0];
        Publishing.expectApplied(
            staged.write(
                token, Publishing.operation(resource, n), new ByteArrayInputStream(bytes)));
      }

      @Override
      public void close() {
        issuer.release(lease);
      }
    };
  }

  /** {@code size} pseudo-random bytes (the same for every row, so no row compresses better). */
  static byte[] payload(int size) {
    byte[] bytes = new byte[size];
    SplittableRandom random = new SplittableRandom(7);
    for (int i = 0; i < size; i++) {
      bytes[i] = (byte) random.nextInt(256);
    }
    return bytes;
  }
}
