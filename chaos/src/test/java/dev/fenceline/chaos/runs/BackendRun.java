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
package dev.fenceline.chaos.runs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fenceline.chaos.ChaosResult;
import dev.fenceline.chaos.ChaosRun;
import dev.fenceline.chaos.StoreFaults;
import dev.fenceline.chaos.backends.ChaosBackend;
import dev.fenceline.chaos.check.CheckResult;
import dev.fenceline.chaos.check.Checker;
import dev.fenceline.chaos.faults.ConfigStoreFaults;
import dev.fenceline.chaos.history.Event;
import dev.fenceline.chaos.history.History;
import dev.fenceline.chaos.report.Report;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * One chaos run against a real backend, as every test in this package does it: 4 worker JVMs, 3
 * resources, pauses, kills and store faults (the backend's own combined with the proxy and lock
 * faults of {@link ConfigStoreFaults} on its YAML) for {@link #DURATION} with a fixed seed; then
 * the {@link Checker} and the {@link Report} on the history.
 *
 * <p>Everything lands under {@code target/chaos-runs/<backend>} ({@code store/} the backend's data,
 * {@code out/} the history, the workers' files and logs, {@code report.md}, {@code epochs.svg}), so
 * a failing run can be read afterwards; the directory is emptied when the next run starts.
 */
final class BackendRun {

  /** How long the workers run under faults. */
  static final Duration DURATION = Duration.ofSeconds(20);

  static final int WORKERS = 4;
  static final int RESOURCES = 3;

  private BackendRun() {}

  /** {@return {@code target/chaos-runs/<backend>}, emptied} */
  static Path freshDir(String backend) {
    Path dir = Path.of("target", "chaos-runs", backend).toAbsolutePath();
    try {
      if (Files.exists(dir)) {
        try (Stream<Path> all = Files.walk(dir)) {
          for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
            Files.delete(p);
          }
        }
      }
      return Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot empty " + dir, e);
    }
  }

  /** What a run gave: the checker's verdict, the history, and the store fault kinds it planned. */
  record Outcome(CheckResult check, List<Event> history, List<String> storeKinds, Path out) {}

  /**
   * Starts the backend in {@code dir/store}, runs and checks, and closes the backend (also when the
   * run fails).
   */
  static Outcome run(
      String name, Function<Path, ChaosBackend> start, long seed, Duration faultEvery)
      throws Exception {
    return run(name, start, seed, faultEvery, 1);
  }

  /** As {@link #run(String, Function, long, Duration)} with {@code threads} loops per worker. */
  static Outcome run(
      String name, Function<Path, ChaosBackend> start, long seed, Duration faultEvery, int threads)
      throws Exception {
    Path dir = freshDir(name);
    long started = System.nanoTime();
    try (ChaosBackend backend = start.apply(dir.resolve("store"))) {
      long ready = System.nanoTime();
      Outcome outcome = run(backend, dir, seed, faultEvery, threads);
      System.out.printf(
          "chaos run %s: backend started in %d ms, run and check %d ms%n%s",
          name,
          (ready - started) / 1_000_000,
          (System.nanoTime() - ready) / 1_000_000,
          outcome.check().summary());
      return outcome;
    }
  }

  /** Runs and checks against a running backend; writes under {@code dir/out}. */
  static Outcome run(ChaosBackend backend, Path dir, long seed, Duration faultEvery, int threads)
      throws Exception {
    Path out = dir.resolve("out");
    Path yaml = backend.writeConfig(dir);
    List<String> kinds;
    ChaosResult result;
    try (ConfigStoreFaults proxied = ConfigStoreFaults.of(yaml, out);
        StoreFaults faults =
            new CombinedStoreFaults(List.of(backend.storeFaults()), List.of(proxied))) {
      kinds = faults.kinds();
      ChaosRun run =
          ChaosRun.builder()
              .config(proxied.config(), backend.destination())
              .duration(DURATION)
              .workers(WORKERS)
              .threads(threads)
              .resources(RESOURCES)
              .faults(Set.of("pause", "kill", "store"))
              .seed(seed)
              .faultEvery(faultEvery)
              .storeFaults(faults)
              .jvmOptions(backend.jvmOptions())
              .out(out)
              .build();
      // The driver opens the YAML too (its META line and the final lookups): it needs the
      // backend's system properties as the workers do (e.g. the S3 test credentials).
      Map<String, String> restore = setSystemProperties(backend.jvmOptions());
      try {
        result = run.run();
      } finally {
        restore.forEach(
            (key, value) -> {
              if (value == null) {
                System.clearProperty(key);
              } else {
                System.setProperty(key, value);
              }
            });
      }
    }
    List<Event> history = History.read(result.history());
    CheckResult check = Checker.defaults().check(history);
    Path report = Report.write(history, check, out);
    assertThat(report).isEqualTo(out.resolve("report.md"));
    return new Outcome(check, history, kinds, out);
  }

  /** Sets every {@code -Dkey=value} of {@code options}; returns the previous values to restore. */
  private static Map<String, String> setSystemProperties(List<String> options) {
    Map<String, String> previous = new HashMap<>();
    for (String option : options) {
      if (option.startsWith("-D")) {
        String[] pair = option.substring(2).split("=", 2);
        previous.put(pair[0], System.getProperty(pair[0]));
        System.setProperty(pair[0], pair.length > 1 ? pair[1] : "");
      }
    }
    return previous;
  }

  /**
   * Asserts what every backend run must show: all checks pass, every planned fault kind (pause,
   * kill and each store kind) was injected at least once without error, the report was written.
   */
  static void assertPassed(Outcome outcome) throws IOException {
    CheckResult check = outcome.check();
    assertThat(check.checks()).hasSize(Checker.CHECKS.size());
    assertThat(check.passed())
        .as(
            "%s%nfirst violation: %s%n(history in %s)",
            check.summary(),
            check.firstViolation().map(Object::toString).orElse("none"),
            outcome.out())
        .isTrue();

    TreeMap<String, Long> injected = new TreeMap<>();
    List<String> failed = new ArrayList<>();
    for (Event e : outcome.history()) {
      if (e.type() == Event.Type.FAULT) {
        if (e.error() == null) {
          injected.merge(e.fault(), 1L, Long::sum);
        } else {
          failed.add(e.fault() + " " + e.target() + ": " + e.error());
        }
      }
    }
    Set<String> planned = new TreeSet<>(outcome.storeKinds());
    planned.add("pause");
    planned.add("kill");
    assertThat(injected.keySet())
        .as("fault kinds injected (%s; failed: %s)", injected, failed)
        .containsAll(planned);
    long writes =
        outcome.history().stream()
            .filter(e -> e.type() == Event.Type.INVOKE && Event.WRITE.equals(e.f()))
            .count();
    assertThat(writes).as("writes invoked (history in %s)", outcome.out()).isGreaterThan(10);

    // The faults bit: some call failed or has an unknown outcome (a killed worker's call in
    // flight, a store that was down, cut or silent), and owners were taken over.
    long failedOrUnknown =
        check.counts().operations().values().stream()
            .mapToLong(
                byOutcome ->
                    byOutcome.getOrDefault(Event.ERROR, 0L)
                        + byOutcome.getOrDefault(Event.UNKNOWN, 0L))
            .sum();
    assertThat(failedOrUnknown)
        .as("failed or unknown calls (history in %s)", outcome.out())
        .isPositive();
    assertThat(check.counts().takeovers()).as("takeovers").isPositive();

    Path report = outcome.out().resolve("report.md");
    Path svg = outcome.out().resolve("epochs.svg");
    assertThat(Files.readString(report)).contains("linearizable", "epochs.svg");
    assertThat(Files.readString(svg)).startsWith("<svg").contains("</svg>");
  }
}
