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
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Receipt;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.staging.RetryNotComparedException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The races between the command's thread and the shutdown hook: the report gate (the printed report
 * and the process's status agree), CMD's start (the lease is never released while CMD may run), and
 * a retry stopped while hashing its payload. The hook ({@link Interruption#onExit()}) is called
 * directly with a recorded halt; the command's thread is a daemon thread of the test, and latches
 * and thread states order the two.
 */
@Timeout(60) // a failure detector only
class InterruptionGateTest {

  private static final ResourceId RESOURCE = ResourceId.of("nightly-report");
  private static final OperationId OPERATION = OperationId.of("report-1");

  @TempDir Path dir;

  private final ByteArrayOutputStream printed = new ByteArrayOutputStream();
  private final List<Integer> halts = new CopyOnWriteArrayList<>();
  private final Interruption interruption =
      new Interruption(new PrintStream(printed, true, StandardCharsets.UTF_8), halts::add);
  private final AtomicReference<ChildProcess> started = new AtomicReference<>();
  private JdbcStore store;
  private Fenceline fenceline;
  private HeldLease lease;

  @BeforeEach
  void acquire() {
    store = JdbcStore.sqlite(dir.resolve("fenceline.db"));
    fenceline =
        Fenceline.builder()
            .issuer(store.leaseIssuer())
            .holder("interruption-gate-test")
            .leaseTtl(Duration.ofSeconds(5))
            .build();
    lease = fenceline.tryAcquire(RESOURCE).orElseThrow();
    interruption.holding(lease, store.leaseIssuer(), UnaryOperator.identity());
  }

  @AfterEach
  void close() {
    ChildProcess child = started.get();
    if (child != null) {
      ProcessHandle.of(child.pid()).ifPresent(ProcessHandle::destroyForcibly);
    }
    fenceline.close();
    store.close();
  }

  private static Thread command(Runnable body) {
    Thread thread = new Thread(body, "command");
    thread.setDaemon(true); // it waits for the JVM's halt once interrupted
    thread.start();
    return thread;
  }

  private static void awaitWaiting(Thread thread) {
    while (thread.getState() != Thread.State.WAITING
        && thread.getState() != Thread.State.TIMED_WAITING
        && thread.getState() != Thread.State.TERMINATED) {
      Thread.onSpinWait();
    }
  }

  private String line() {
    return printed.toString(StandardCharsets.UTF_8);
  }

  @Test
  void aCommandThatReachesItsReportAfterTheSignalPrintsNothingAndTheHooksLineIsTheOnlyOne() {
    interruption.observed("SIGINT"); // Ctrl-C: CMD died with it, the command would report 8
    AtomicBoolean reportPrinted = new AtomicBoolean();
    Thread command = command(() -> interruption.report(8, () -> reportPrinted.set(true)));
    awaitWaiting(command);

    interruption.onExit();

    assertThat(command.getState())
        .as("the command's thread waits for the halt")
        .isNotEqualTo(Thread.State.TERMINATED);
    assertThat(reportPrinted).as("the command printed its report").isFalse();
    assertThat(line())
        .isEqualTo(
            "fenceline: interrupted (SIGINT) while holding the lease: nothing was published; the"
                + " lease on nightly-report was released\n");
    assertThat(halts).as("the JVM exits 128 + the signal's number by itself").isEmpty();
    assertThat(store.leaseIssuer().status(RESOURCE).held()).isFalse();
  }

  @Test
  void aSignalAfterTheReportBeganWaitsForItAndHaltsWithItsStatus() throws Exception {
    lease.close(); // the command released the lease before its report
    CountDownLatch printing = new CountDownLatch(1);
    CountDownLatch finish = new CountDownLatch(1);
    Thread command =
        command(
            () ->
                interruption.report(
                    ExitCode.COMMAND_FAILED.code(),
                    () -> {
                      printing.countDown();
                      try {
                        finish.await();
                      } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                      }
                    }));
    assertThat(printing.await(30, TimeUnit.SECONDS)).isTrue();

    interruption.observed("SIGINT");
    Thread hook = new Thread(interruption::onExit, "hook");
    hook.start();
    awaitWaiting(hook);
    assertThat(halts).as("halted before the report was printed").isEmpty();
    finish.countDown();
    hook.join();
    command.join();

    assertThat(halts).containsExactly(ExitCode.COMMAND_FAILED.code());
    assertThat(line()).as("the hook's line: the report is the command's").isEmpty();
  }

  @Test
  void aSignalWhileCmdIsBeingStartedStopsCmdBeforeTheLeaseIsReleased() throws Exception {
    CountDownLatch starting = new CountDownLatch(1);
    CountDownLatch startReturned = new CountDownLatch(1);
    command(
        () ->
            interruption.start(
                () -> {
                  starting.countDown();
                  while (!interruption.isInterrupted()) {
                    Thread.onSpinWait(); // the hook starts while CMD is being started
                  }
                  ChildProcess child = ChildProcess.start(List.of("sleep", "60"), Map.of(), null);
                  started.set(child);
                  startReturned.countDown();
                  return child;
                },
                Duration.ofSeconds(5)));
    assertThat(starting.await(30, TimeUnit.SECONDS)).isTrue();

    interruption.onExit();
    assertThat(startReturned.await(30, TimeUnit.SECONDS)).as("CMD was started").isTrue();

    ChildProcess child = started.get();
    assertThat(ProcessHandle.of(child.pid()).map(ProcessHandle::isAlive).orElse(false))
        .as("CMD is still running after the hook released the lease")
        .isFalse();
    assertThat(line())
        .isEqualTo(
            "fenceline: interrupted (told to exit) while running sleep 60 (pid "
                + child.pid()
                + "): CMD was stopped and nothing was published; the lease on nightly-report was"
                + " released\n");
    assertThat(store.leaseIssuer().status(RESOURCE).held()).isFalse();
  }

  @Test
  void aSignalWhileARetryOfAnAppliedOperationHashesItsPayloadSaysTheRetryChangedNothing()
      throws Exception {
    CountDownLatch reading = new CountDownLatch(1);
    Receipt applied =
        new Receipt("reports", RESOURCE, OPERATION, lease.token().epoch(), Instant.now(), Map.of());
    command(
        () ->
            interruption.publishing(
                "report.csv",
                "reports",
                OPERATION,
                false,
                () -> {
                  // As the staged destination's retry: hashes the payload, which never ends.
                  try (InputStream payload = interruption.payload(new Blocking(reading))) {
                    payload.transferTo(OutputStream.nullOutputStream());
                  } catch (IOException e) {
                    throw new RetryNotComparedException("retry not compared", applied, e);
                  }
                  throw new IllegalStateException("the payload ended");
                }));
    assertThat(reading.await(30, TimeUnit.SECONDS)).isTrue();

    interruption.onExit();

    assertThat(line())
        .isEqualTo(
            "fenceline: interrupted (told to exit) while publishing report.csv to reports: this"
                + " retry changed nothing (operation report-1 was already applied at epoch 1); the"
                + " lease on nightly-report was released\n");
  }

  /** A payload whose read blocks until it is closed, then fails. */
  private static final class Blocking extends InputStream {
    private final CountDownLatch reading;
    private final CountDownLatch closed = new CountDownLatch(1);

    Blocking(CountDownLatch reading) {
      this.reading = reading;
    }

    @Override
    public int read() throws IOException {
      reading.countDown();
      try {
        closed.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      throw new IOException("closed");
    }

    @Override
    public void close() {
      closed.countDown();
    }
  }
}
