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

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.fenceline.jdbc.JdbcStore;
import dev.fenceline.spi.PointerState;
import dev.fenceline.spi.Receipt;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the demo end to end with real child JVMs (the test's class path): A is stopped with SIGSTOP
 * after it acquired and before it writes, the lease expires by the database clock, B registers a
 * newer epoch and publishes, A resumes and is rejected at the destination (R11 a, b).
 */
class DemoTest {

  private static final Duration TTL = Demo.DEFAULT_TTL;

  @TempDir Path dir;

  @Test
  void destinationRejectsTheResumedStaleWorkerAndKeepsTheNewReport() {
    Run run = runDemo();

    assertThat(run.result().problems()).as(run.transcript()).isEmpty();
    assertThat(run.result().exitCode()).isEqualTo(Main.EXIT_OK);
    long epochA = run.result().epochA();
    long epochB = run.result().epochB();
    assertThat(epochB).isEqualTo(epochA + 1);

    PublishReport a = run.result().workerA().orElseThrow();
    assertThat(a.outcome()).isEqualTo(PublishReport.REJECTED_STALE);
    assertThat(a.supplied()).isEqualTo(epochA).isLessThan(a.current());
    assertThat(a.current()).isEqualTo(epochB);

    PublishReport b = run.result().workerB().orElseThrow();
    assertThat(b.outcome()).isEqualTo(PublishReport.APPLIED);
    assertThat(b.supplied()).isEqualTo(epochB);

    // Read the destination itself, not only what the orchestrator reported.
    String expected = "report computed by worker B at epoch " + epochB;
    try (JdbcStore store = JdbcStore.sqlite(dir.resolve(Demo.DB_FILE))) {
      PointerState published =
          store.pointerStore(Worker.POINTER_STORE).current(Worker.RESOURCE).orElseThrow();
      assertThat(published.pointer().target()).isEqualTo(expected);
      assertThat(published.epoch().value()).isEqualTo(epochB);
      assertThat(published.version()).as("A's write never swapped the pointer").isEqualTo(1);
      Receipt receipt =
          store
              .pointerStore(Worker.POINTER_STORE)
              .lookup(Worker.RESOURCE, Worker.OPERATION)
              .orElseThrow();
      assertThat(receipt.epoch().value()).isEqualTo(epochB);
      assertThat(store.pointerStore(Worker.POINTER_STORE).currentEpoch(Worker.RESOURCE).value())
          .isEqualTo(epochB);
    }

    assertThat(run.out())
        .contains("SIGSTOP", "SIGCONT", "rejected as stale (current " + epochB + ")")
        .contains("published: \"" + expected + "\"")
        .contains("verdict: PASS");
    assertThat(ProcessHandle.current().children().filter(ProcessHandle::isAlive))
        .as("worker processes left behind")
        .isEmpty();
  }

  @Test
  void rerunStartsFromAFreshDatabase() {
    Run first = runDemo();
    Run second = runDemo();

    assertThat(first.result().problems()).as(first.transcript()).isEmpty();
    assertThat(second.result().problems()).as(second.transcript()).isEmpty();
    assertThat(second.result().epochA()).isEqualTo(first.result().epochA()).isEqualTo(1);
  }

  private Run runDemo() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    DemoResult result;
    try (PrintStream outStream = new PrintStream(out, true, UTF_8);
        PrintStream errStream = new PrintStream(err, true, UTF_8)) {
      result = Demo.run(new Demo.Settings(dir, TTL), outStream, errStream);
    }
    return new Run(result, out.toString(UTF_8), err.toString(UTF_8));
  }

  private record Run(DemoResult result, String out, String err) {
    String transcript() {
      return "stdout:\n" + out + "\nstderr:\n" + err;
    }
  }
}
