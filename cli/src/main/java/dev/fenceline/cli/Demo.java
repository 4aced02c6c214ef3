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
package dev.fenceline.cli;

import dev.fenceline.jdbc.JdbcLeaseIssuer;
import dev.fenceline.jdbc.JdbcPointerStore;
import dev.fenceline.jdbc.JdbcStore;
import dev.fenceline.spi.FencelineException;
import dev.fenceline.spi.LeaseStatus;
import dev.fenceline.spi.PointerState;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.LockSupport;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code fenceline demo}: replays the article's timeline with two real worker processes on the
 * embedded default, a SQLite file.
 *
 * <ol>
 *   <li>Worker A acquires the lease (background renewal on), registers its epoch N, checks its
 *       lease locally, computes its report and says {@code READY}. The orchestrator freezes the
 *       whole JVM with SIGSTOP, renewal thread included, and queues {@code go} on A's standard
 *       input.
 *   <li>The orchestrator polls the issuer until the lease has expired by the database's clock, then
 *       starts worker B, which acquires epoch N+1.
 *   <li>B registers N+1 at the pointer store and publishes its report.
 *   <li>SIGCONT: A reads {@code go} and publishes its old report with epoch N without looking at
 *       its lease again. The destination rejects it as stale.
 * </ol>
 *
 * <p>Nothing is ordered by sleeping: the steps follow the workers' protocol lines, standard input,
 * and the issuer's lease status. Every wait has a deadline, and the workers are killed in the end
 * whatever happened.
 *
 * <p>With {@code --json} the narration goes to standard error and standard output gets one JSON
 * document with the run's facts ({@link DemoResult#document}); the exit status is the same.
 */
final class Demo {

  static final Duration DEFAULT_TTL = Duration.ofMillis(1500);

  /**
   * A cold worker JVM must acquire, register and check its lease within the ttl; shorter leases
   * make the demo fail on a slow machine before it shows anything.
   */
  static final long MIN_TTL = 500;

  static final long MAX_TTL = 60_000;
  static final Path DEFAULT_DIR = Path.of("fenceline-demo");
  static final String DB_FILE = "fenceline.db";

  /** A fresh JVM that loads SQLite's native library: a few seconds on a slow machine. */
  private static final Duration STARTUP = Duration.ofSeconds(60);

  /** A step of a running worker: one or two transactions. */
  private static final Duration STEP = Duration.ofSeconds(30);

  /** How long after the ttl the lease may take to expire by the database clock. */
  private static final Duration EXPIRY_SLACK = Duration.ofSeconds(30);

  private static final Duration POLL = Duration.ofMillis(20);
  private static final int MAX_FREEZE_ATTEMPTS = 5;

  private static final JsonMapper JSON =
      JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

  /**
   * The demo's settings.
   *
   * @param dir the directory for the database file and the worker logs
   * @param ttl the lease length the workers ask for
   */
  record Settings(Path dir, Duration ttl) {}

  private final Settings settings;
  private final PrintStream out;
  private final PrintStream err;
  private final Path dir;
  private final Path db;
  private final List<WorkerProcess> workers = new CopyOnWriteArrayList<>();

  private long epochA;
  private long epochB;
  private PublishReport reportA;
  private PublishReport reportB;
  private PointerState published;
  private final List<DemoResult.Step> timeline = new ArrayList<>();

  private Demo(Settings settings, PrintStream out, PrintStream err) {
    this.settings = settings;
    this.out = out;
    this.err = err;
    this.dir = settings.dir().toAbsolutePath().normalize();
    this.db = dir.resolve(DB_FILE);
  }

  /** The demo's options that take a value: {@code --dir DIR}, {@code --ttl-millis N}. */
  static final Set<String> VALUED_OPTIONS = Set.of("dir", "ttl-millis");

  /** The demo's flags: {@code --help}, {@code --json}. */
  static final Set<String> FLAGS = Set.of("help", "json");

  /**
   * Runs {@code fenceline demo [--dir DIR] [--ttl-millis N] [--json]}.
   *
   * @return the exit status
   * @throws UsageException if an argument is wrong (with {@code --json}, after printing the
   *     document that names it)
   */
  static int command(String[] args, PrintStream out, PrintStream err) {
    boolean json = Arrays.asList(args).contains("--json");
    Settings settings;
    try {
      Options options = Options.parse("demo", args, VALUED_OPTIONS, FLAGS);
      if (options.flag("help")) {
        out.print(Main.usage());
        return Main.EXIT_OK;
      }
      Path dir = options.path("dir", DEFAULT_DIR);
      if (Files.exists(dir) && !Files.isDirectory(dir)) {
        throw new UsageException(
            "Cannot use --dir "
                + Options.quote(dir.toString())
                + ": it is a file, not a directory (pass a directory, e.g. --dir"
                + " ./fenceline-demo)");
      }
      Duration ttl = options.millis("ttl-millis", DEFAULT_TTL, MIN_TTL, MAX_TTL);
      settings = new Settings(dir, ttl);
    } catch (UsageException e) {
      if (json) {
        Map<String, Object> document = new LinkedHashMap<>();
        document.put("command", "demo");
        document.put("exit-code", ExitCode.BAD_CONFIG_OR_USAGE.code());
        document.put("exit", ExitCode.BAD_CONFIG_OR_USAGE.name());
        document.put("error", e.getMessage());
        printJson(out, document);
      }
      throw e; // Main prints the one line on standard error
    }
    if (!json) {
      return run(settings, out, err).exitCode();
    }
    DemoResult result = run(settings, err, err); // people read the narration, scripts the JSON
    printJson(
        out,
        result.document(settings.dir().toAbsolutePath().normalize().resolve(DB_FILE).toString()));
    return result.exitCode();
  }

  private static void printJson(PrintStream out, Map<String, Object> document) {
    out.println(JSON.writeValueAsString(document));
    out.flush();
  }

  /**
   * Runs the demo: starts the workers, prints the timeline, checks what the destination did.
   *
   * @param settings where and with which lease length
   * @param out the timeline, the table and the verdict
   * @param err what went wrong, with the workers' logs
   * @return what the run established
   */
  static DemoResult run(Settings settings, PrintStream out, PrintStream err) {
    return new Demo(settings, out, err).run();
  }

  private DemoResult run() {
    Thread cleanup = new Thread(this::stopWorkers, "fenceline-demo-cleanup");
    Runtime.getRuntime().addShutdownHook(cleanup);
    List<String> problems = new ArrayList<>();
    try {
      prepareDirectory();
      printHeader();
      try (JdbcStore store = JdbcStore.sqlite(db)) {
        problems.addAll(replay(store.leaseIssuer(), store.pointerStore(Worker.POINTER_STORE)));
      }
    } catch (RuntimeException e) {
      problems.add(e.getMessage() == null ? e.toString() : e.getMessage());
      if (!(e instanceof DemoFailure) && !(e instanceof FencelineException)) {
        e.printStackTrace(err); // not an expected failure: keep the trace for the bug report
      }
    } finally {
      stopWorkers();
      try {
        Runtime.getRuntime().removeShutdownHook(cleanup);
      } catch (IllegalStateException e) {
        // The JVM is shutting down; the hook runs anyway.
      }
    }
    if (problems.isEmpty()) {
      out.println(
          "verdict: PASS - the destination rejected stale worker A (epoch "
              + epochA
              + " < current "
              + epochB
              + "); worker B's report stays published");
    } else {
      out.println("verdict: FAIL - the demo did not show what it should (details on stderr)");
      for (String problem : problems) {
        err.println("fenceline demo: " + problem);
      }
      printWorkerLogs();
    }
    out.flush();
    return new DemoResult(
        epochA,
        epochB,
        Optional.ofNullable(reportA),
        Optional.ofNullable(reportB),
        Optional.ofNullable(published),
        timeline,
        problems);
  }

  private List<String> replay(JdbcLeaseIssuer issuer, JdbcPointerStore pointers) {
    // 1. A acquires epoch N, computes, stalls just before its write.
    WorkerProcess a = startWorker("A", Worker.ROLE_STALL);
    long frozenAt = stallBeforeWrite(a);

    // 2. The lease expires by the database clock; B acquires N+1.
    awaitExpiryAfterStop(issuer, frozenAt);
    WorkerProcess b = startWorker("B", Worker.ROLE_PUBLISH);
    WorkerLine registeredB = acquired(b);

    // 3. The destination registers N+1 and publishes B's report.
    int exitB = publishNewer(b, registeredB);

    // 4. A continues and publishes its old result with its old token, without re-checking.
    int exitA = publishStale(a);

    printPublished(pointers, a, b);
    return verify(exitA, exitB);
  }

  /**
   * Step 1: worker A acquires epoch N and computes; it is frozen with SIGSTOP just before its
   * write, with {@code go} queued on its standard input.
   *
   * @return when A was frozen ({@link System#nanoTime()})
   */
  private long stallBeforeWrite(WorkerProcess a) {
    WorkerLine ready = a.await(WorkerLine.READY, STARTUP);
    epochA = ready.number("epoch");
    say(
        "[1] worker A (pid %d): acquired epoch %d, registered it, checked its lease locally"
            + " (valid), computed its report",
        a.pid(), epochA);
    int attempts = freeze(a);
    long frozenAt = System.nanoTime();
    a.send(Worker.GO); // buffered in the pipe; A reads it only once it runs again
    say(
        "    SIGSTOP %d: A is frozen just before its write, its lease renewal thread too%s",
        a.pid(),
        attempts == 1
            ? ""
            : " (caught inside a renewal transaction "
                + (attempts - 1)
                + "x, continued it and stopped it again)");
    timeline.add(
        new DemoResult.Step(
            1,
            "A",
            epochA,
            "registers "
                + epochA
                + "; A computes its report and stalls (SIGSTOP "
                + a.pid()
                + ")"));
    return frozenAt;
  }

  /** Step 2, first half: waits until A's lease expired by the database clock. */
  private void awaitExpiryAfterStop(JdbcLeaseIssuer issuer, long frozenAt) {
    LeaseStatus status = awaitExpiry(issuer);
    say(
        "[2] the lease expired by the database clock %d ms after the stop (issuer: epoch %d,"
            + " held=%s)",
        Duration.ofNanos(System.nanoTime() - frozenAt).toMillis(),
        status.epoch().value(),
        status.held());
  }

  /** Step 2, second half: worker B acquired epoch N+1; its {@code REGISTERED} line. */
  private WorkerLine acquired(WorkerProcess b) {
    WorkerLine registeredB = b.await(WorkerLine.REGISTERED, STARTUP);
    epochB = registeredB.number("epoch");
    say("    worker B (pid %d): acquired epoch %d", b.pid(), epochB);
    timeline.add(
        new DemoResult.Step(
            2,
            "B",
            epochB,
            "nothing: the lease expires by the database clock, B acquires epoch " + epochB));
    return registeredB;
  }

  /**
   * Step 3: the destination registers N+1 and publishes B's report.
   *
   * @return B's exit status
   */
  private int publishNewer(WorkerProcess b, WorkerLine registeredB) {
    reportB = PublishReport.of(b.await(WorkerLine.OUTCOME, STEP));
    int exitB = b.awaitExit(STEP);
    say(
        "[3] worker B: registered epoch %d (previous %s), published its report -> %s",
        epochB, registeredB.fields().getOrDefault("previous", "?"), reportB.outcome());
    timeline.add(
        new DemoResult.Step(
            3,
            "B",
            epochB,
            "registers " + epochB + ", publishes B's report (" + reportB.outcome() + ")"));
    return exitB;
  }

  /**
   * Step 4: SIGCONT; A publishes its old report with epoch N without checking its lease again.
   *
   * @return A's exit status
   */
  private int publishStale(WorkerProcess a) {
    a.resume();
    reportA = PublishReport.of(a.await(WorkerLine.OUTCOME, STEP));
    WorkerLine belief = a.await(WorkerLine.BELIEF, STEP);
    int exitA = a.awaitExit(STEP);
    say(
        "[4] SIGCONT %d: A continues and publishes its old report with epoch %d, without"
            + " checking its lease again",
        a.pid(), reportA.supplied());
    say(
        "    destination -> %s (supplied %d, current %d); A's own belief now: locally valid %s,"
            + " state %s",
        reportA.outcome(),
        reportA.supplied(),
        reportA.current(),
        belief.fields().getOrDefault("locally-valid", "?"),
        belief.fields().getOrDefault("state", "?"));
    String fence =
        reportA.rejectedStale()
            ? "rejected as stale (current " + reportA.current() + ")"
            : reportA.outcome().toUpperCase(Locale.ROOT) + ": the old result came back";
    timeline.add(
        new DemoResult.Step(
            4,
            "A",
            reportA.supplied(),
            "A resumes (SIGCONT), asks to publish with " + reportA.supplied() + " -> " + fence));
    return exitA;
  }

  /** Reads what is published now, and prints the table, the published report and the logs. */
  private void printPublished(JdbcPointerStore pointers, WorkerProcess a, WorkerProcess b) {
    published = pointers.current(Worker.RESOURCE).orElse(null);
    out.println();
    printTable();
    out.println();
    out.println(
        published == null
            ? "published: nothing"
            : String.format(
                Locale.ROOT,
                "published: \"%s\" (epoch %d, operation %s, version %d)",
                published.pointer().target(),
                published.epoch().value(),
                published.operation(),
                published.version()));
    out.println(
        "worker logs: " + a.stderrLog() + ", " + b.stderrLog() + " (stderr of each worker JVM)");
  }

  private List<String> verify(int exitA, int exitB) {
    List<String> problems = new ArrayList<>();
    if (epochB != epochA + 1) {
      problems.add(
          "Cannot confirm the timeline: worker B acquired epoch "
              + epochB
              + ", expected "
              + (epochA + 1)
              + " (another process may use "
              + db
              + ")");
    }
    if (!reportB.applied() || reportB.supplied() != epochB) {
      problems.add(
          "Cannot confirm worker B's publish: the destination answered "
              + reportB
              + ", expected Applied with epoch "
              + epochB
              + " (see worker B's log)");
    }
    if (!reportA.rejectedStale() || reportA.supplied() != epochA || reportA.current() != epochB) {
      problems.add(
          "Cannot confirm the fence: the destination answered worker A's late publish with "
              + reportA
              + ", expected RejectedStale(supplied "
              + epochA
              + ", current "
              + epochB
              + ") (the stale result was not stopped)");
    }
    String expected = Worker.report("B", epochB);
    if (published == null
        || !published.pointer().target().equals(expected)
        || published.epoch().value() != epochB) {
      problems.add(
          "Cannot confirm the published report: it is "
              + (published == null ? "missing" : Options.quote(published.pointer().target()))
              + ", expected "
              + Options.quote(expected)
              + " at epoch "
              + epochB);
    }
    if (exitA != Main.EXIT_OK || exitB != Main.EXIT_OK) {
      problems.add(
          "Cannot confirm the workers finished cleanly: worker A exited with "
              + exitA
              + ", worker B with "
              + exitB
              + " (see their logs)");
    }
    return problems;
  }

  private void printTable() {
    List<String[]> rows = new ArrayList<>();
    rows.add(new String[] {"step", "worker", "epoch", "what the destination did"});
    for (DemoResult.Step step : timeline) {
      rows.add(
          new String[] {
            Integer.toString(step.step()),
            step.worker(),
            Long.toString(step.epoch()),
            step.destination()
          });
    }
    int[] widths = new int[4];
    for (String[] row : rows) {
      for (int i = 0; i < row.length; i++) {
        widths[i] = Math.max(widths[i], row[i].length());
      }
    }
    for (int r = 0; r < rows.size(); r++) {
      String[] row = rows.get(r);
      out.println(
          String.format(
                  Locale.ROOT,
                  "%-" + widths[0] + "s | %-" + widths[1] + "s | %-" + widths[2] + "s | %s",
                  row[0],
                  row[1],
                  row[2],
                  row[3])
              .stripTrailing());
      if (r == 0) {
        out.println(
            "-".repeat(widths[0])
                + "-+-"
                + "-".repeat(widths[1])
                + "-+-"
                + "-".repeat(widths[2])
                + "-+-"
                + "-".repeat(widths[3]));
      }
    }
  }

  /**
   * Stops A with SIGSTOP at a moment it holds no database lock. A real stall can also freeze a
   * process inside a transaction; then the database's own timeouts must end it, which is not the
   * article's case. If the stop lands inside a renewal transaction, A is continued until that
   * transaction ends and stopped again.
   *
   * @return how many stops it took
   */
  private int freeze(WorkerProcess a) {
    for (int attempt = 1; ; attempt++) {
      a.stop();
      if (!SqliteWriteLock.isHeld(db, Duration.ofMillis(100))) {
        return attempt;
      }
      if (attempt == MAX_FREEZE_ATTEMPTS) {
        throw new DemoFailure(
            "Cannot stall worker A outside a database transaction: "
                + attempt
                + " stops in a row landed while it held the write lock of "
                + db
                + " (is another process writing to it?)");
      }
      a.resume();
      if (SqliteWriteLock.isHeld(db, STEP)) {
        throw new DemoFailure(
            "Cannot stall worker A: the write lock of "
                + db
                + " stayed taken for "
                + STEP.toSeconds()
                + " s after A continued (is another process writing to it?)");
      }
    }
  }

  /** Polls the issuer until A's lease is no longer held by the database clock. */
  private LeaseStatus awaitExpiry(JdbcLeaseIssuer issuer) {
    Duration bound = settings.ttl().plus(EXPIRY_SLACK);
    long deadline = System.nanoTime() + bound.toNanos();
    while (true) {
      LeaseStatus status = issuer.status(Worker.RESOURCE);
      if (status.epoch().value() != epochA) {
        throw new DemoFailure(
            "Cannot wait for worker A's lease to expire: the issuer shows epoch "
                + status.epoch()
                + ", not A's epoch "
                + epochA
                + " (another process may use "
                + db
                + ")");
      }
      if (!status.held()) {
        return status;
      }
      if (System.nanoTime() - deadline > 0) {
        throw new DemoFailure(
            "Cannot wait for worker A's lease to expire: still held by the database clock "
                + bound.toMillis()
                + " ms after A was stopped (expires at "
                + status.expiresAt().map(Object::toString).orElse("?")
                + "; is A's renewal thread still running?)");
      }
      LockSupport.parkNanos(POLL.toNanos());
    }
  }

  private WorkerProcess startWorker(String name, String role) {
    Duration lifetime = settings.ttl().plus(EXPIRY_SLACK).plus(STARTUP).plus(STEP).plus(STEP);
    WorkerProcess worker =
        WorkerProcess.start(
            name,
            List.of(
                "--db",
                db.toString(),
                "--name",
                name,
                "--role",
                role,
                "--ttl-millis",
                Long.toString(settings.ttl().toMillis()),
                "--timeout-millis",
                Long.toString(lifetime.toMillis())),
            dir.resolve("worker-" + name + ".log"));
    workers.add(worker);
    return worker;
  }

  private void prepareDirectory() {
    try {
      Files.createDirectories(dir);
      // Only the demo's own files: --dir may point at a directory with other content.
      for (String file :
          List.of(
              DB_FILE,
              DB_FILE + "-wal",
              DB_FILE + "-shm",
              DB_FILE + "-journal",
              "worker-A.log",
              "worker-B.log")) {
        Files.deleteIfExists(dir.resolve(file));
      }
    } catch (IOException e) {
      throw new DemoFailure(
          "Cannot prepare demo directory "
              + dir
              + ": "
              + e
              + " (check permissions, or pass another --dir)",
          e);
    }
  }

  private void printHeader() {
    out.println("Fenceline demo: the article's timeline with two real worker processes");
    out.println("  database  " + db + " (SQLite, the embedded default; recreated for this run)");
    out.println(
        "  resource  "
            + Worker.RESOURCE
            + ", operation "
            + Worker.OPERATION
            + ", lease ttl "
            + settings.ttl().toMillis()
            + " ms, renewed in the background every "
            + settings.ttl().dividedBy(3).toMillis()
            + " ms");
    out.println();
    out.flush();
  }

  private void printWorkerLogs() {
    for (WorkerProcess worker : workers) {
      err.println("--- worker " + worker.name() + " (pid " + worker.pid() + ") standard output:");
      for (String line : worker.transcript()) {
        err.println("  " + line);
      }
      err.println("--- worker " + worker.name() + " standard error (" + worker.stderrLog() + "):");
      String stderr = worker.stderr().stripTrailing();
      err.println(stderr.isEmpty() ? "  (empty)" : stderr.indent(2).stripTrailing());
    }
    err.flush();
  }

  private void stopWorkers() {
    for (WorkerProcess worker : workers) {
      worker.close();
    }
  }

  private void say(String format, Object... args) {
    out.println(String.format(Locale.ROOT, format, args));
    out.flush();
  }
}
