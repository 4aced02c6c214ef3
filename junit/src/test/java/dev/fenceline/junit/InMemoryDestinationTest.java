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
package dev.fenceline.junit;

import static dev.fenceline.junit.FencelineAssertions.assertThat;
import static dev.fenceline.junit.FencelineAssertions.assertThatThrownBy;

import dev.fenceline.spi.Destination;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.Guarantee;
import dev.fenceline.spi.Lease;
import dev.fenceline.spi.LeaseIssuer;
import dev.fenceline.spi.OperationConflictException;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StepListener;
import dev.fenceline.spi.TokenKeys;
import dev.fenceline.tck.ConcurrencyControl;
import dev.fenceline.tck.DestinationContract;
import dev.fenceline.tck.memory.InMemoryLeaseIssuer;
import dev.fenceline.tck.memory.MutableClock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The TCK's destination suite on {@link InMemoryDestination}, with the issuer on a clock the suite
 * advances instead of waiting; then what the destination adds: published changes, history,
 * fingerprints of any change type, and its journal.
 */
class InMemoryDestinationTest extends DestinationContract<String> {

  private final MutableClock clock = new MutableClock(Instant.parse("2026-10-27T02:00:00Z"));
  private final InMemoryDestination.Storage storage = new InMemoryDestination.Storage();
  private final InMemoryLeaseIssuer.Storage issuerStorage = new InMemoryLeaseIssuer.Storage();

  @Override
  protected Destination<String> destination(
      String name, StepListener steps, Optional<TokenKeys> keys) {
    return new InMemoryDestination<>(storage, name, steps, clock, keys.orElse(null));
  }

  @Override
  protected ConcurrencyControl concurrencyControl() {
    return ConcurrencyControl.LOCKING;
  }

  @Override
  protected String change(ResourceId resource, String payload) {
    return payload;
  }

  @Override
  protected Optional<String> published(ResourceId resource) {
    return tck().published(resource);
  }

  @Override
  protected long applyCount(ResourceId resource) {
    return tck().history(resource).size();
  }

  private InMemoryDestination<String> tck() {
    return new InMemoryDestination<>(storage, "tck", StepListener.NONE, clock, null);
  }

  @Override
  protected LeaseIssuer issuer() {
    return new InMemoryLeaseIssuer(issuerStorage, clock);
  }

  @Override
  protected void awaitExpiry(Lease lease) {
    if (lease.expiresAt().isAfter(clock.instant())) {
      clock.advance(java.time.Duration.between(clock.instant(), lease.expiresAt()));
    }
  }

  @Override
  protected void restartStore() {
    // Every destination() is a new view of the kept storage.
  }

  private static final ResourceId REPORT = ResourceId.of("nightly-report");

  private FencingToken token(long epoch, String holder) {
    return new FencingToken(issuer().id(), REPORT, Epoch.of(epoch), holder);
  }

  @Test
  void publishesTheLastAppliedChangeAndKeepsItsHistory() {
    InMemoryDestination<String> reports =
        new InMemoryDestination<>(storage, "reports", StepListener.NONE, clock, null);
    assertThat(reports.published(REPORT)).isEmpty();
    assertThat(reports.guarantee()).isEqualTo(Guarantee.FENCED);

    reports.write(token(1, "worker-a"), OperationId.of("op-1"), "first");
    reports.write(token(2, "worker-b"), OperationId.of("op-2"), "second");
    reports.write(token(1, "worker-a"), OperationId.of("op-3"), "stale");

    assertThat(reports.published(REPORT)).contains("second");
    assertThat(reports.history(REPORT)).containsExactly("first", "second");
    assertThat(reports.writes())
        .extracting(RecordedWrite::describe)
        .containsExactly(
            "worker-a wrote op-1 at epoch 1: applied at epoch 1 as operation op-1 on reports",
            "worker-b wrote op-2 at epoch 2: applied at epoch 2 as operation op-2 on reports",
            "worker-a wrote op-3 at epoch 1: rejected as stale: epoch 1 is older than the current"
                + " epoch 2 of nightly-report");
  }

  @Test
  void aChangeThatIsNotPublishedIsNotKept() {
    InMemoryDestination<String> reports =
        new InMemoryDestination<>(storage, "reports", StepListener.NONE, clock, null);
    reports.write(token(2, "worker-b"), OperationId.of("op-1"), "kept");

    reports.write(token(1, "worker-a"), OperationId.of("op-2"), "stale");
    reports.write(token(2, "worker-b"), OperationId.of("op-1"), "kept");

    assertThat(storage.changeCount()).isEqualTo(1);
  }

  /** A change type of the user's, compared by value. */
  record Report(String day, List<String> lines) {}

  @Test
  void anyChangeTypeRetriesByValueAndConflictsOnAnotherValue() {
    InMemoryDestination<Report> reports =
        new InMemoryDestination<>(storage, "reports", StepListener.NONE, clock, null);
    Report report = new Report("2026-10-27", List.of("42 orders"));
    reports.write(token(1, "worker-a"), OperationId.of("op-1"), report);

    assertThat(
            reports.write(
                token(1, "worker-a"),
                OperationId.of("op-1"),
                new Report("2026-10-27", List.of("42 orders"))))
        .wasAlreadyApplied();
    assertThatThrownBy(
            () ->
                reports.write(
                    token(1, "worker-a"),
                    OperationId.of("op-1"),
                    new Report("2026-10-27", List.of("43 orders"))))
        .isInstanceOf(OperationConflictException.class);
    assertThat(reports.published(REPORT)).contains(report);
    assertThat(reports.writes()).hasSize(3);
    assertThat(reports.writes().get(2).failure())
        .containsInstanceOf(OperationConflictException.class);
  }

  @Test
  void byteArraysAreTheSameRequestWhenTheirContentIs() {
    InMemoryDestination<byte[]> files =
        new InMemoryDestination<>(storage, "files", StepListener.NONE, clock, null);
    files.write(token(1, "worker-a"), OperationId.of("op-1"), new byte[] {1, 2});

    assertThat(files.write(token(1, "worker-a"), OperationId.of("op-1"), new byte[] {1, 2}))
        .wasAlreadyApplied();
  }
}
