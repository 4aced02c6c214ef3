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

import dev.fenceline.benchmarks.Options.StoreKind;
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
import java.util.Optional;

/**
 * The benchmark harness: {@code benchmarks/run [--quick] [--out FILE] ...} (see {@link
 * Options#USAGE}). A plain Java program, not JMH: its rows are interleaved round by round inside
 * one process, on one server and one client or connection pool per store, which JMH's
 * one-benchmark-per-fork model does not offer. Each store in turn is started, its rows run at every
 * thread count, then its extra tables (local staged publish on SQLite, the S3 large publish) and
 * its growth run, and it is stopped before the next one starts.
 */
public final class BenchmarkMain {

  private final Options options;
  private final Path work;
  private final String nonce = Long.toString(System.currentTimeMillis(), 36);
  private final String holder = "bench-" + ProcessHandle.current().pid();
  private final int poolSize;
  private final List<AutoCloseable> open;

  private final List<Report.Group> groups = new ArrayList<>();
  private final Map<StoreKind, Map<String, String>> settings = new LinkedHashMap<>();
  private final List<SizeResult> staged = new ArrayList<>();
  private final List<S3LargePublishBenchmark.SizeResult> s3Large = new ArrayList<>();
  private final List<GrowthRun.Result> growth = new ArrayList<>();
  private final List<String> failures = new ArrayList<>();
  private boolean stagedDone;

  private BenchmarkMain(Options options, Path work, List<AutoCloseable> open) {
    this.options = options;
    this.work = work;
    this.open = open;
    this.poolSize = Collections.max(options.threads()) + 2;
    this.stagedDone = options.stagedSizes().isEmpty() || options.growthOnly();
  }

  /**
   * Runs the benchmarks; exit code 0 if they ran (targets missed or not), 1 if a store failed (the
   * report says which), 2 on bad options.
   */
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
    BenchmarkMain run = new BenchmarkMain(options, work, open);
    for (StoreKind kind : options.stores()) {
      // A store that fails is reported and closed; the others still run.
      run.guarded(
          kind.shown(),
          () -> {
            switch (kind) {
              case POSTGRESQL, SQLITE -> run.database(kind);
              case ZOOKEEPER -> run.zooKeeper();
              case S3PROXY, S3MOCK -> run.s3(kind);
            }
          });
      closeAll(open);
    }
    run.guarded("the staged-publish table", run::stagedWithoutSqliteRows);
    closeAll(open);

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
                + " rotated each round); staged and S3 large publish: %d rounds; growth: %s per"
                + " size%s",
            shown(options.warmup()),
            options.rounds(),
            shown(options.slice()),
            options.stagedRounds(),
            shown(options.growthSlice()),
            options.growth() ? "" : " (growth run off)"));
    header.put("wall time", shown(wall));
    String report =
        Report.markdown(
            new Report.Results(
                header,
                run.settings,
                run.groups,
                run.staged,
                run.s3Large,
                run.growth,
                run.notes()));
    System.out.println();
    System.out.print(report);
    Path out = options.out().toAbsolutePath();
    Files.createDirectories(out.getParent());
    Files.writeString(out, report, StandardCharsets.UTF_8);
    progress("report written to " + out + " (wall time " + shown(wall) + ")");
    // The ZooKeeper servers' threads are not daemons: end the JVM explicitly.
    System.exit(run.failures.isEmpty() ? 0 : 1);
  }

  /** A part of the run that may fail without stopping the others. */
  private interface Part {
    void run() throws Exception;
  }

  private void guarded(String what, Part part) {
    try {
      part.run();
    } catch (Exception | Error e) {
      progress("FAILED: " + what + ": " + e);
      e.printStackTrace();
      failures.add(what + " failed: " + e.toString().replace('\n', ' '));
    }
  }

  /** PostgreSQL or SQLite: the JDBC rows, the local staged table (SQLite), the growth run. */
  private void database(StoreKind kind) throws Exception {
    progress("starting " + kind.shown());
    Database database =
        kind == StoreKind.POSTGRESQL
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
      runRows(kind, prefix -> JdbcRows.of(database, fenceline, holder, prefix), null);
    }
    if (kind == StoreKind.SQLITE && !stagedDone) {
      staged.addAll(runStaged(database));
      stagedDone = true;
    }
    if (options.growth()) {
      growth.addAll(
          growth(
              new GrowthRun.Subject(
                  kind,
                  database.store().leaseIssuer(),
                  database.store().pointerStore("bench-growth"),
                  JdbcRows.RAW_UPSERT,
                  thread -> JdbcRows.rawUpsert(database.pool(), nonce + "-growth-upsert"),
                  Optional.of(new JdbcBulkPopulation(kind, database.pool())),
                  Math.max(1, poolSize - 2))));
    }
    progress("stopping " + kind.shown());
    open.remove(database);
    database.close();
  }

  /** The ZooKeeper rows on a three-server ensemble, then its growth run. */
  private void zooKeeper() throws Exception {
    progress("starting a 3-server ZooKeeper ensemble");
    ZooKeeperServers zk = ZooKeeperServers.start(work.resolve("zookeeper"));
    open.add(zk);
    settings.put(StoreKind.ZOOKEEPER, zk.settings());
    runRows(StoreKind.ZOOKEEPER, prefix -> ZkRows.of(zk, holder, prefix), zk::requests);
    if (options.growth()) {
      growth.addAll(
          growth(
              new GrowthRun.Subject(
                  StoreKind.ZOOKEEPER,
                  zk.store().leaseIssuer(),
                  zk.store().pointerStore("bench-growth"),
                  ZkRows.RAW_SET_DATA,
                  thread -> ZkRows.rawSetData(zk.client(), "/bench-raw/" + nonce + "-growth"),
                  Optional.empty(),
                  16)));
    }
    progress("stopping the ZooKeeper ensemble");
    open.remove(zk);
    zk.close();
  }

  /**
   * Runs a store's rows ({@code rowsOf} a key prefix) at every thread count, one group each, and
   * counts the requests they send if {@code requests} is not null.
   */
  private void runRows(
      StoreKind kind,
      java.util.function.Function<String, List<Row>> rowsOf,
      java.util.function.LongSupplier requests)
      throws Exception {
    for (int threads : rowThreads()) {
      try (Harness harness = new Harness(threads)) {
        List<Harness.RowResult> rows =
            harness.run(
                rowsOf.apply(nonce + "-g" + threads),
                options.warmup(),
                options.rounds(),
                options.slice(),
                requests,
                step -> progress(label(kind, threads) + ": " + step));
        groups.add(new Report.Group(kind, threads, rows));
      }
    }
  }

  /** The growth run of {@code subject} with the options' sizes, slice and budget. */
  private List<GrowthRun.Result> growth(GrowthRun.Subject subject) throws Exception {
    return GrowthRun.run(
        subject,
        options.growthResources(),
        options.growthVersions(),
        options.growthSlice(),
        options.growthBudget(),
        nonce,
        BenchmarkMain::progress);
  }

  /** The S3 rows on one server, the large-publish table, then the growth run. */
  private void s3(StoreKind kind) throws Exception {
    progress("starting " + kind.shown());
    S3Endpoint s3 = S3Endpoint.start(kind, work.resolve(kind.option()));
    open.add(s3);
    try {
      runRows(kind, prefix -> S3Rows.of(s3, holder, prefix), s3::requests);
      if (!options.s3Sizes().isEmpty() && !options.growthOnly()) {
        s3Large.addAll(
            S3LargePublishBenchmark.run(
                s3,
                work.resolve(kind.option() + "-large"),
                options.s3Sizes(),
                options.stagedRounds(),
                nonce,
                BenchmarkMain::progress));
      }
      if (options.growth()) {
        growth.addAll(
            growth(
                new GrowthRun.Subject(
                    kind,
                    s3.issuer(),
                    s3.pointerStore("bench-growth"),
                    S3Rows.RAW_PUT_POINTER,
                    thread -> S3Rows.rawPutCounter(s3.raw(), "raw/" + nonce + "/growth"),
                    Optional.empty(),
                    8)));
      }
      settings.put(kind, s3.settings());
    } finally {
      progress("stopping " + kind.shown());
      open.remove(s3);
      s3.close();
    }
  }

  /** The local staged table needs the SQLite file; without SQLite rows it gets its own. */
  private void stagedWithoutSqliteRows() throws IOException {
    if (stagedDone) {
      return;
    }
    progress("starting SQLite for the staged-publish table");
    try (Database sqlite =
        Database.sqlite(Files.createDirectories(work.resolve("sqlite")).resolve("bench.db"), 2)) {
      open.add(sqlite);
      settings.put(StoreKind.SQLITE, sqlite.settings());
      staged.addAll(runStaged(sqlite));
      open.remove(sqlite);
    }
    stagedDone = true;
  }

  private List<SizeResult> runStaged(Database sqlite) throws IOException {
    return StagedPublishBenchmark.run(
        sqlite,
        work.resolve("staged"),
        options.stagedSizes(),
        options.stagedRounds(),
        options.quick(),
        nonce,
        BenchmarkMain::progress);
  }

  private List<String> notes() {
    List<String> notes = new ArrayList<>();
    for (String failure : failures) {
      notes.add("**" + failure + "** (stack trace on stderr); its tables are missing or partial.");
    }
    if (options.quick() && !options.stagedSizesGiven() && !options.growthOnly()) {
      notes.add(
          "--quick: the 1 GiB staged publish was left out (give --staged-sizes 1MiB,1GiB to"
              + " include it).");
    }
    if (!options.s3Sizes().contains(100 * Options.MIB)
        && !options.growthOnly()
        && options.stores().stream().anyMatch(StoreKind::s3)) {
      notes.add(
          "The S3 large publish ran at "
              + String.join(", ", options.s3Sizes().stream().map(Options::shownSize).toList())
              + ", not at the 100 MiB of the target (give --s3-sizes 100MiB).");
    }
    if (options.stores().stream().anyMatch(StoreKind::database)) {
      notes.add(
          "ShedLock: shedlock-provider-jdbc 6.9.2, `new JdbcLockProvider(pool)` (table `shedlock`,"
              + " the JVM's clock). That provider has no configuration object; `usingDbTime()` is"
              + " an option of the Spring `JdbcTemplateLockProvider` only. A lock and an unlock are"
              + " one auto-commit UPDATE each.");
      notes.add(
          "Every JDBC row takes its connections from the same HikariCP pool of "
              + poolSize
              + " connections per database; each worker thread uses its own key, lock name or"
              + " resource.");
      notes.add(
          "SQLite has one writer at a time: with several threads the others wait in SQLite's"
              + " busy handler, which sleeps in steps of up to 100 ms, so SQLite's multi-thread"
              + " rows measure lock waiting more than the statements.");
      notes.add(
          "The facade rows (Fenceline.tryAcquire + HeldLease.close) run the same SQL as the issuer"
              + " rows; the facade adds a renewal task and a deadline watch per lease.");
    }
    if (options.stores().contains(StoreKind.ZOOKEEPER)) {
      notes.add(
          "ZooKeeper: every row shares one Curator client (5.9.0) on the 3-server ensemble in this"
              + " JVM; the servers, the client and the worker threads share the 2 CPUs. Each worker"
              + " thread has its own node (raw setData: `client.setData().forPath(node, bytes)`),"
              + " lock path (`InterProcessSemaphoreMutex.acquire(30 s)` + `release()`) or resource"
              + " (pointer swap under a lease held all along; `ZkLeaseIssuer.tryAcquire(resource,"
              + " holder, 30 s)` + `release`). req/op counts the client's requests (each one round"
              + " trip), not session pings.");
    }
    if (options.stores().stream().anyMatch(StoreKind::s3)) {
      notes.add(
          "S3: S3Proxy 4.1.0 and S3Mock 4.8.0 check a conditional write and write in separate"
              + " steps (two racing If-Match PUTs both won 13 of 40 times on S3Proxy, 4 of 40 on"
              + " S3Mock; TEST-SERVERS.md), so the S3 pointer store's probe refuses them as they"
              + " are. As in the s3 adapter's tests and the chaos runs, the harness's HTTP client"
              + " sends the conditional PUTs and POSTs to one key one at a time (a lock per key in"
              + " the client, never contended in the measurement: each thread has its own keys),"
              + " which is what AWS S3 does; unconditional requests, the raw PutObject peers among"
              + " them, pass as they are. The fencing tokens of the S3 rows come from a"
              + " JdbcLeaseIssuer on a SQLite file, outside every measurement. The raw PutObject"
              + " rows overwrite one key per thread; a publish writes new keys (staged blob,"
              + " receipts, versions) and replaces the control object.");
    }
    if (options.growth()) {
      notes.add(
          "Growth: resources filled through the API carry a token of the issuer's identity at"
              + " epoch 1 (the destination registers it with the first write); no lease is"
              + " acquired for them. Where a budget stopped a store's growth, the table says at"
              + " which size (--growth-budget "
              + shown(options.growthBudget())
              + " per store, half per dimension).");
    }
    return notes;
  }

  /** The thread counts of the row tables; none with --growth-only. */
  private List<Integer> rowThreads() {
    return options.growthOnly() ? List.of() : options.threads();
  }

  private static String label(StoreKind kind, int threads) {
    return kind.shown() + ", " + threads + (threads == 1 ? " thread" : " threads");
  }

  private static String plan(Options options) {
    long rowsPerThreadCount = 0;
    for (StoreKind kind : options.stores()) {
      rowsPerThreadCount += kind.database() ? 10 : 4;
    }
    double seconds =
        rowsPerThreadCount
            * (options.growthOnly() ? 0 : options.threads().size())
            * (options.warmup().toNanos() + options.rounds() * options.slice().toNanos())
            / 1e9;
    String growth =
        options.growth()
            ? "growth to "
                + Options.shownCount(Collections.max(options.growthResources()))
                + " resources and "
                + Options.shownCount(Collections.max(options.growthVersions()))
                + " versions"
            : "no growth run";
    if (options.growthOnly()) {
      return "plan: " + options.stores().stream().map(StoreKind::option).toList() + ", " + growth;
    }
    return String.format(
        Locale.ROOT,
        "plan: %s x threads %s, about %.0f s of row slices; staged publish of %s; S3 large publish"
            + " of %s; %s",
        options.stores().stream().map(StoreKind::option).toList(),
        options.threads(),
        seconds,
        options.stagedSizes().isEmpty()
            ? "nothing"
            : String.join(", ", options.stagedSizes().stream().map(Options::shownSize).toList()),
        options.s3Sizes().isEmpty()
            ? "nothing"
            : String.join(", ", options.s3Sizes().stream().map(Options::shownSize).toList()),
        growth);
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

  static void progress(String message) {
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
