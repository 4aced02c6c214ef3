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
package dev.fenceline.chaos.planted;

import static org.assertj.core.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.fenceline.chaos.ChaosTargetFactory;
import dev.fenceline.chaos.check.Check;
import dev.fenceline.chaos.check.CheckResult;
import dev.fenceline.chaos.history.Event;
import dev.fenceline.chaos.history.History;
import dev.fenceline.chaos.junit.ChaosContract;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every planted bug under short chaos runs (15 s, 4 workers, pauses and kills, fixed seeds) through
 * {@link ChaosContract#runChaos()}: a named check fails, and the test prints which, when, and after
 * how many runs. The same run without a bug passes ({@link PlantedNoneChaosTest}).
 *
 * <p>Whether a run meets a bug depends on timing as well as on the seed: the bugs show only when a
 * pause turns a lease holder into a stale writer (or, for unconditional-cas, cuts a write between
 * its read and its replace), so a bug gets up to {@link #ATTEMPTS} runs with different seeds.
 */
class PlantedBugsChaosTest {

  static final Duration DURATION = Duration.ofSeconds(Long.getLong("planted.seconds", 15));
  static final Duration LEASE_TTL = Duration.ofMillis(Long.getLong("planted.ttl", 1000));
  static final Duration FAULT_EVERY = Duration.ofMillis(Long.getLong("planted.faultEvery", 1000));

  /** A publish's work before the destination: where pauses make stale writers. */
  static final long PREPARE_MS = Long.getLong("planted.prepareMs", 100);

  /** Two resources for four workers: a paused owner's resource is soon taken over. */
  static final int RESOURCES = Integer.getInteger("planted.resources", 2);

  /** How many runs (seeds) a bug gets before the test says the checker missed it. */
  static final int ATTEMPTS = Integer.getInteger("planted.attempts", 3);

  /** The contract on one planted bug; nested, so it is not run as a test class by itself. */
  private static final class PlantedRun extends ChaosContract {
    private final PlantedBug bug;
    private final long seed;

    PlantedRun(PlantedBug bug, long seed) {
      this.bug = bug;
      this.seed = seed;
    }

    @Override
    protected Class<? extends ChaosTargetFactory> targetFactory() {
      return PlantedBugTargetFactory.class;
    }

    @Override
    protected Map<String, String> settings(Path dir) {
      return settingsOf(bug, dir);
    }

    @Override
    protected Duration duration() {
      return DURATION;
    }

    @Override
    protected Duration leaseTtl() {
      return LEASE_TTL;
    }

    @Override
    protected Duration faultEvery() {
      return FAULT_EVERY;
    }

    @Override
    protected int resources() {
      return RESOURCES;
    }

    @Override
    protected long seed() {
      return seed;
    }

    @Override
    protected Path outputDirectory() {
      return Path.of("target", "chaos", "planted-" + bug.setting()).toAbsolutePath();
    }

    CheckResult run() throws Exception {
      return runChaos();
    }

    /** The history the last run wrote. */
    List<Event> history() {
      return History.read(outputDirectory().resolve("run").resolve("history.jsonl"));
    }
  }

  /** The settings of the planted-bug target with {@code bug} in {@code dir}. */
  static Map<String, String> settingsOf(PlantedBug bug, Path dir) {
    return Map.of(
        PlantedBugTargetFactory.BUG,
        bug.setting(),
        PlantedBugTargetFactory.DIR,
        dir.toString(),
        PlantedBugTargetFactory.PREPARE_MS,
        Long.toString(PREPARE_MS));
  }

  @ParameterizedTest
  @EnumSource(value = PlantedBug.class, names = "NONE", mode = EnumSource.Mode.EXCLUDE)
  void everyPlantedBugFailsANamedCheck(PlantedBug bug) throws Exception {
    String only = System.getProperty("planted.only"); // e.g. -Dplanted.only=unconditional-cas
    assumeTrue(only == null || only.equals(bug.setting()), "planted.only=" + only);
    long started = System.nanoTime();
    List<String> missed = new ArrayList<>();
    for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
      long seed = Long.getLong("planted.seed", 23) + 100L * bug.ordinal() + 1000L * attempt;
      PlantedRun run = new PlantedRun(bug, seed);
      CheckResult result = run.run();
      List<String> failed =
          result.checks().stream()
              .filter(check -> check.status() == Check.Status.FAIL)
              .map(Check::name)
              .toList();
      if (failed.isEmpty()) {
        missed.add("seed " + seed + ":\n" + result.summary());
        continue;
      }
      System.out.println(
          "planted bug "
              + bug.setting()
              + ": caught by "
              + failed
              + " in run "
              + (attempt + 1)
              + " (seed "
              + seed
              + "); first violation "
              + result
                  .firstViolation()
                  .map(
                      violation ->
                          violation.check()
                              + " on "
                              + violation.resource()
                              + " near t+"
                              + secondsIntoRun(violation.around(), run.history())
                              + " s")
                  .orElse("(none reported)")
              + "; runs and checks took "
              + (System.nanoTime() - started) / 1_000_000
              + " ms");
      return;
    }
    fail(
        "No check failed in "
            + ATTEMPTS
            + " chaos runs of planted bug "
            + bug.setting()
            + ":\n"
            + String.join("\n", missed));
  }

  /** Seconds from the run's first operation to the middle of a violation's events. */
  private static String secondsIntoRun(List<Event> around, List<Event> history) {
    long start =
        history.stream()
            .filter(event -> event.type() == Event.Type.INVOKE)
            .mapToLong(Event::t)
            .min()
            .orElse(0);
    if (around.isEmpty() || start == 0) {
      return "?";
    }
    long middle = around.get(around.size() / 2).t();
    return String.format(Locale.ROOT, "%.1f", (middle - start) / 1e9);
  }
}
