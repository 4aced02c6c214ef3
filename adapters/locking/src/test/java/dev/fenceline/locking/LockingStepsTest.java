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
package dev.fenceline.locking;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fenceline.spi.AlreadyApplied;
import dev.fenceline.spi.Applied;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.OperationConflictException;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Receipt;
import dev.fenceline.spi.RejectedStale;
import dev.fenceline.spi.RequestFingerprint;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StoreException;
import dev.fenceline.spi.UntrustedTokenException;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The order in which {@link LockingSteps} calls the store and the step listener, and how it reports
 * the store's failures, on a store that records every call. The destination contract (in the TCK)
 * checks the outcomes on real stores; this checks what they cannot see, such as a rollback.
 */
class LockingStepsTest {

  private static final ResourceId RESOURCE = ResourceId.of("reports/daily");
  private static final OperationId OPERATION = OperationId.of("report-1");
  private static final Clock CLOCK =
      Clock.fixed(Instant.parse("2026-12-02T00:00:00Z"), ZoneOffset.UTC);

  private final RecordingStore store = new RecordingStore();
  private final List<String> calls = store.calls;
  private final LockingSteps<String> steps =
      new LockingSteps<>(
          "tck",
          store,
          (step, token, operation) -> calls.add(step.name()),
          CLOCK,
          Optional.empty());

  private static FencingToken token(long epoch) {
    return new FencingToken("issuer", RESOURCE, Epoch.of(epoch), "worker");
  }

  private static LockingSteps.Change<String> change(String payload) {
    return LockingSteps.Change.of(RequestFingerprint.sha256(payload), tx -> Map.of("p", payload));
  }

  @Test
  void anAppliedWriteLocksChecksAppliesRecordsAndCommitsInOrder() {
    assertThat(steps.write(token(3), OPERATION, change("A"))).isInstanceOf(Applied.class);

    assertThat(calls)
        .containsExactly(
            "BEFORE_LOCK",
            "begin",
            "lock",
            "write-row 3 issuer",
            "AFTER_EPOCH_CHECK",
            "find",
            "record",
            "AFTER_APPLY",
            "commit",
            "AFTER_COMMIT");
  }

  @Test
  void aStaleWriteRollsBackAndReportsOnlyBeforeLock() {
    store.row = ControlRow.of(Epoch.of(5), "issuer");

    assertThat(steps.write(token(3), OPERATION, change("A")))
        .isEqualTo(new RejectedStale(RESOURCE, Epoch.of(3), Epoch.of(5)));

    assertThat(calls).containsExactly("BEFORE_LOCK", "begin", "lock", "rollback");
  }

  @Test
  void aReplayWithANewerEpochRegistersItAndCommits() {
    store.row = ControlRow.of(Epoch.of(3), "issuer");
    Receipt receipt = store.record(change("A"));

    assertThat(steps.write(token(4), OPERATION, change("A")))
        .isEqualTo(new AlreadyApplied(receipt));

    assertThat(calls)
        .containsExactly(
            "BEFORE_LOCK",
            "begin",
            "lock",
            "write-row 4 issuer",
            "AFTER_EPOCH_CHECK",
            "find",
            "commit",
            "AFTER_COMMIT");
  }

  @Test
  void aConflictRollsBackTheNewerEpochRegisteredInTheSameStep() {
    store.row = ControlRow.of(Epoch.of(3), "issuer");
    store.record(change("A"));

    assertThatThrownBy(() -> steps.write(token(4), OPERATION, change("B")))
        .isInstanceOf(OperationConflictException.class)
        .hasMessageContaining("different request");

    assertThat(calls).endsWith("write-row 4 issuer", "AFTER_EPOCH_CHECK", "find", "rollback");
    assertThat(calls).doesNotContain("commit");
  }

  @Test
  void aForeignIssuerIsRefusedAndNothingCommits() {
    store.row = ControlRow.of(Epoch.of(3), "other-issuer");

    assertThatThrownBy(() -> steps.write(token(4), OPERATION, change("A")))
        .isInstanceOf(UntrustedTokenException.class)
        .hasMessageContaining("registered with issuer other-issuer");

    assertThat(calls).containsExactly("BEFORE_LOCK", "begin", "lock", "rollback");
  }

  @Test
  void aCheckedFailureBeforeTheCommitChangedNothing() {
    store.failFind = new SQLException("disk I/O error");

    assertThatThrownBy(() -> steps.write(token(4), OPERATION, change("A")))
        .isInstanceOf(StoreException.class)
        .hasMessage(
            "Cannot write operation report-1 of reports/daily to tck at recording store:"
                + " disk I/O error (nothing was changed; retry)")
        .satisfies(e -> assertThat(((StoreException) e).outcomeUnknown()).isFalse());
    assertThat(calls).endsWith("rollback").doesNotContain("commit");
  }

  @Test
  void aFailedCommitLeavesTheOutcomeUnknownAndRollsBack() {
    store.failCommit = new SQLException("connection reset");

    assertThatThrownBy(() -> steps.write(token(4), OPERATION, change("A")))
        .isInstanceOf(StoreException.class)
        .hasMessageContaining("the commit failed (connection reset)")
        .hasMessageContaining("look the operation up, or retry it with the same operation ID")
        .satisfies(e -> assertThat(((StoreException) e).outcomeUnknown()).isTrue());
    assertThat(calls).endsWith("commit", "rollback").doesNotContain("AFTER_COMMIT");
  }

  @Test
  void registerBindsTheIssuerOfAnEqualEpochAfterAReset() {
    store.row = ControlRow.of(Epoch.of(7), null);

    steps.register(new FencingToken("new-issuer", RESOURCE, Epoch.of(7), "worker"));

    assertThat(calls).containsExactly("begin", "lock", "write-row 7 new-issuer", "commit");
  }

  /** A store that records its calls; its state is one control row and one operation record. */
  private static final class RecordingStore implements LockingStore<String> {
    final List<String> calls = new ArrayList<>();
    ControlRow row = ControlRow.NONE;
    RecordedOperation recorded;
    SQLException failFind;
    SQLException failCommit;

    Receipt record(LockingSteps.Change<String> change) {
      try {
        Receipt receipt =
            new Receipt("tck", RESOURCE, OPERATION, Epoch.of(3), CLOCK.instant(), Map.of());
        recorded = new RecordedOperation(receipt, change.fingerprint());
        return receipt;
      } catch (Exception e) {
        throw new AssertionError(e);
      }
    }

    @Override
    public String description() {
      return "recording store";
    }

    @Override
    public String begin() {
      calls.add("begin");
      return "tx";
    }

    @Override
    public ControlRow lockControlRow(String tx, ResourceId resource) {
      calls.add("lock");
      return row;
    }

    @Override
    public Optional<ControlRow> readControlRow(String tx, ResourceId resource) {
      calls.add("read");
      return Optional.of(row);
    }

    @Override
    public void writeControlRow(String tx, ResourceId resource, ControlRow next) {
      calls.add("write-row " + next.epoch().value() + " " + next.issuer().orElse("-"));
    }

    @Override
    public Optional<RecordedOperation> findOperation(
        String tx, String destination, ResourceId resource, OperationId operation)
        throws SQLException {
      calls.add("find");
      if (failFind != null) {
        throw failFind;
      }
      return Optional.ofNullable(recorded);
    }

    @Override
    public void recordOperation(String tx, RecordedOperation record) {
      calls.add("record");
    }

    @Override
    public void commit(String tx) throws SQLException {
      calls.add("commit");
      if (failCommit != null) {
        throw failCommit;
      }
    }

    @Override
    public void rollback(String tx) {
      calls.add("rollback");
    }
  }
}
