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

import dev.fenceline.chaos.history.Event;
import dev.fenceline.chaos.history.History;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Checks a real run's history named by {@code -Dchaos.history=PATH} (a gunzipped history.jsonl,
 * e.g. from {@code chaos/results/}); skipped without it.
 */
class RecordedHistoryTest {

  @Test
  void aRecordedHistoryPasses() {
    String path = System.getProperty("chaos.history");
    Assumptions.assumeTrue(path != null, "no -Dchaos.history=PATH");
    long read = System.nanoTime();
    List<Event> history = History.read(Path.of(path));
    long start = System.nanoTime();
    CheckResult result = Checker.defaults().check(history);
    long took = System.nanoTime() - start;

    System.out.printf(
        "%s: %d lines read in %d ms, checked in %d ms (linearizability %d ms)%n%s",
        path,
        history.size(),
        (start - read) / 1_000_000,
        took / 1_000_000,
        result.counts().linearizabilityMillis(),
        result.summary());
    assertThat(result.passed()).as(result.summary()).isTrue();
  }
}
