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
package dev.fenceline.chaos.junit;

import dev.fenceline.chaos.ChaosResult;
import dev.fenceline.chaos.ChaosRun;
import dev.fenceline.chaos.ChaosTargetFactory;
import dev.fenceline.chaos.StoreFaults;
import dev.fenceline.chaos.check.CheckResult;
import dev.fenceline.chaos.check.Checker;
import dev.fenceline.chaos.history.Event;
import dev.fenceline.chaos.history.History;
import dev.fenceline.chaos.report.Report;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;

/**
 * The chaos test of a destination, for adapter authors: extend it, say how to open the target, and
 * its one test runs worker processes under pauses and kills (and store faults, if {@link
 * #storeFaults(Path)} gives them) against it, checks the history ({@link Checker}: fencing, one
 * effect per operation, linearizability) and fails with the checker's summary if any check does not
 * pass.
 *
 * <pre>{@code
 * class MyStoreChaosTest extends ChaosContract {
 *   protected Class<? extends ChaosTargetFactory> targetFactory() {
 *     return MyTargetFactory.class; // public, no-argument constructor
 *   }
 *
 *   protected Map<String, String> settings(Path dir) {
 *     return Map.of("url", "jdbc:sqlite:" + dir.resolve("my.db"));
 *   }
 * }
 * }</pre>
 *
 * <p>The target factory runs in worker processes started with this JVM's class path, so it and
 * everything it opens must be on the test class path. The run writes {@code history.jsonl}, the
 * workers' files, {@code report.md} and {@code epochs.svg} to {@link #outputDirectory()} (by
 * default {@code target/chaos/<test class>/}), emptied before each run. The seed is fixed by
 * default, so a failure replays the same fault schedule (the workers' timing still varies).
 */
public abstract class ChaosContract {

  /** For subclasses. */
  protected ChaosContract() {}

  /**
   * {@return the factory that opens the target in every worker process and in the driver} A public
   * class with a public no-argument constructor.
   */
  protected abstract Class<? extends ChaosTargetFactory> targetFactory();

  /**
   * {@return the settings the factory is opened with}
   *
   * @param dir an empty directory of this run, for the target's files (databases, logs)
   */
  protected abstract Map<String, String> settings(Path dir);

  /**
   * {@return the store faults the driver may inject, if the test owns the store} When present,
   * {@code store} is among the fault kinds and the run closes them at its end. Called after {@link
   * #settings}, with the same directory. Default none.
   *
   * @param dir the directory {@link #settings} was given
   */
  protected Optional<StoreFaults> storeFaults(Path dir) {
    return Optional.empty();
  }

  /** {@return how long the workers run} Default 15 seconds. */
  protected Duration duration() {
    return Duration.ofSeconds(15);
  }

  /** {@return how many worker processes run at once} Default 4. */
  protected int workers() {
    return 4;
  }

  /**
   * {@return how many loops each worker process runs at once, each its own process in the history}
   * Default 1; more loops in the same JVMs give more operations and takeovers per second.
   */
  protected int threads() {
    return 1;
  }

  /** {@return how many resources the workers compete for} Default 4. */
  protected int resources() {
    return 4;
  }

  /** {@return the seed of the fault schedule and the workers' choices} Default 23, fixed. */
  protected long seed() {
    return 23;
  }

  /** {@return the workers' lease length} Default 2 seconds. */
  protected Duration leaseTtl() {
    return Duration.ofSeconds(2);
  }

  /** {@return the mean gap between two faults} Default 1 second. */
  protected Duration faultEvery() {
    return Duration.ofSeconds(1);
  }

  /**
   * {@return extra options of the worker JVMs} Default none; for example {@code
   * -XX:TieredStopAtLevel=1} starts short runs' workers faster on small machines.
   */
  protected List<String> jvmOptions() {
    return List.of();
  }

  /** {@return how long the linearizability check may search before it gives up} Default 60 s. */
  protected Duration linearizabilityBudget() {
    return Duration.ofSeconds(60);
  }

  /**
   * {@return where the run writes its history and report} Default {@code target/chaos/<simple name
   * of the test class>} under the working directory (the module's directory under Maven).
   */
  protected Path outputDirectory() {
    return Path.of("target", "chaos", getClass().getSimpleName()).toAbsolutePath();
  }

  /**
   * Runs the workers under faults, then checks the history and writes the report.
   *
   * @return the checks' result; {@link CheckResult#passed()} if every check passed
   * @throws IOException if the run's files cannot be written or read
   * @throws InterruptedException if interrupted while the workers run (they are stopped)
   */
  protected final CheckResult runChaos() throws IOException, InterruptedException {
    Path out = outputDirectory();
    deleteRecursively(out);
    Path runDir = out.resolve("run");
    Path targetDir = Files.createDirectories(out.resolve("target"));
    Map<String, String> settings = settings(targetDir);
    Optional<StoreFaults> storeFaults = storeFaults(targetDir);
    try {
      Set<String> faults = new LinkedHashSet<>(List.of("pause", "kill"));
      ChaosRun.Builder run =
          ChaosRun.builder()
              .target(targetFactory(), settings)
              .duration(duration())
              .workers(workers())
              .threads(threads())
              .resources(resources())
              .seed(seed())
              .leaseTtl(leaseTtl())
              .faultEvery(faultEvery())
              .jvmOptions(jvmOptions())
              .out(runDir);
      if (storeFaults.isPresent()) {
        faults.add("store");
        run.storeFaults(storeFaults.get());
      }
      ChaosResult result = run.faults(faults).build().run();
      List<Event> history = History.read(result.history());
      CheckResult checked = Checker.withBudget(linearizabilityBudget()).check(history);
      Report.write(history, checked, result.outDir());
      return checked;
    } finally {
      storeFaults.ifPresent(StoreFaults::close);
    }
  }

  /**
   * The chaos test: fails with the checker's summary unless every check passed (a linearizability
   * check that gave up is not a pass).
   */
  @Test
  void passesEveryCheckUnderFaults() throws Exception {
    CheckResult result = runChaos();
    if (!result.passed()) {
      Assertions.fail(
          (result.gaveUp()
                  ? "A check of the chaos run could not decide (the linearizability search ran out"
                      + " of linearizabilityBudget(): raise it or shorten duration(); or the"
                      + " destination has no lookup)"
                  : "The chaos run broke a check")
              + " (report: "
              + outputDirectory().resolve("run").resolve("report.md")
              + ", replay with seed "
              + seed()
              + "):\n"
              + result.summary());
    }
  }

  private static void deleteRecursively(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      paths
          .sorted(Comparator.reverseOrder())
          .forEach(
              path -> {
                try {
                  Files.delete(path);
                } catch (IOException e) {
                  throw new UncheckedIOException(
                      "Cannot empty the chaos output directory " + dir + " (delete it by hand)", e);
                }
              });
    }
  }
}
