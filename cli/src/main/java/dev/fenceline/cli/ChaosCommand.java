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

import dev.fenceline.chaos.ChaosResult;
import dev.fenceline.chaos.ChaosRun;
import dev.fenceline.chaos.ChaosRunException;
import dev.fenceline.chaos.check.CheckResult;
import dev.fenceline.chaos.check.Checker;
import dev.fenceline.chaos.faults.ConfigStoreFaults;
import dev.fenceline.chaos.history.Event;
import dev.fenceline.chaos.history.History;
import dev.fenceline.chaos.report.Report;
import dev.fenceline.config.FencelineConfig;
import dev.fenceline.spi.ConfigurationException;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code fenceline chaos}: worker processes under pauses, kills and store faults against one
 * configured destination, the history they leave, its check and a report; {@code fenceline chaos
 * check HISTORY} checks a history again.
 */
@Command(
    name = "chaos",
    description = {
      "Run worker processes against destination D for --duration while pausing them past their"
          + " lease (SIGSTOP/SIGCONT), killing them (SIGKILL) and faulting the store (a proxy in"
          + " front of network stores that cuts, delays or drops answers; a held lock on a SQLite"
          + " file). Every step goes into DIR/history.jsonl; the history is then checked (stale"
          + " writes, double applies, lost receipts, linearizability) and DIR/report.md with"
          + " DIR/epochs.svg is written. The same --seed replays the same fault schedule. Use a"
          + " destination and stores made for the test, never production data.",
      "Exits 0 if every check passed, 9 if one failed, 10 if the linearizability check gave up."
    },
    subcommands = ChaosCommand.CheckCommand.class)
final class ChaosCommand implements Callable<Integer> {

  private static final Set<String> FAULT_KINDS = Set.of("pause", "kill", "store");

  @Option(
      names = "--config",
      paramLabel = "FILE",
      description = "The configuration file (see examples/fenceline.yaml). Required.")
  Path configFile;

  @Option(
      names = "--destination",
      paramLabel = "D",
      description = "The destination to run against; may be left out if the file has only one.")
  String destination;

  @Option(
      names = "--duration",
      paramLabel = "TIME",
      defaultValue = "60s",
      converter = DurationConverter.class,
      description = "How long the workers run, e.g. 60s, 10m (default: ${DEFAULT-VALUE}).")
  Duration duration;

  @Option(
      names = "--workers",
      paramLabel = "N",
      defaultValue = "8",
      description = "Worker processes, 1 to 64 (default: ${DEFAULT-VALUE}).")
  int workers;

  @Option(
      names = "--threads",
      paramLabel = "K",
      defaultValue = "1",
      description =
          "Loops per worker process, 1 to 16, each its own process in the history; a pause or"
              + " kill hits all of them (default: ${DEFAULT-VALUE}).")
  int threads;

  @Option(
      names = "--resources",
      paramLabel = "N",
      defaultValue = "4",
      description = "Resources the workers compete for, 1 to 1000 (default: ${DEFAULT-VALUE}).")
  int resources;

  @Option(
      names = "--faults",
      paramLabel = "KINDS",
      defaultValue = "pause,kill,store",
      description =
          "Comma-separated fault kinds from pause, kill, store, or none (default:"
              + " ${DEFAULT-VALUE}).")
  String faults;

  @Option(
      names = "--seed",
      paramLabel = "N",
      description =
          "Seed of the fault schedule and the workers' choices (default: random, printed).")
  Long seed;

  @Option(
      names = "--fault-every",
      paramLabel = "TIME",
      defaultValue = "1s",
      converter = DurationConverter.class,
      description = "Mean gap between two faults (default: ${DEFAULT-VALUE}).")
  Duration faultEvery;

  @Option(
      names = "--lease-ttl",
      paramLabel = "TIME",
      defaultValue = "2s",
      converter = DurationConverter.class,
      description = "The workers' lease length (default: ${DEFAULT-VALUE}).")
  Duration leaseTtl;

  @Option(
      names = "--out",
      paramLabel = "DIR",
      description =
          "Directory for history.jsonl, report.md, epochs.svg and worker logs; must be new or"
              + " empty (default: chaos-<date>-<time> in the current directory).")
  Path out;

  @Option(
      names = {"-h", "--help"},
      usageHelp = true,
      description = "Show this help, with the exit statuses.")
  boolean help;

  private final PrintStream out0;
  private final PrintStream err;

  ChaosCommand(PrintStream out, PrintStream err) {
    this.out0 = out;
    this.err = err;
  }

  @Override
  public Integer call() {
    try {
      return runChaos();
    } catch (CommandFailure failure) {
      err.println("fenceline: " + failure.getMessage());
      return failure.exitCode().code();
    } catch (ConfigurationException e) {
      err.println("fenceline: " + ConfiguredCommand.oneLine(e.getMessage()));
      return ExitCode.BAD_CONFIG_OR_USAGE.code();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      err.println("fenceline: chaos run interrupted; the workers were stopped");
      return ExitCode.INTERRUPTED.code();
    } catch (IOException | UncheckedIOException e) {
      err.println("fenceline: Cannot run fenceline chaos: " + e.getMessage());
      return ExitCode.FAILURE.code();
    } catch (ChaosRunException | dev.fenceline.spi.FencelineException e) {
      err.println("fenceline: " + ConfiguredCommand.oneLine(e.getMessage()));
      return ExitCode.FAILURE.code();
    } catch (IllegalArgumentException e) { // e.g. the run left no complete history
      err.println("fenceline: " + ConfiguredCommand.oneLine(e.getMessage()));
      return ExitCode.FAILURE.code();
    } catch (RuntimeException e) {
      err.println(
          "fenceline: Cannot run fenceline chaos: "
              + e
              + " (this is a bug in fenceline; please report it)");
      return ExitCode.FAILURE.code();
    }
  }

  private int runChaos() throws IOException, InterruptedException {
    if (configFile == null) {
      throw usage(
          "Cannot run fenceline chaos: --config FILE is missing (e.g. fenceline chaos --config"
              + " fenceline.yaml --destination reports; or fenceline chaos check HISTORY)");
    }
    Set<String> kinds = faultKinds(faults);
    if (workers < 1 || workers > 64) {
      throw usage("Cannot use --workers " + workers + ": it must be 1 to 64");
    }
    if (threads < 1 || threads > 16) {
      throw usage("Cannot use --threads " + threads + ": it must be 1 to 16");
    }
    if (resources < 1 || resources > 1000) {
      throw usage("Cannot use --resources " + resources + ": it must be 1 to 1000");
    }
    Path dir = outDir();
    String name;
    try (FencelineConfig config = FencelineConfig.load(configFile)) {
      name = destinationName(config);
      out0.println(
          "fenceline chaos: "
              + name
              + " is "
              + config.destination(name).guarantee()
              + " ("
              + config.destination(name).why()
              + ")");
    }
    long chosenSeed = seed != null ? seed : ThreadLocalRandom.current().nextLong();
    Path workerConfig = configFile;
    ChaosRun.Builder run =
        ChaosRun.builder()
            .duration(duration)
            .workers(workers)
            .threads(threads)
            .resources(resources)
            .faults(kinds)
            .seed(chosenSeed)
            .leaseTtl(leaseTtl)
            .faultEvery(faultEvery)
            .out(dir);
    ConfigStoreFaults store = null;
    try {
      if (kinds.contains("store")) {
        try {
          store = ConfigStoreFaults.of(configFile, dir);
        } catch (IllegalArgumentException e) {
          throw usage(ConfiguredCommand.oneLine(e.getMessage()));
        }
        workerConfig = store.config();
        run.storeFaults(store);
        out0.println("fenceline chaos: store faults: " + store.description());
      }
      run.config(workerConfig, name);
      out0.println(
          "fenceline chaos: "
              + workers
              + " workers, "
              + resources
              + " resources, "
              + duration.toSeconds()
              + " s, faults "
              + (kinds.isEmpty() ? "none" : String.join(",", kinds))
              + ", seed "
              + chosenSeed
              + ", writing "
              + dir);
      ChaosRun built;
      try {
        built = run.build();
      } catch (IllegalArgumentException e) {
        throw usage(ConfiguredCommand.oneLine(e.getMessage()));
      }
      ChaosResult result = built.run();
      out0.println(
          "fenceline chaos: "
              + result.operations()
              + " operations, faults "
              + result.faultsByKind());
      return check(result.history(), dir, Checker.defaults());
    } finally {
      if (store != null) {
        store.close();
      }
    }
  }

  private int check(Path history, Path reportDir, Checker checker) {
    List<Event> events = History.read(history);
    CheckResult result = checker.check(events);
    out0.println(result.summary());
    if (reportDir != null) {
      Path report = Report.write(events, result, reportDir);
      out0.println("fenceline chaos: report " + report);
    }
    if (result.passed()) {
      return ExitCode.OK.code();
    }
    return result.gaveUp() ? ExitCode.CHECK_GAVE_UP.code() : ExitCode.CHECK_FAILED.code();
  }

  private String destinationName(FencelineConfig config) {
    Set<String> names = config.destinationNames();
    if (destination != null) {
      if (!names.contains(destination)) {
        throw usage(
            "Cannot run fenceline chaos against destination "
                + Options.quote(destination)
                + ": "
                + configFile
                + " has no such destination (it has "
                + String.join(", ", names)
                + ")");
      }
      return destination;
    }
    if (names.size() != 1) {
      throw usage(
          "Cannot run fenceline chaos: "
              + configFile
              + " has "
              + (names.isEmpty() ? "no destinations" : "destinations " + String.join(", ", names))
              + "; name one with --destination D");
    }
    return names.iterator().next();
  }

  private Path outDir() throws IOException {
    Path dir =
        out != null
            ? out
            : Path.of(
                "chaos-"
                    + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
    if (Files.exists(dir)) {
      if (!Files.isDirectory(dir)) {
        throw usage("Cannot write the chaos run to " + dir + ": it is a file (choose a new --out)");
      }
      try (Stream<Path> entries = Files.list(dir)) {
        if (entries.findAny().isPresent()) {
          throw usage(
              "Cannot write the chaos run to "
                  + dir
                  + ": it is not empty, and an earlier run's history would be lost (choose a new"
                  + " --out, or move it away)");
        }
      }
    }
    Files.createDirectories(dir);
    return dir;
  }

  private static Set<String> faultKinds(String value) {
    Set<String> kinds = new LinkedHashSet<>();
    if (value.strip().equals("none")) {
      return kinds;
    }
    for (String kind : value.split(",", -1)) {
      String k = kind.strip();
      if (!FAULT_KINDS.contains(k)) {
        throw usage(
            "Cannot use --faults "
                + Options.quote(value)
                + ": "
                + Options.quote(k)
                + " is not a fault kind (use pause, kill, store, comma-separated, or none)");
      }
      kinds.add(k);
    }
    return kinds;
  }

  private static CommandFailure usage(String message) {
    return new CommandFailure(ExitCode.BAD_CONFIG_OR_USAGE, message);
  }

  /** {@code fenceline chaos check HISTORY}: the checks of a recorded history, again. */
  @Command(
      name = "check",
      description = {
        "Check a chaos history (history.jsonl of fenceline chaos) again: the same checks, the"
            + " same result. With --out, also write report.md and epochs.svg there.",
        "Exits 0 if every check passed, 9 if one failed, 10 if the linearizability check gave up."
      })
  static final class CheckCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "HISTORY", description = "The history file.")
    Path history;

    @Option(
        names = "--out",
        paramLabel = "DIR",
        description = "Write report.md and epochs.svg into DIR.")
    Path out;

    @Option(
        names = "--budget",
        paramLabel = "TIME",
        defaultValue = "60s",
        converter = DurationConverter.class,
        description =
            "Time the linearizability check may take before it gives up (default:"
                + " ${DEFAULT-VALUE}).")
    Duration budget;

    @Option(
        names = {"-h", "--help"},
        usageHelp = true,
        description = "Show this help, with the exit statuses.")
    boolean help;

    @picocli.CommandLine.ParentCommand ChaosCommand parent;

    @Override
    public Integer call() {
      try {
        if (!Files.isRegularFile(history)) {
          throw usage(
              "Cannot check "
                  + history
                  + ": it is not a file (give the history.jsonl a chaos run wrote)");
        }
        if (out != null) {
          Files.createDirectories(out);
        }
        return parent.check(history, out, Checker.withBudget(budget));
      } catch (CommandFailure failure) {
        parent.err.println("fenceline: " + failure.getMessage());
        return failure.exitCode().code();
      } catch (IllegalArgumentException e) { // not a (complete) history
        parent.err.println("fenceline: " + ConfiguredCommand.oneLine(e.getMessage()));
        return ExitCode.BAD_CONFIG_OR_USAGE.code();
      } catch (IOException | UncheckedIOException e) {
        parent.err.println("fenceline: " + ConfiguredCommand.oneLine(e.getMessage()));
        return ExitCode.FAILURE.code();
      }
    }
  }

  static List<String> faultKindNames() {
    return Arrays.asList("pause", "kill", "store");
  }
}
