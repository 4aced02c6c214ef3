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
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every planted bug under one short chaos run (10 s, 4 workers of 2 loops each on 2 resources,
 * pauses and kills, a fixed seed per bug) through {@link ChaosContract#runChaos()}: a named check
 * fails, and the test prints which and when. The same run without a bug passes ({@link
 * PlantedNoneChaosTest}).
 *
 * <p>The bugs show only where a stale writer meets a newer owner (or, for unconditional-cas, where
 * two writers' read-then-replace steps interleave). Two things make that happen in every run rather
 * than now and then: the driver's pauses freeze a worker right before a write for 1.5 to 3 lease
 * ttls, so it resumes as the article's stale writer; and every publish spends {@link #PREPARE_MS}
 * before it reaches the store (for unconditional-cas: on each replace request's way to the store),
 * so a round of up to three writes outlives its {@link #LEASE_TTL} lease (no renewal) and its last
 * writes race the next owner's register and writes, under load as well as on an idle machine.
 */
class PlantedBugsChaosTest {

  static final Duration DURATION = Duration.ofSeconds(Long.getLong("planted.seconds", 10));
  static final Duration LEASE_TTL = Duration.ofMillis(Long.getLong("planted.ttl", 1000));
  static final Duration FAULT_EVERY = Duration.ofMillis(Long.getLong("planted.faultEvery", 1000));

  /**
   * A publish's work before the store, in ms: with up to three writes a round outlives its lease,
   * so stale writes race the next owner (see the class comment).
   */
  static final long PREPARE_MS = Long.getLong("planted.prepareMs", 400);

  /**
   * Two loops per worker JVM: twice the takeovers and stale writes in the same time and processes,
   * so a bug that shows only in some of them is caught on a loaded machine too.
   */
  static final int THREADS = Integer.getInteger("planted.threads", 2);

  /** Two resources for four workers: a lapsed or paused owner's resource is soon taken over. */
  static final int RESOURCES = Integer.getInteger("planted.resources", 2);

  /** Worker JVMs that start fast on a small, shared machine (the run is short). */
  static final List<String> JVM_OPTIONS =
      List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xshare:auto", "-Xmx128m");

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
    protected int threads() {
      return THREADS;
    }

    @Override
    protected List<String> jvmOptions() {
      return JVM_OPTIONS;
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
        Long.toString(PREPARE_MS),
        PlantedBugTargetFactory.WARM_UP,
        "true");
  }

  @ParameterizedTest
  @EnumSource(value = PlantedBug.class, names = "NONE", mode = EnumSource.Mode.EXCLUDE)
  void everyPlantedBugFailsANamedCheck(PlantedBug bug) throws Exception {
    String only = System.getProperty("planted.only"); // e.g. -Dplanted.only=unconditional-cas
    assumeTrue(only == null || only.equals(bug.setting()), "planted.only=" + only);
    long started = System.nanoTime();
    long seed = Long.getLong("planted.seed", 23) + 100L * bug.ordinal();
    PlantedRun run = new PlantedRun(bug, seed);
    CheckResult result = run.run();
    List<String> failed =
        result.checks().stream()
            .filter(check -> check.status() == Check.Status.FAIL)
            .map(Check::name)
            .toList();
    if (failed.isEmpty()) {
      fail(
          "No check failed in the chaos run of planted bug "
              + bug.setting()
              + " (seed "
              + seed
              + ", report "
              + run.outputDirectory().resolve("run").resolve("report.md")
              + "):\n"
              + result.summary());
    }
    System.out.println(
        "planted bug "
            + bug.setting()
            + ": caught by "
            + failed
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
            + "; run and checks took "
            + (System.nanoTime() - started) / 1_000_000
            + " ms");
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
