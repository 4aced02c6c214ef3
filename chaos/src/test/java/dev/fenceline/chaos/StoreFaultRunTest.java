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
package dev.fenceline.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fenceline.chaos.history.Event;
import dev.fenceline.chaos.history.History;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The store branch of the schedule, with a fake {@link StoreFaults} that records its calls. */
class StoreFaultRunTest {

  @TempDir Path dir;

  @AfterEach
  void noWorkerSurvives() {
    assertThat(ProcessHandle.current().descendants().filter(ProcessHandle::isAlive).toList())
        .isEmpty();
  }

  /** Records inject and heal; a fault is "active" between them. */
  static final class RecordingFaults implements StoreFaults {
    final List<String> calls = Collections.synchronizedList(new ArrayList<>());
    boolean active;

    @Override
    public List<String> kinds() {
      return List.of("proxy-cut", "proxy-delay");
    }

    @Override
    public synchronized String inject(String kind, Random random) {
      assertThat(active).as("inject while a fault is active").isFalse();
      active = true;
      String what = kind + " #" + random.nextInt(1000);
      calls.add("inject " + what);
      return what;
    }

    @Override
    public synchronized void heal() {
      active = false;
      calls.add("heal");
    }

    @Override
    public void close() {
      calls.add("close");
    }
  }

  @Test
  void storeFaultsAreInjectedAndHealedAsScheduledAndRecorded() throws Exception {
    RecordingFaults faults = new RecordingFaults();
    ChaosRun run =
        ChaosRun.builder()
            .config(ChaosRunSqliteTest.sqliteConfig(dir), "reports")
            .duration(Duration.ofSeconds(5))
            .workers(2)
            .faults(Set.of("store"))
            .faultEvery(Duration.ofMillis(400))
            .storeFaults(faults)
            .seed(11)
            .out(dir.resolve("out"))
            .build();
    ChaosResult result = run.run();

    List<Event> history = History.read(result.history());
    List<String> recorded = new ArrayList<>();
    for (Event e : history) {
      if (e.type() == Event.Type.FAULT) {
        assertThat(e.error()).isNull();
        assertThat(e.target()).isEqualTo("store");
        recorded.add(e.fault().equals("heal") ? "heal" : "inject " + e.value());
      }
    }
    // What the history says is what the store faults were asked, in order; the last is healed.
    assertThat(recorded).isNotEmpty().isEqualTo(faults.calls);
    assertThat(recorded.get(recorded.size() - 1)).isEqualTo("heal");
    assertThat(faults.active).isFalse();
    // The faults are the planned ones, details from the planned seeds; the run does not close them.
    List<String> planned =
        run.schedule().stream()
            .map(f -> "inject " + f.storeKind() + " #" + new Random(f.detailSeed()).nextInt(1000))
            .toList();
    assertThat(recorded.stream().filter(c -> c.startsWith("inject")).toList()).isEqualTo(planned);
    assertThat(result.faultsByKind().values().stream().mapToLong(Long::longValue).sum())
        .isEqualTo(planned.size());
    assertThat(faults.calls).doesNotContain("close");
  }
}
