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
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An end-to-end run: 4 worker JVMs on a SQLite issuer and pointer store and a directory of files
 * (staged destination) for 15 s under pauses and kills, 3 resources (contended enough that a paused
 * owner is taken over before it resumes). Pauses freeze their victim right before a write, about
 * half of the kills land during a write.
 */
class ChaosRunSqliteTest {

  @TempDir Path dir;

  @AfterEach
  void noWorkerSurvives() {
    assertThat(ProcessHandle.current().descendants().filter(ProcessHandle::isAlive).toList())
        .as("processes left behind by the run")
        .isEmpty();
  }

  /** A fenceline.yaml with a SQLite store (issuer, pointers) and a staged directory. */
  static Path sqliteConfig(Path dir) throws Exception {
    Path yaml = dir.resolve("fenceline.yaml");
    Files.writeString(
        yaml,
        """
        stores:
          main:
            type: jdbc
            url: jdbc:sqlite:%s
          files:
            type: vfs
            uri: %s
        issuer: main
        destinations:
          reports:
            store: files
        """
            .formatted(dir.resolve("fenceline.db"), dir.resolve("files")),
        StandardCharsets.UTF_8);
    return yaml;
  }

  @Test
  void pausesAndKillsOnSqliteGiveAWellFormedHistoryWithTakeoversAndStaleRejections()
      throws Exception {
    ChaosRun run =
        ChaosRun.builder()
            .config(sqliteConfig(dir), "reports")
            .duration(Duration.ofSeconds(15))
            .workers(4)
            .resources(3)
            .faults(Set.of("pause", "kill"))
            // Seed 54 plans 4 pauses and 4 kills in a write (two of them 0 ms after in-write).
            .seed(54)
            .faultEvery(Duration.ofMillis(600))
            .out(dir.resolve("out"))
            .build();
    ChaosResult result = run.run();

    List<Event> history = History.read(result.history());
    assertThat(result.history()).isEqualTo(dir.resolve("out/history.jsonl"));
    Event meta = history.get(0);
    assertThat(meta.type()).isEqualTo(Event.Type.META);
    assertThat(meta.meta())
        .containsEntry("seed", "54")
        .containsEntry("workers", "4")
        .containsEntry("destination", "reports")
        .containsEntry("guarantee", "FENCED_BY_STAGING")
        .containsKey("clock-check");

    // FINAL last, one per resource; nothing else after the first FINAL, no META but the first.
    List<Event> finals = history.stream().filter(e -> e.type() == Event.Type.FINAL).toList();
    assertThat(finals).extracting(Event::resource).containsExactly("r0", "r1", "r2");
    assertThat(history.subList(history.size() - 3, history.size())).isEqualTo(finals);
    List<Event> body = history.subList(1, history.size() - 3);
    assertThat(body).noneMatch(e -> e.type() == Event.Type.META || e.type() == Event.Type.FINAL);
    for (int i = 1; i < body.size(); i++) {
      assertThat(body.get(i).t())
          .as("line %d in time order", i)
          .isGreaterThanOrEqualTo(body.get(i - 1).t());
    }

    // Every completion pairs with an earlier invoke of the same process, index and f; an invoke
    // without completion is the last one of a killed worker.
    Map<String, Event> invokes = new HashMap<>();
    Map<String, Event> completions = new HashMap<>();
    Map<String, Long> lastIndex = new HashMap<>();
    for (Event e : body) {
      if (e.type() == Event.Type.INVOKE) {
        assertThat(invokes.put(e.process() + "/" + e.index(), e))
            .as("duplicate invoke %s", e)
            .isNull();
        lastIndex.merge(e.process(), e.index(), Math::max);
      } else if (e.isCompletion()) {
        Event invoke = invokes.get(e.process() + "/" + e.index());
        assertThat(invoke).as("invoke of %s", e).isNotNull();
        assertThat(e.f()).isEqualTo(invoke.f());
        assertThat(e.resource()).isEqualTo(invoke.resource());
        assertThat(completions.put(e.process() + "/" + e.index(), e))
            .as("second completion %s", e)
            .isNull();
        if (!Event.RELEASE.equals(e.f()) || e.type() != Event.Type.OK) {
          assertThat(e.outcome()).as("outcome of %s", e).isNotNull();
        }
      }
    }
    Set<String> killed = new HashSet<>();
    for (Event e : body) {
      if (e.type() == Event.Type.FAULT && e.fault().equals("kill")) {
        killed.add(e.target());
      }
    }
    for (Map.Entry<String, Event> invoke : invokes.entrySet()) {
      if (!completions.containsKey(invoke.getKey())) {
        Event e = invoke.getValue();
        assertThat(killed).as("%s has no completion", e).contains(e.process());
        assertThat(e.index()).isEqualTo(lastIndex.get(e.process()));
      }
    }
    assertThat(result.operations()).isEqualTo(invokes.size()).isGreaterThan(100);

    // Pauses and kills happened, each ended (resume, restart), as the seed planned them.
    Map<String, Long> faultCounts = new TreeMap<>();
    List<String> injected = new ArrayList<>();
    for (Event e : body) {
      if (e.type() == Event.Type.FAULT) {
        assertThat(e.error()).as("fault %s", e).isNull();
        faultCounts.merge(e.fault(), 1L, Long::sum);
        if (e.fault().equals("pause") || e.fault().equals("kill")) {
          injected.add(e.fault() + " " + e.target().replaceAll("\\.\\d+$", ""));
        }
      }
    }
    assertThat(faultCounts.get("pause")).isPositive().isEqualTo(faultCounts.get("resume"));
    assertThat(faultCounts.get("kill")).isPositive().isEqualTo(faultCounts.get("restart"));
    assertThat(result.faultsByKind())
        .isEqualTo(Map.of("pause", faultCounts.get("pause"), "kill", faultCounts.get("kill")));
    List<String> planned = run.schedule().stream().map(f -> f.kind() + " w" + f.slot()).toList();
    assertThat(planned.size() - injected.size())
        .isEqualTo(Integer.parseInt(meta.meta().get("skipped-faults")));
    // A pause waits (bounded) for its victim to reach a write, so faults on different workers may
    // land out of plan order; on one worker they keep it.
    for (int slot = 0; slot < 4; slot++) {
      String w = " w" + slot;
      List<String> mine = injected.stream().filter(f -> f.endsWith(w)).toList();
      List<String> plannedMine = planned.stream().filter(f -> f.endsWith(w)).toList();
      assertThat(isSubsequence(mine, plannedMine)).as("%s within %s", mine, plannedMine).isTrue();
    }
    assertThat(body)
        .anyMatch(
            e ->
                e.type() == Event.Type.FAULT
                    && e.fault().equals("restart")
                    && e.target().contains("."));

    // Takeovers: a resource acquired by a new epoch while the previous holder had not released.
    Map<String, Map<Long, String>> holders = new TreeMap<>();
    Set<String> released = new HashSet<>();
    for (Event e : body) {
      if (e.type() == Event.Type.OK
          && Event.ACQUIRE.equals(e.f())
          && Event.ACQUIRED.equals(e.outcome())) {
        assertThat(
                holders
                    .computeIfAbsent(e.resource(), r -> new TreeMap<>())
                    .put(e.epoch(), e.process()))
            .as("epoch %d of %s handed out twice", e.epoch(), e.resource())
            .isNull();
      }
      if (e.type() == Event.Type.OK && Event.RELEASE.equals(e.f())) {
        released.add(e.resource() + "@" + e.epoch());
      }
    }
    int takeovers = 0;
    for (Map.Entry<String, Map<Long, String>> resource : holders.entrySet()) {
      for (Map.Entry<Long, String> epoch : resource.getValue().entrySet()) {
        long previous = epoch.getKey() - 1;
        String previousHolder = resource.getValue().get(previous);
        if (previousHolder != null
            && !previousHolder.equals(epoch.getValue())
            && !released.contains(resource.getKey() + "@" + previous)) {
          takeovers++;
        }
      }
    }
    assertThat(takeovers).as("takeovers").isPositive();

    // Stale rejections, among them of owners that wrote with a token acquired before a pause.
    Map<String, List<long[]>> pauses = new HashMap<>();
    Map<String, Long> pausedAt = new HashMap<>();
    Map<String, Long> acquiredAt = new HashMap<>();
    for (Event e : body) {
      if (e.type() == Event.Type.FAULT && e.fault().equals("pause")) {
        pausedAt.put(e.target(), e.t());
      }
      if (e.type() == Event.Type.FAULT && e.fault().equals("resume")) {
        pauses
            .computeIfAbsent(e.target(), p -> new ArrayList<>())
            .add(new long[] {pausedAt.get(e.target()), e.t()});
      }
      if (e.type() == Event.Type.OK && Event.ACQUIRED.equals(e.outcome())) {
        acquiredAt.put(e.resource() + "@" + e.epoch(), e.t());
      }
    }
    int stale = 0;
    int staleAfterPause = 0;
    for (Event e : body) {
      if (e.type() == Event.Type.OK && Event.REJECTED_STALE.equals(e.outcome())) {
        stale++;
        assertThat(e.current()).isGreaterThan(e.epoch());
        long acquired = acquiredAt.get(e.resource() + "@" + e.epoch());
        for (long[] pause : pauses.getOrDefault(e.process(), List.of())) {
          if (acquired < pause[0] && pause[1] < e.t()) {
            staleAfterPause++;
            break;
          }
        }
      }
    }
    assertThat(stale).as("stale rejections").isPositive();
    assertThat(staleAfterPause)
        .as("stale rejections of owners paused after they acquired (%d pauses)", pausedAt.size())
        .isPositive();

    // Pauses struck right before a write: the write after the resume carries the old epoch, and
    // once a newer owner registered (before that write) it is RejectedStale, never Applied or
    // AlreadyApplied.
    int pausedBeforeWrite = 0;
    int pausedWritersStale = 0;
    for (Event pause : body) {
      if (pause.type() != Event.Type.FAULT
          || !pause.fault().equals("pause")
          || !ChaosRun.BEFORE_WRITE.equals(pause.value())) {
        continue;
      }
      pausedBeforeWrite++;
      Event write = invokes.get(pause.target() + "/" + pause.index());
      assertThat(write).as("the write %s was paused before", pause).isNotNull();
      assertThat(write.f()).isEqualTo(Event.WRITE);
      assertThat(write.t()).isGreaterThan(pause.t());
      Long resumed =
          body.stream()
              .filter(
                  e ->
                      e.type() == Event.Type.FAULT
                          && e.fault().equals("resume")
                          && e.target().equals(pause.target())
                          && e.t() > pause.t())
              .map(Event::t)
              .findFirst()
              .orElseThrow();
      assertThat(write.t()).as("%s invoked after the resume", write).isGreaterThan(resumed);
      boolean overtaken =
          body.stream()
              .anyMatch(
                  e ->
                      e.type() == Event.Type.OK
                          && write.resource().equals(e.resource())
                          && e.epoch() != null
                          && e.epoch() > write.epoch()
                          && e.t() < write.t()
                          && (Event.REGISTERED.equals(e.outcome())
                              || Event.APPLIED.equals(e.outcome())
                              || Event.ALREADY_APPLIED.equals(e.outcome())));
      if (overtaken) {
        Event done = completions.get(write.process() + "/" + write.index());
        assertThat(done).as("completion of the paused write %s", write).isNotNull();
        assertThat(done.outcome())
            .as("the paused owner's write %s after a newer owner registered", write)
            .isEqualTo(Event.REJECTED_STALE);
        assertThat(done.current()).isGreaterThan(write.epoch());
        pausedWritersStale++;
      }
    }

    // Kills in a write: the killed write has no completion (or an INFO one) when the kill came
    // first, and the final lookup says whether it landed.
    Map<String, Event> finalOf = new HashMap<>();
    finals.forEach(f -> finalOf.put(f.resource(), f));
    int killsInWrite = 0;
    int unknownInWrite = 0;
    int landed = 0;
    for (Event kill : body) {
      if (kill.type() != Event.Type.FAULT
          || !kill.fault().equals("kill")
          || !ChaosRun.IN_WRITE.equals(kill.value())) {
        continue;
      }
      killsInWrite++;
      Event write = invokes.get(kill.target() + "/" + kill.index());
      assertThat(write).as("the write %s was killed in", kill).isNotNull();
      assertThat(write.f()).isEqualTo(Event.WRITE);
      assertThat(write.t()).isLessThan(kill.t());
      Event done = completions.get(write.process() + "/" + write.index());
      if (done == null || done.type() == Event.Type.INFO) {
        unknownInWrite++;
        Map<String, Event.ReceiptView> lookups = finalOf.get(write.resource()).lookups();
        assertThat(lookups).as("final lookup of %s", write).containsKey(write.operation());
        if (lookups.get(write.operation()) != null) {
          landed++;
        }
      }
    }
    System.out.printf(
        "timing: %d stale rejections, %d of paused writers (%d pauses before a write); %d kills"
            + " in a write, %d unknown writes (landed %d, not landed %d); %s%n",
        stale,
        pausedWritersStale,
        pausedBeforeWrite,
        killsInWrite,
        unknownInWrite,
        landed,
        unknownInWrite - landed,
        meta.meta().get("fault-timing"));
    assertThat(pausedWritersStale)
        .as("paused writers rejected as stale (%d pauses before a write)", pausedBeforeWrite)
        .isPositive();
    assertThat(unknownInWrite)
        .as(
            "writes cut by a kill, unknown until the final lookup (%d kills in a write)",
            killsInWrite)
        .isPositive();

    // The final state: every written operation was looked up; the value is one of them.
    for (Event last : finals) {
      Set<String> written = new HashSet<>();
      for (Event e : body) {
        if (e.type() == Event.Type.INVOKE
            && Event.WRITE.equals(e.f())
            && last.resource().equals(e.resource())) {
          written.add(e.operation());
        }
      }
      assertThat(last.error()).isNull();
      assertThat(last.lookups().keySet()).isEqualTo(written);
      if (last.value() != null) {
        assertThat(written).contains(last.value());
      }
      assertThat(last.epoch())
          .isLessThanOrEqualTo(
              holders.get(last.resource()).keySet().stream().max(Long::compare).orElseThrow());
    }
    // Each worker's own file and log are kept.
    assertThat(dir.resolve("out/workers/w0.jsonl")).exists();
    assertThat(dir.resolve("out/workers/w0.log")).exists();
  }

  private static boolean isSubsequence(List<String> part, List<String> whole) {
    int j = 0;
    for (String item : part) {
      while (j < whole.size() && !whole.get(j).equals(item)) {
        j++;
      }
      if (j == whole.size()) {
        return false;
      }
      j++;
    }
    return true;
  }
}
