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
package dev.fenceline.benchmarks;

import dev.fenceline.benchmarks.Options.DatabaseKind;
import dev.fenceline.benchmarks.StagedPublishBenchmark.SizeResult;
import dev.fenceline.core.Fenceline;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The benchmark harness: {@code benchmarks/run [--quick] [--out FILE] ...} (see {@link
 * Options#USAGE}). A plain Java program, not JMH: its rows are interleaved round by round inside
 * one process, on one database server and one connection pool, which JMH's one-benchmark-per-fork
 * model does not offer.
 */
public final class BenchmarkMain {

  private BenchmarkMain() {}

  /** Runs the benchmarks; exit code 0 if they ran (targets missed or not), 2 on bad options. */
  public static void main(String[] args) throws Exception {
    Options options;
    try {
      options = Options.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      System.exit(2);
      return;
    }
    if (options.help()) {
      System.out.print(Options.USAGE);
      return;
    }
    long started = System.nanoTime();
    Instant startedAt = Instant.now().truncatedTo(ChronoUnit.SECONDS);
    boolean temporary = options.workDirectory().isEmpty();
    Path work =
        temporary
            ? Files.createTempDirectory("fenceline-bench-")
            : Files.createDirectories(options.workDirectory().get());
    String nonce = Long.toString(System.currentTimeMillis(), 36);
    String holder = "bench-" + ProcessHandle.current().pid();
    int poolSize = Collections.max(options.threads()) + 2;
    List<AutoCloseable> open = Collections.synchronizedList(new ArrayList<>());
    Thread cleanUp =
        new Thread(
            () -> {
              closeAll(open);
              if (temporary) {
                Database.deleteTree(work);
              }
            },
            "bench-clean-up");
    Runtime.getRuntime().addShutdownHook(cleanUp);

    progress("work directory " + work + (temporary ? " (deleted afterwards)" : ""));
    progress(plan(options));
    List<Report.Group> groups = new ArrayList<>();
    Map<DatabaseKind, Map<String, String>> settings = new LinkedHashMap<>();
    List<SizeResult> staged = new ArrayList<>();
    List<String> notes = new ArrayList<>();
    boolean stagedDone = options.stagedSizes().isEmpty();
    for (DatabaseKind kind : options.databases()) {
      progress("starting " + kind.shown());
      Database database =
          kind == DatabaseKind.POSTGRESQL
              ? Database.postgres(work.resolve("postgresql"), poolSize)
              : Database.sqlite(
                  Files.createDirectories(work.resolve("sqlite")).resolve("bench.db"), poolSize);
      open.add(database);
      settings.put(kind, database.settings());
      try (Fenceline fenceline =
          Fenceline.builder()
              .issuer(database.store().leaseIssuer())
              .holder(holder)
              .leaseTtl(JdbcRows.LEASE_TTL)
              .build()) {
        for (int threads : options.threads()) {
          String prefix = nonce + "-g" + threads;
          String label = kind.shown() + ", " + threads + (threads == 1 ? " thread" : " threads");
          try (Harness harness = new Harness(threads)) {
            List<Harness.RowResult> rows =
                harness.run(
                    JdbcRows.of(database, fenceline, holder, prefix),
                    options.warmup(),
                    options.rounds(),
                    options.slice(),
                    step -> progress(label + ": " + step));
            groups.add(new Report.Group(kind, threads, rows));
          }
        }
      }
      if (kind == DatabaseKind.SQLITE && !stagedDone) {
        staged.addAll(runStaged(options, database, work, nonce));
        stagedDone = true;
      }
      progress("stopping " + kind.shown());
      open.remove(database);
      database.close();
    }
    if (!stagedDone) {
      progress("starting SQLite for the staged-publish table");
      try (Database sqlite =
          Database.sqlite(Files.createDirectories(work.resolve("sqlite")).resolve("bench.db"), 2)) {
        open.add(sqlite);
        settings.put(DatabaseKind.SQLITE, sqlite.settings());
        staged.addAll(runStaged(options, sqlite, work, nonce));
        open.remove(sqlite);
      }
    }
    if (options.quick() && !options.stagedSizesGiven()) {
      notes.add(
          "--quick: the 1 GiB staged publish was left out (give --staged-sizes 1MiB,1GiB to"
              + " include it).");
    }
    notes.add(
        "ShedLock: shedlock-provider-jdbc 6.9.2, `new JdbcLockProvider(pool)` (table `shedlock`,"
            + " the JVM's clock). That provider has no configuration object; `usingDbTime()` is an"
            + " option of the Spring `JdbcTemplateLockProvider` only. A lock and an unlock are one"
            + " auto-commit UPDATE each.");
    notes.add(
        "Every row takes its connections from the same HikariCP pool of "
            + poolSize
            + " connections per database; each worker thread uses its own key, lock name or"
            + " resource.");
    notes.add(
        "SQLite has one writer at a time: with several threads the others wait in SQLite's busy"
            + " handler, which sleeps in steps of up to 100 ms, so SQLite's multi-thread rows"
            + " measure lock waiting more than the statements.");
    notes.add(
        "The facade rows (Fenceline.tryAcquire + HeldLease.close) run the same SQL as the issuer"
            + " rows; the facade adds a renewal task and a deadline watch per lease.");

    Duration wall = Duration.ofNanos(System.nanoTime() - started);
    Map<String, String> header = new LinkedHashMap<>();
    header.put("date", startedAt.toString());
    header.put("commit", System.getenv().getOrDefault("FENCELINE_BENCH_COMMIT", "unknown"));
    header.put("command", "benchmarks/run " + String.join(" ", args));
    header.put(
        "machine",
        Runtime.getRuntime().availableProcessors()
            + " CPUs, "
            + System.getProperty("os.name")
            + " "
            + System.getProperty("os.version")
            + " "
            + System.getProperty("os.arch")
            + ", Java "
            + System.getProperty("java.runtime.version")
            + ", heap max "
            + Runtime.getRuntime().maxMemory() / Options.MIB
            + " MiB");
    header.put(
        "method",
        String.format(
            Locale.ROOT,
            "warm-up %s per row (discarded), then %d rounds of %s per row, rows interleaved (order"
                + " rotated each round); staged publish: %d rounds",
            shown(options.warmup()),
            options.rounds(),
            shown(options.slice()),
            options.stagedRounds()));
    header.put("wall time", shown(wall));
    String report = Report.markdown(header, settings, groups, staged, notes);
    System.out.println();
    System.out.print(report);
    Path out = options.out().toAbsolutePath();
    Files.createDirectories(out.getParent());
    Files.writeString(out, report, StandardCharsets.UTF_8);
    progress("report written to " + out + " (wall time " + shown(wall) + ")");
  }

  private static List<SizeResult> runStaged(
      Options options, Database sqlite, Path work, String nonce) throws IOException {
    return StagedPublishBenchmark.run(
        sqlite,
        work.resolve("staged"),
        options.stagedSizes(),
        options.stagedRounds(),
        options.quick(),
        nonce,
        BenchmarkMain::progress);
  }

  private static String plan(Options options) {
    int rows = 8;
    double seconds =
        options.databases().size()
            * options.threads().size()
            * rows
            * (options.warmup().toNanos() + options.rounds() * options.slice().toNanos())
            / 1e9;
    return String.format(
        Locale.ROOT,
        "plan: %s x threads %s x %d rows, about %.0f s of JDBC slices, then staged publish of %s",
        options.databases(),
        options.threads(),
        rows,
        seconds,
        options.stagedSizes().isEmpty()
            ? "nothing"
            : String.join(", ", options.stagedSizes().stream().map(Options::shownSize).toList()));
  }

  private static String shown(Duration duration) {
    long millis = duration.toMillis();
    if (millis < 1000) {
      return millis + " ms";
    }
    if (millis < 120_000) {
      return String.format(Locale.ROOT, "%.1f s", millis / 1000.0);
    }
    return String.format(Locale.ROOT, "%d min %02d s", millis / 60_000, (millis / 1000) % 60);
  }

  private static void progress(String message) {
    System.err.println("[bench " + Instant.now().truncatedTo(ChronoUnit.SECONDS) + "] " + message);
  }

  private static void closeAll(List<AutoCloseable> open) {
    synchronized (open) {
      for (AutoCloseable closeable : open) {
        try {
          closeable.close();
        } catch (Exception e) {
          System.err.println("Cannot close " + closeable + ": " + e.getMessage());
        }
      }
      open.clear();
    }
  }
}
