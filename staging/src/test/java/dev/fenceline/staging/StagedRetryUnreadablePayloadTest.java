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
package dev.fenceline.staging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.fenceline.spi.Applied;
import dev.fenceline.spi.BlobInfo;
import dev.fenceline.spi.BlobKey;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.PointerStore;
import dev.fenceline.spi.Receipt;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StepListener;
import dev.fenceline.tck.memory.InMemoryBlobStore;
import dev.fenceline.tck.memory.InMemoryPointerStore;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * A retry of an applied operation whose payload cannot be read to the end (its producer failed, or
 * the upload was interrupted) changed nothing, and says so: the lookup showed the operation is
 * applied, so "nothing was published" would be wrong.
 */
class StagedRetryUnreadablePayloadTest {

  private static final ResourceId RESOURCE = ResourceId.of("reports/nightly");

  private final InMemoryBlobStore blobs = new InMemoryBlobStore(Clock.systemUTC());
  private final PointerStore pointers =
      new InMemoryPointerStore(
          new InMemoryPointerStore.Storage(), "tck", StepListener.NONE, Clock.systemUTC(), null);
  private final StagedDestination staged =
      StagedDestination.builder(blobs, pointers).prefix(BlobKey.of("published")).build();

  private static FencingToken token(long epoch) {
    return new FencingToken("issuer-1", RESOURCE, Epoch.of(epoch), "worker-" + epoch);
  }

  @Test
  void aRetryOfAnAppliedOperationWhosePayloadFailsSaysItWasAppliedAndTheRetryChangedNothing() {
    OperationId op = OperationId.of("op");
    Receipt first =
        ((Applied)
                staged.write(
                    token(1),
                    op,
                    new ByteArrayInputStream("report".getBytes(StandardCharsets.UTF_8))))
            .receipt();
    InputStream failing =
        new InputStream() {
          @Override
          public int read() throws IOException {
            throw new InterruptedIOException("interrupted (SIGTERM): the upload was stopped");
          }
        };

    RetryNotComparedException failure =
        catchThrowableOfType(
            () -> staged.write(token(1), op, failing), RetryNotComparedException.class);

    assertThat(failure)
        .hasMessage(
            "Cannot publish reports/nightly for operation op: reading the payload failed:"
                + " interrupted (SIGTERM): the upload was stopped; operation op was already"
                + " applied at epoch 1; this retry changed nothing (its payload could not be read"
                + " to compare)");
    assertThat(failure.outcomeUnknown()).isFalse();
    assertThat(failure.receipt()).isEqualTo(first);
    try (Stream<BlobInfo> all = blobs.list(BlobKey.of("published"))) {
      assertThat(all.map(BlobInfo::key).toList())
          .containsExactly(BlobKey.of(first.attributes().get("target")));
    }
  }
}
