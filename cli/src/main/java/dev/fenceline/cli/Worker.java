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

import dev.fenceline.core.Fenceline;
import dev.fenceline.core.HeldLease;
import dev.fenceline.jdbc.JdbcPointerStore;
import dev.fenceline.jdbc.JdbcStore;
import dev.fenceline.spi.AlreadyApplied;
import dev.fenceline.spi.Applied;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Pointer;
import dev.fenceline.spi.RegisterOutcome;
import dev.fenceline.spi.Registered;
import dev.fenceline.spi.RejectedStale;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.WriteOutcome;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;

/**
 * One worker process of the demo (the hidden {@code fenceline worker} command). It acquires the
 * lease on {@value #RESOURCE_NAME} with background renewal, registers its epoch at the pointer
 * store, computes its report and publishes it through {@link Fenceline#publish}. It speaks the line
 * protocol of {@link WorkerLine} on standard output.
 *
 * <p>Role {@code stall} (worker A) checks its lease locally, prints {@code READY} and then waits
 * for one line on standard input: the orchestrator freezes it there with SIGSTOP, which stands for
 * the GC pause or VM freeze of the article. When it continues it publishes <em>without</em>
 * checking its lease again, because the check it made before the stall is exactly the check a real
 * worker would have made: it publishes its token, as a worker that stalled right after {@link
 * Fenceline#publish}'s own local check would. Role {@code publish} (worker B) publishes right away.
 *
 * <p>Every worker has a bounded lifetime: it stops waiting when standard input closes, and a
 * watchdog ends the JVM after {@code --timeout-millis}.
 */
final class Worker {

  static final String RESOURCE_NAME = "nightly-report";
  static final ResourceId RESOURCE = ResourceId.of(RESOURCE_NAME);

  /** The name of the pointer store the demo publishes to. */
  static final String POINTER_STORE = "reports";

  static final OperationId OPERATION = OperationId.of("report-2026-10-27");
  static final String GO = "go";

  static final String ROLE_STALL = "stall";
  static final String ROLE_PUBLISH = "publish";

  static final int EXIT_WATCHDOG = 3;

  private static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(2);

  private final Path db;
  private final String name;
  private final String role;
  private final Duration ttl;
  private final PrintStream out;

  private Worker(Path db, String name, String role, Duration ttl, PrintStream out) {
    this.db = db;
    this.name = name;
    this.role = role;
    this.ttl = ttl;
    this.out = out;
  }

  /** The report worker {@code name} computes under {@code epoch}. */
  static String report(String name, long epoch) {
    return "report computed by worker " + name + " at epoch " + epoch;
  }

  /**
   * Runs {@code fenceline worker ARGS}: {@code --db PATH --name A|B --role stall|publish
   * --ttl-millis N [--timeout-millis N]}.
   *
   * @return the exit status
   * @throws UsageException if an argument is wrong
   */
  static int command(String[] args, PrintStream out, PrintStream err) {
    Options options =
        Options.parse(
            "worker", args, Set.of("db", "name", "role", "ttl-millis", "timeout-millis"), Set.of());
    options.required("db", "./fenceline-demo/fenceline.db");
    Path db = options.path("db", null);
    if (!Files.isRegularFile(db)) {
      throw new UsageException(
          "Cannot run fenceline worker: database file "
              + db
              + " does not exist (the demo creates it; run fenceline demo)");
    }
    String name = options.required("name", "A");
    if (!name.equals("A") && !name.equals("B")) {
      throw new UsageException(
          "Cannot use --name "
              + Options.quote(name)
              + ": the demo's workers are A and B (--name A)");
    }
    String role = options.required("role", ROLE_STALL);
    if (!role.equals(ROLE_STALL) && !role.equals(ROLE_PUBLISH)) {
      throw new UsageException(
          "Cannot use --role "
              + Options.quote(role)
              + ": the roles are stall and publish (--role "
              + ROLE_STALL
              + ")");
    }
    options.required("ttl-millis", "1500");
    Duration ttl = options.millis("ttl-millis", Demo.DEFAULT_TTL, Demo.MIN_TTL, Demo.MAX_TTL);
    Duration timeout =
        options.millis("timeout-millis", DEFAULT_TIMEOUT, 1_000, Duration.ofHours(1).toMillis());
    startWatchdog(name, timeout, err);
    try {
      return new Worker(db, name, role, ttl, out).run();
    } catch (RuntimeException e) {
      out.println(WorkerLine.ERROR + " " + oneLine(e));
      e.printStackTrace(err);
      return Main.EXIT_FAILED;
    }
  }

  private int run() {
    String holder = "worker-" + name + ":" + ProcessHandle.current().pid();
    try (JdbcStore store = JdbcStore.sqlite(db);
        Fenceline fenceline =
            Fenceline.builder().issuer(store.leaseIssuer()).holder(holder).leaseTtl(ttl).build()) {
      JdbcPointerStore pointers = store.pointerStore(POINTER_STORE);
      Optional<HeldLease> acquired = fenceline.tryAcquire(RESOURCE);
      if (acquired.isEmpty()) {
        return fail(
            "Cannot acquire the lease on "
                + RESOURCE
                + " for worker "
                + name
                + ": another worker holds it (wait until it expires or is released)");
      }
      try (HeldLease lease = acquired.get()) {
        Epoch epoch = lease.token().epoch();
        RegisterOutcome registration = fenceline.register(lease, pointers);
        if (registration instanceof RejectedStale stale) {
          return fail(stale.describe("register worker " + name + "'s epoch for"));
        }
        Registered registered = (Registered) registration;
        say(WorkerLine.REGISTERED, "epoch=" + epoch + " previous=" + registered.previous());

        // The check a careful worker makes before the write. It passes here; the stall comes after.
        if (!lease.isLocallyValid()) {
          return fail(
              "Cannot publish for worker "
                  + name
                  + ": its lease "
                  + lease
                  + " ran out locally before the report was computed (the ttl is too short for"
                  + " this machine; raise --ttl-millis)");
        }
        String report = report(name, epoch.value());

        if (role.equals(ROLE_STALL)) {
          say(WorkerLine.READY, "epoch=" + epoch + " pid=" + ProcessHandle.current().pid());
          String line = readLine();
          if (line == null) {
            return fail(
                "Cannot publish for worker "
                    + name
                    + ": standard input closed before \""
                    + GO
                    + "\" (the demo orchestrator went away)");
          }
          if (!line.strip().equals(GO)) {
            return fail(
                "Cannot publish for worker "
                    + name
                    + ": expected \""
                    + GO
                    + "\" on standard input, got "
                    + Options.quote(line)
                    + " (only the demo orchestrator drives workers)");
          }
        }

        // No second look at the lease: the destination decides, with the token's epoch. The token
        // overload, because the stall stands for one that comes after every local check,
        // publish(HeldLease, ...)'s own included (that one refuses a lease it knows is lost).
        WriteOutcome outcome =
            fenceline.publish(lease.token(), pointers, OPERATION, Pointer.to(report));
        say(WorkerLine.OUTCOME, describe(epoch, outcome));
        say(
            WorkerLine.BELIEF,
            "locally-valid=" + lease.isLocallyValid() + " state=" + lease.state());
      }
    }
    return Main.EXIT_OK;
  }

  private static String describe(Epoch supplied, WriteOutcome outcome) {
    if (outcome instanceof Applied applied) {
      return PublishReport.APPLIED
          + " supplied="
          + supplied
          + " current="
          + applied.receipt().epoch();
    }
    if (outcome instanceof AlreadyApplied already) {
      return PublishReport.ALREADY_APPLIED
          + " supplied="
          + supplied
          + " current="
          + supplied
          + " original-epoch="
          + already.receipt().epoch();
    }
    RejectedStale stale = (RejectedStale) outcome;
    return PublishReport.REJECTED_STALE
        + " supplied="
        + stale.supplied()
        + " current="
        + stale.current();
  }

  private static String readLine() {
    BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    try {
      return in.readLine();
    } catch (IOException e) {
      return null;
    }
  }

  private int fail(String message) {
    say(WorkerLine.ERROR, message);
    return Main.EXIT_FAILED;
  }

  private void say(String tag, String text) {
    out.println(tag + " " + text);
    out.flush();
  }

  private static String oneLine(Throwable e) {
    String message = e.getMessage() == null ? e.getClass().getName() : e.getMessage();
    return message.replaceAll("[\\r\\n]+", " ");
  }

  /** Ends this JVM after {@code timeout}, whatever it is doing, so no worker outlives the demo. */
  private static void startWatchdog(String name, Duration timeout, PrintStream err) {
    long deadline = System.nanoTime() + timeout.toNanos();
    Thread watchdog =
        new Thread(
            () -> {
              long left;
              while ((left = deadline - System.nanoTime()) > 0) {
                LockSupport.parkNanos(left);
              }
              err.println(
                  "Cannot finish worker "
                      + name
                      + ": it ran longer than "
                      + timeout.toMillis()
                      + " ms (the watchdog ended it; see the demo's output for the step that hung)");
              err.flush();
              Runtime.getRuntime().halt(EXIT_WATCHDOG);
            },
            "fenceline-worker-watchdog");
    watchdog.setDaemon(true);
    watchdog.start();
  }
}
