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
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class FaultScheduleTest {

  private static List<FaultSchedule.Fault> plan(long seed, Set<String> kinds) {
    return FaultSchedule.plan(
        seed,
        Duration.ofSeconds(60),
        Duration.ofSeconds(1),
        kinds,
        8,
        Duration.ofSeconds(2),
        List.of("proxy-cut", "proxy-delay"));
  }

  @Test
  void theSameSeedGivesTheSameSchedule() {
    Set<String> all = Set.of("pause", "kill", "store");
    List<FaultSchedule.Fault> first = plan(42, all);
    assertThat(first).hasSizeGreaterThan(30);
    assertThat(plan(42, all)).isEqualTo(first);
    assertThat(plan(43, all)).isNotEqualTo(first);
    // Every kind is used, store faults with the given kinds.
    assertThat(first).extracting(FaultSchedule.Fault::kind).contains("pause", "kill", "store");
    assertThat(first)
        .filteredOn(f -> f.kind().equals("store"))
        .extracting(FaultSchedule.Fault::storeKind)
        .containsAnyOf("proxy-cut", "proxy-delay")
        .doesNotContainNull();
  }

  @Test
  void aRunsScheduleFollowsItsSeed() {
    ChaosRun.Builder builder =
        ChaosRun.builder()
            .target(ConfigTargetFactory.class, Map.of("config", "x.yaml", "destination", "d"))
            .out(Path.of("unused"))
            .workers(4)
            .duration(Duration.ofSeconds(30));
    List<FaultSchedule.Fault> schedule = builder.seed(7).build().schedule();
    assertThat(builder.seed(7).build().schedule()).isEqualTo(schedule);
    assertThat(builder.seed(8).build().schedule()).isNotEqualTo(schedule);
    // Without StoreFaults the default kinds are pause and kill.
    assertThat(schedule).extracting(FaultSchedule.Fault::kind).containsOnly("pause", "kill");
  }

  @Test
  void pausesOutlastTheLeaseAndNoWorkerIsHitTwiceAtOnce() {
    List<FaultSchedule.Fault> faults = plan(5, Set.of("pause", "kill"));
    long[] busyUntil = new long[8];
    for (FaultSchedule.Fault f : faults) {
      assertThat(f.offsetMillis()).isBetween(0L, 60_000L);
      if (f.kind().equals("pause")) {
        assertThat(f.durationMillis()).isBetween(3_000L, 6_000L);
      }
      assertThat(f.offsetMillis())
          .as("fault %s while w%d is still hit", f, f.slot())
          .isGreaterThanOrEqualTo(busyUntil[f.slot()]);
      busyUntil[f.slot()] =
          f.offsetMillis()
              + (f.kind().equals("kill")
                  ? FaultSchedule.RESTART_ALLOWANCE.toMillis()
                  : f.durationMillis());
      long hit = 0;
      for (long until : busyUntil) {
        if (until > f.offsetMillis()) {
          hit++;
        }
      }
      assertThat(hit).as("workers hit at %d ms", f.offsetMillis()).isLessThanOrEqualTo(7);
    }
  }

  @Test
  void theBuilderNamesWrongValues() {
    ChaosRun.Builder builder =
        ChaosRun.builder()
            .target(ConfigTargetFactory.class, Map.of("config", "x.yaml", "destination", "d"))
            .out(Path.of("unused"));
    assertThatThrownBy(() -> builder.faults(Set.of("pause", "store")).build())
        .hasMessageContaining("Cannot inject store faults")
        .hasMessageContaining("storeFaults(");
    assertThatThrownBy(() -> builder.faults(Set.of("crash")).build())
        .hasMessageContaining("\"crash\"")
        .hasMessageContaining("pause, kill or store");
    assertThatThrownBy(() -> builder.faults(Set.of()).workers(0).build())
        .hasMessageContaining("0 workers");
    assertThatThrownBy(() -> ChaosRun.builder().out(Path.of("x")).build())
        .hasMessageContaining("no target");
    assertThatThrownBy(
            () ->
                ChaosRun.builder()
                    .config(Path.of("f.yaml"), "d")
                    .leaseTtl(Duration.ofMillis(10))
                    .out(Path.of("x"))
                    .build())
        .hasMessageContaining("PT0.01S");
  }
}
