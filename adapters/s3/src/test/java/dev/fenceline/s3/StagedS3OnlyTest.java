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
import dev.fenceline.spi.Applied;
import dev.fenceline.spi.BlobKey;
import dev.fenceline.spi.BlobStore;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.Guarantee;
import dev.fenceline.spi.Lease;
import dev.fenceline.spi.LeaseIssuer;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.PointerStore;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StepListener;
import dev.fenceline.spi.TokenKeys;
import dev.fenceline.staging.StagedDestination;
import dev.fenceline.staging.StagedDestinationContract;
import dev.fenceline.tck.ConcurrencyControl;
import dev.fenceline.tck.memory.InMemoryLeaseIssuer;
import dev.fenceline.tck.memory.MutableClock;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;

/**
 * Staged publishing with nothing but S3: blobs in an {@link S3BlobStore}, the pointer in an {@link
 * S3PointerStore} on the same bucket (R6 with no database). Conditional PUTs go through {@link
 * AtomicConditionalWrites}: S3Mock and S3Proxy do not apply them atomically under concurrent
 * requests, S3 does.
 */
abstract class StagedS3OnlyTest extends StagedDestinationContract {

  private final MutableClock clock = new MutableClock(Instant.parse("2026-10-27T01:00:00Z"));
  private final InMemoryLeaseIssuer.Storage issuerStorage = new InMemoryLeaseIssuer.Storage();
  private S3OnlyFixture s3;

  /** The S3 server under test. */
  abstract Kind kind();

  @BeforeEach
  void openBucket() {
    s3 =
        new S3OnlyFixture(
            kind(),
            builder ->
                builder
                    .prefix("site")
                    .multipartThreshold(S3Stores.FIVE_MIB)
                    .partSize(S3Stores.FIVE_MIB));
  }

  @AfterEach
  void closeStores() throws Exception {
    s3.close();
  }

  @Override
  protected BlobStore blobStore() {
    return s3.store().blobStore();
  }

  @Override
  protected PointerStore pointerStore(String name, StepListener steps, Optional<TokenKeys> keys) {
    return s3.pointerStore(name, steps, keys);
  }

  @Override
  protected ConcurrencyControl concurrencyControl() {
    return ConcurrencyControl.COMPARE_AND_SWAP; // the S3 pointer store's
  }

  @Override
  protected void overwriteBlob(BlobKey key, byte[] bytes) {
    S3Location location = s3.store().s3Location();
    s3.server
        .admin()
        .putObject(
            b -> b.bucket(location.bucket()).key(location.objectKey(key)),
            RequestBody.fromBytes(bytes));
  }

  @Override
  protected LeaseIssuer issuer() {
    return new InMemoryLeaseIssuer(issuerStorage, clock);
  }

  @Override
  protected void restartStore() {
    s3.restart();
  }

  @Override
  protected void awaitExpiry(Lease lease) {
    clock.advance(lease.ttl().plus(Duration.ofMillis(1)));
  }

  /**
   * What one 1 KiB publish costs, counted at the HTTP client (opening the stores, the probe
   * included, is not counted): the staged destination's early epoch look (GET control, so a stale
   * worker uploads nothing), its look for the operation (GET control, and GET operation unless the
   * control object tells; so a retry uploads nothing), the staged PUT, then the pointer swap (a
   * fresh resource: GET control, PUT control; later, by the writer that wrote last, at the ETag it
   * wrote, without a GET of the control object: GET operation unless the control object tells, PUT
   * operation, PUT version, PUT control).
   */
  @Test
  void aOneKibPublishCostsFiveRequestsOnAFreshResourceAndEightLater() {
    RecordingHttpClient recording = s3.closedLater(new RecordingHttpClient());
    S3Store counted =
        s3.open(
            s3.server
                .storeBuilder(s3.bucket)
                .prefix("site")
                .httpClient(new AtomicConditionalWrites(recording)));
    StagedDestination staged =
        StagedDestination.builder(counted.blobStore(), counted.pointerStore("counted")).build();
    assertThat(staged.guarantee()).isEqualTo(Guarantee.FENCED_BY_STAGING);
    ResourceId resource = freshResource("requests");
    FencingToken token = new FencingToken(issuer().id(), resource, Epoch.of(1), "worker-a");
    byte[] kib = new byte[1024];

    List<List<String>> perPublish = new ArrayList<>();
    for (int i = 1; i <= 3; i++) {
      recording.clear();
      InputStream payload = new ByteArrayInputStream(kib);
      assertThat(staged.write(token, OperationId.of("publish-" + i), payload))
          .isInstanceOf(Applied.class);
      perPublish.add(recording.operations());
    }

    // The early epoch look, the look for an applied operation (a retry would upload nothing:
    // GET control, and GET operation unless the control object tells), the staged PUT, the swap.
    assertThat(perPublish.get(0))
        .containsExactly("GetObject", "GetObject", "PutObject", "GetObject", "PutObject");
    // The second version's swap, sent at the ETag the first one wrote, knows that only the first
    // operation exists: no operation lookup.
    assertThat(perPublish.get(1))
        .containsExactly(
            "GetObject", "GetObject", "PutObject", "PutObject", "PutObject", "PutObject");
    assertThat(perPublish.get(2))
        .containsExactly(
            "GetObject",
            "GetObject",
            "GetObject",
            "PutObject",
            "GetObject",
            "PutObject",
            "PutObject",
            "PutObject");
  }
}
