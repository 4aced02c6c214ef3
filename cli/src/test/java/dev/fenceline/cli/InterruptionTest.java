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
package dev.fenceline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fenceline.core.Fenceline;
import dev.fenceline.core.HeldLease;
import dev.fenceline.jdbc.JdbcStore;
import dev.fenceline.spi.Applied;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Receipt;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.WriteOutcome;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The interruption's line when the signal arrives after the whole payload was read, so that the
 * pointer swap may already have happened: it must never say "nothing was published" then. The hook
 * ({@link Interruption#onExit()}) is called directly, the command's thread is a thread of the test,
 * and latches order the two.
 */
@Timeout(60) // a failure detector only
class InterruptionTest {

  private static final ResourceId RESOURCE = ResourceId.of("nightly-report");
  private static final OperationId OPERATION = OperationId.of("report-1");

  @TempDir Path dir;

  private final ByteArrayOutputStream printed = new ByteArrayOutputStream();
  private final Interruption interruption =
      new Interruption(new PrintStream(printed, true, StandardCharsets.UTF_8));
  private JdbcStore store;
  private Fenceline fenceline;
  private HeldLease lease;

  @BeforeEach
  void acquire() {
    store = JdbcStore.sqlite(dir.resolve("fenceline.db"));
    fenceline =
        Fenceline.builder()
            .issuer(store.leaseIssuer())
            .holder("interruption-test")
            .leaseTtl(Duration.ofSeconds(2))
            .build();
    lease = fenceline.tryAcquire(RESOURCE).orElseThrow();
    interruption.holding(lease, store.leaseIssuer(), UnaryOperator.identity());
  }

  @AfterEach
  void close() {
    fenceline.close();
    store.close();
  }

  /** The command's thread: reads the payload to its end, then waits before its swap returns. */
  private void publishInTheBackground(CountDownLatch payloadRead, CountDownLatch answer) {
    Thread command =
        new Thread(
            () ->
                interruption.publishing(
                    "report.csv",
                    "reports",
                    OPERATION,
                    false,
                    () -> {
                      try (InputStream payload =
                          interruption.payload(new ByteArrayInputStream(new byte[4096]))) {
                        payload.transferTo(OutputStream.nullOutputStream());
                        payloadRead.countDown();
                        answer.await();
                      } catch (Exception e) {
                        throw new IllegalStateException(e);
                      }
                      return applied();
                    }),
            "command");
    command.setDaemon(true); // it waits for the JVM's halt once interrupted
    command.start();
  }

  private WriteOutcome applied() {
    return new Applied(
        new Receipt(
            "reports", RESOURCE, OPERATION, lease.token().epoch(), Instant.now(), Map.of()));
  }

  @Test
  void aSignalAfterThePayloadWasReadWaitsForTheSwapAndSaysItWasPublished() throws Exception {
    CountDownLatch payloadRead = new CountDownLatch(1);
    CountDownLatch answer = new CountDownLatch(1);
    publishInTheBackground(payloadRead, answer);
    assertThat(payloadRead.await(30, TimeUnit.SECONDS)).isTrue();

    Thread hook = new Thread(interruption::onExit, "hook");
    hook.start();
    while (!interruption.isInterrupted()) {
      Thread.onSpinWait();
    }
    answer.countDown(); // the swap lands while the hook waits for it
    hook.join();

    assertThat(printed.toString(StandardCharsets.UTF_8))
        .isEqualTo(
            "fenceline: interrupted (told to exit) while publishing report.csv to reports: it was"
                + " published (operation report-1 at epoch 1); the lease on nightly-report was"
                + " released\n");
    assertThat(store.leaseIssuer().status(RESOURCE).held()).isFalse();
  }

  @Test
  void aSignalAfterThePayloadWasReadWhoseSwapDoesNotAnswerInTimeSaysTheOutcomeIsUnknown()
      throws Exception {
    CountDownLatch payloadRead = new CountDownLatch(1);
    publishInTheBackground(payloadRead, new CountDownLatch(1)); // never answers
    assertThat(payloadRead.await(30, TimeUnit.SECONDS)).isTrue();

    interruption.onExit(); // waits the lease's ttl (2 s), not longer

    assertThat(printed.toString(StandardCharsets.UTF_8))
        .isEqualTo(
            "fenceline: interrupted (told to exit) while publishing report.csv to reports: the"
                + " outcome is unknown, the payload was sent and the pointer swap may have happened"
                + " (publish again with operation report-1 to find out: it says already applied if"
                + " it was published); the lease on nightly-report was released\n");
    assertThat(store.leaseIssuer().status(RESOURCE).held()).isFalse();
  }

  @Test
  void aNormalExitAfterTheLeaseWasReleasedDoesNothing() {
    lease.close();

    interruption.onExit();

    assertThat(printed.toString(StandardCharsets.UTF_8)).isEmpty();
  }
}
