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
package dev.fenceline.chaos.check;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fenceline.chaos.check.Check.Status;
import dev.fenceline.chaos.history.Event;
import dev.fenceline.chaos.history.History;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GeneratedHistoryTest {

  /**
   * Operations in the generated history: 20,000 by default, 100,000 with {@code -Dchaos.long=true}
   * (35-50 s on 2 cores, too long for every build).
   */
  static final int OPERATIONS = Boolean.getBoolean("chaos.long") ? 100_000 : 20_000;

  @Test
  void aLargeGeneratedHistoryPasses() {
    long g = System.nanoTime();
    List<Event> history = SimulatedRun.generate(23, 8, 4, OPERATIONS);
    long generated = System.nanoTime() - g;

    long start = System.nanoTime();
    CheckResult result = Checker.defaults().check(history);
    long took = System.nanoTime() - start;

    Counts c = result.counts();
    System.out.printf(
        "generated %d lines (%d operations, %d unknown, %d register/write/read) in %d ms;"
            + " checked in %d ms, linearizability %d ms%n%s",
        history.size(),
        c.totalOperations(),
        c.operations().values().stream().mapToLong(m -> m.getOrDefault(Event.UNKNOWN, 0L)).sum(),
        history.stream()
            .filter(e -> e.type() == Event.Type.INVOKE && !Event.ACQUIRE.equals(e.f()))
            .filter(e -> !Event.RELEASE.equals(e.f()))
            .count(),
        generated / 1_000_000,
        took / 1_000_000,
        c.linearizabilityMillis(),
        result.summary());
    assertThat(result.passed()).as(result.summary()).isTrue();
    assertThat(c.takeovers()).isPositive();
    assertThat(c.staleRejections()).isPositive();
    assertThat(c.unknownsLanded()).isPositive();
    assertThat(c.unknownsNotLanded()).isPositive();
    assertThat(c.faults()).containsKeys("kill", "pause");
  }

  @Test
  void theSearchGivesUpWhenTheBudgetRunsOutAndNeverPasses() {
    List<Event> history = SimulatedRun.generate(7, 8, 4, 20_000);

    CheckResult result = Checker.withBudget(Duration.ofMillis(1)).check(history);

    Check check = result.check("linearizable");
    assertThat(check.status()).as(result.summary()).isEqualTo(Status.UNKNOWN);
    assertThat(check.detail()).startsWith("gave up after").contains(" of ");
    assertThat(result.gaveUp()).isTrue();
    assertThat(result.passed()).isFalse();
  }

  @Test
  void aHistoryWrittenAsJsonLinesChecksTheSame(@TempDir Path dir) throws IOException {
    List<Event> history = SimulatedRun.generate(11, 6, 3, 6_000);
    Path file = dir.resolve("history.jsonl");
    Files.writeString(
        file,
        history.stream().map(History::toLine).collect(Collectors.joining("\n", "", "\n")),
        StandardCharsets.UTF_8);

    CheckResult direct = Checker.defaults().check(history);
    CheckResult read = Checker.defaults().check(History.read(file));

    assertThat(direct.passed()).as(direct.summary()).isTrue();
    assertThat(comparable(read)).isEqualTo(comparable(direct));
  }

  @Test
  void aViolatingHistoryWrittenAsJsonLinesChecksTheSame(@TempDir Path dir) throws IOException {
    List<Event> history =
        new HistoryBuilder()
            .acquire("w0", "r0", 1, 0, 10)
            .register("w0", "r0", 1, 10, 20, Event.REGISTERED)
            .write("w0", "r0", 1, "a", 20, 30, Event.APPLIED)
            .write("w0", "r0", 1, "b", 40, 50, Event.APPLIED)
            .writeUnknown("w0", "r0", 1, "c", 60, null)
            .read("w1", "r0", 70, 80, "a")
            .fin("r0", 1, "b")
            .events();
    Path file = dir.resolve("history.jsonl");
    Files.write(file, history.stream().map(History::toLine).toList(), StandardCharsets.UTF_8);

    CheckResult direct = Checker.defaults().check(history);
    CheckResult read = Checker.defaults().check(History.read(file));

    assertThat(direct.check("linearizable").status()).isEqualTo(Status.FAIL);
    assertThat(read.checks()).isEqualTo(direct.checks());
    assertThat(read.firstViolation()).isEqualTo(direct.firstViolation());
  }

  /** The result without the search's timing. */
  private static String comparable(CheckResult r) {
    return r.checks().stream()
            .map(
                c -> c.name() + " " + c.status() + " " + c.detail().replaceAll("\\(\\d+ ms\\)", ""))
            .collect(Collectors.joining("\n"))
        + "\n"
        + r.counts().operations()
        + r.counts().faults()
        + r.counts().takeovers()
        + " "
        + r.counts().staleRejections()
        + " "
        + r.counts().unknownsLanded()
        + " "
        + r.counts().unknownsNotLanded()
        + " "
        + r.counts().unknownsUnresolved();
  }
}
