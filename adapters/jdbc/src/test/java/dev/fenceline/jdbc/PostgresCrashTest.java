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
package dev.fenceline.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fenceline.spi.Applied;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingStep;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.Lease;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Pointer;
import dev.fenceline.spi.PointerState;
import dev.fenceline.spi.Receipt;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StoreException;
import dev.fenceline.spi.WriteOutcome;
import dev.fenceline.tck.Concurrently;
import dev.fenceline.tck.PausePoints;
import dev.fenceline.tck.PausePoints.Pause;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Crashes a real PostgreSQL server ({@code pg_ctl stop -m immediate}) while a writer is paused
 * inside the atomic step, then starts it again on the same data directory (R3, R11 c, R11 d).
 */
class PostgresCrashTest {

  private static final ResourceId REPORT = ResourceId.of("nightly-report");

  @TempDir Path directory;
  private PostgresDatabase server;

  @BeforeEach
  void start() {
    server =
        new PostgresDatabase(
            directory.resolve("data"), Map.of("fsync", "on", "synchronous_commit", "on"));
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @ParameterizedTest
  @EnumSource(
      value = FencingStep.class,
      names = {"AFTER_EPOCH_CHECK", "AFTER_APPLY"})
  void aCrashBeforeTheCommitLeavesNeitherTheChangeNorTheRecord(FencingStep step) {
    FencingToken a = new FencingToken("test-issuer", REPORT, Epoch.of(33), "worker-a");
    FencingToken b = new FencingToken("test-issuer", REPORT, Epoch.of(34), "worker-b");
    Receipt first;
    try (JdbcStore store = server.openStore()) {
      first =
          ((Applied)
                  store
                      .pointerStore("reports")
                      .write(a, OperationId.of("v1"), Pointer.to("version 1")))
              .receipt();
    }
    PausePoints pauses = new PausePoints();
    Pause pause = pauses.pauseAt(step, "worker-b");
    JdbcStore store = server.openStore();
    CompletableFuture<WriteOutcome> writer =
        Concurrently.start(
            "worker-b",
            () ->
                store
                    .pointerStore("reports", pauses)
                    .write(b, OperationId.of("v2"), Pointer.to("v2")));
    pause.awaitReached();

    server.crash();
    pause.resume();

    assertThatThrownBy(() -> Concurrently.await(writer)).isInstanceOf(StoreException.class);
    server.start();
    try (JdbcStore restarted = server.openStore()) {
      JdbcPointerStore pointers = restarted.pointerStore("reports");
      assertThat(pointers.lookup(REPORT, OperationId.of("v2"))).isEmpty();
      assertThat(pointers.current(REPORT).map(PointerState::pointer))
          .contains(Pointer.to("version 1"));
      assertThat(pointers.current(REPORT).map(PointerState::version)).contains(1L);
      assertThat(pointers.currentEpoch(REPORT)).isEqualTo(Epoch.of(33));
      assertThat(pointers.lookup(REPORT, OperationId.of("v1"))).contains(first);
    }
  }

  @Test
  void aCrashAfterTheCommitKeepsBothTheChangeAndTheRecord() {
    FencingToken b = new FencingToken("test-issuer", REPORT, Epoch.of(34), "worker-b");
    PausePoints pauses = new PausePoints();
    Pause beforeAnswer = pauses.pauseAt(FencingStep.AFTER_COMMIT, "worker-b");
    JdbcStore store = server.openStore();
    CompletableFuture<WriteOutcome> writer =
        Concurrently.start(
            "worker-b",
            () ->
                store
                    .pointerStore("reports", pauses)
                    .write(b, OperationId.of("v2"), Pointer.to("v2")));
    beforeAnswer.awaitReached();

    server.crash();
    beforeAnswer.resume();
    Receipt answered = ((Applied) Concurrently.await(writer)).receipt();

    server.start();
    try (JdbcStore restarted = server.openStore()) {
      assertThat(restarted.pointerStore("reports").lookup(REPORT, OperationId.of("v2")))
          .contains(answered);
      assertThat(restarted.pointerStore("reports").current(REPORT).map(s -> s.pointer().target()))
          .contains("v2");
      assertThat(restarted.pointerStore("reports").currentEpoch(REPORT)).isEqualTo(Epoch.of(34));
    }
  }

  @Test
  void r11d_epochsHandedOutBeforeACrashAreNeverHandedOutAgain() {
    Epoch last = Epoch.NONE;
    try (JdbcStore store = server.openStore()) {
      for (int i = 0; i < 5; i++) {
        Lease lease =
            store
                .leaseIssuer()
                .tryAcquire(REPORT, "worker-" + i, Duration.ofMinutes(1))
                .orElseThrow();
        store.leaseIssuer().release(lease);
        last = lease.epoch();
      }
    }

    server.crash();
    server.start();

    try (JdbcStore store = server.openStore()) {
      Lease next =
          store
              .leaseIssuer()
              .tryAcquire(REPORT, "worker-next", Duration.ofMinutes(1))
              .orElseThrow();
      assertThat(next.epoch()).isEqualTo(last.next());
    }
  }
}
