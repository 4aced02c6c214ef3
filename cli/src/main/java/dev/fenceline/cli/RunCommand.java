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

import dev.fenceline.config.ConfiguredDestination;
import dev.fenceline.config.FencelineConfig;
import dev.fenceline.core.Fenceline;
import dev.fenceline.core.HeldLease;
import dev.fenceline.core.LeaseLoss;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.WriteOutcome;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.UnaryOperator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code fenceline run}: a cron wrapper. Runs CMD under a renewed lease; stops it and publishes
 * nothing if the lease is lost; optionally publishes the file it produced with the same token.
 */
@Command(
    name = "run",
    description = {
      "Run CMD under the lease on resource R, renewed in the background (a cron wrapper). If"
          + " another holder has the lease, exit 4 at once without starting CMD. CMD inherits"
          + " standard input, output and error, and gets FENCELINE_RESOURCE, FENCELINE_EPOCH and"
          + " FENCELINE_HOLDER in its environment.",
      "If the lease is lost while CMD runs, CMD and its child processes are stopped (TERM, then"
          + " KILL after the grace) and fenceline exits 5, publishing nothing.",
      "With --publish D:FILE, after CMD exits 0, FILE is published to destination D as operation"
          + " OP, fenced by the same token CMD saw in FENCELINE_EPOCH.",
      "If CMD exits non-zero or is killed, nothing is published and fenceline exits 8, never with"
          + " CMD's own status (a CMD exiting 3 is not a stale rejection): CMD's status is on"
          + " standard error and in --json's command-exit-code (128+n for signal n, as in a"
          + " shell, with command-signal).",
      "Standard output belongs to CMD: fenceline's own lines go to standard error, and a success"
          + " prints nothing there unless --verbose. With --json, CMD's standard output goes to"
          + " standard error so that standard output holds only the JSON document."
    })
final class RunCommand extends ConfiguredCommand {

  @Option(
      names = "--resource",
      required = true,
      paramLabel = "R",
      description = "The resource to hold the lease on, e.g. nightly-report.")
  String resource;

  @Option(
      names = "--ttl",
      paramLabel = "DURATION",
      converter = DurationConverter.class,
      description = "Lease length, e.g. 30s (default: lease.ttl of the configuration).")
  Duration ttl;

  @Option(
      names = "--grace",
      paramLabel = "DURATION",
      converter = DurationConverter.class,
      defaultValue = "10s",
      description = "How long CMD may take to exit after TERM before it is killed (default 10s).")
  Duration grace;

  @Option(
      names = "--publish",
      paramLabel = "D:FILE",
      description = "After CMD exits 0, publish FILE to destination D (needs --operation).")
  String publish;

  @Option(
      names = "--operation",
      paramLabel = "OP",
      description = "The operation ID of the --publish, e.g. report-2026-10-27.")
  String operation;

  @Option(
      names = {"-v", "--verbose"},
      description =
          "Also print on standard error what fenceline did: the start of CMD, and on success"
              + " the summary and the receipt.")
  boolean verbose;

  @Parameters(
      arity = "1..*",
      paramLabel = "CMD",
      description = "The command and its arguments, after --.")
  List<String> command;

  /** The configuration's secret mask, once it is loaded. */
  private UnaryOperator<String> mask = UnaryOperator.identity();

  RunCommand(PrintStream out, PrintStream err) {
    super(out, err);
  }

  @Override
  String name() {
    return "run";
  }

  @Override
  int execute(FencelineConfig config, Report report) {
    mask = config::mask;
    ResourceId resourceId = resource("--resource", resource);
    Publication publication = publication(config, report);
    Duration leaseTtl = ttl != null ? ttl : config.lease().ttl();
    Fenceline.Builder builder = config.fencelineBuilder();
    if (ttl != null) {
      // The Fenceline default: a third of (ttl - 10 % safety margin), so three renewals fit.
      builder.leaseTtl(ttl).renewEvery(ttl.minus(ttl.dividedBy(10)).dividedBy(3));
    }
    report.put("resource", resourceId.value()).put("ttl", DurationConverter.format(leaseTtl));
    try (Fenceline fenceline = builder.build();
        HeldLease lease = Publishing.acquire(fenceline, config, resourceId)) {
      report.put("epoch", lease.token().epoch().value());
      if (publication != null) {
        Publishing.register(fenceline, lease, publication.target());
      }
      runUnderLease(lease, resourceId, report);
      if (publication == null) {
        return ExitCode.OK.code();
      }
      return publish(config, publication, lease, resourceId, report);
    }
  }

  /**
   * What {@code --publish D:FILE} names.
   *
   * @param target the destination D
   * @param produced the file CMD produces
   * @param operationId the operation ID of the publish ({@code --operation})
   */
  private record Publication(
      ConfiguredDestination target, Path produced, OperationId operationId) {}

  /**
   * The publication {@code --publish} and {@code --operation} ask for, or null without them.
   *
   * @throws CommandFailure if one comes without the other, or {@code --publish} is not D:FILE
   */
  private Publication publication(FencelineConfig config, Report report) {
    if (publish == null) {
      if (operation != null) {
        throw usage("Cannot use --operation without --publish (add --publish D:FILE, or drop it)");
      }
      return null;
    }
    int colon = publish.indexOf(':');
    if (colon <= 0 || colon == publish.length() - 1) {
      throw usage(
          "Cannot use --publish "
              + Options.quote(publish)
              + ": it is not D:FILE (write e.g. --publish reports:out/report.csv)");
    }
    if (operation == null) {
      throw usage(
          "Cannot use --publish without --operation (add e.g. --operation report-2026-10-27)");
    }
    OperationId operationId = operation(operation);
    ConfiguredDestination target = config.destination(publish.substring(0, colon));
    Path produced = Path.of(publish.substring(colon + 1));
    report.put("destination", target.name()).put("file", produced.toString());
    return new Publication(target, produced, operationId);
  }

  /**
   * Runs CMD under {@code lease} until it exits or the lease is lost, and returns if it exited 0.
   *
   * @throws AlreadyReported if the lease was lost (CMD was stopped; nothing may be published)
   * @throws CommandFailure if CMD exited non-zero
   */
  private void runUnderLease(HeldLease lease, ResourceId resourceId, Report report) {
    long epoch = lease.token().epoch().value();
    CompletableFuture<LeaseLoss> lost = new CompletableFuture<>();
    lease.onLost(lost::complete);
    // Known to the hook before it starts: a signal stops it, and only then releases the lease.
    ChildProcess child =
        Interruption.process()
            .start(() -> ChildProcess.start(command, environment(lease), json ? err : null), grace);
    report.put("pid", child.pid());
    verbose(
        "running "
            + String.join(" ", command)
            + " (pid "
            + child.pid()
            + ") under the lease on "
            + resourceId
            + " at epoch "
            + epoch);
    try {
      CompletableFuture.anyOf(lost, child.onExit()).join();
      LeaseLoss loss = lost.getNow(null);
      if (loss == null && lease.loss().isPresent()) {
        loss = lease.loss().get(); // lost as CMD exited: publish nothing either
      }
      if (loss != null) {
        throw stopAfterLoss(child, loss, report);
      }
    } finally {
      child.stop(grace);
    }
    int status = child.exitValue();
    report.put("command-exit-code", status);
    if (status != 0) {
      throw commandFailed(status);
    }
    verbose("ran " + String.join(" ", command) + " at epoch " + epoch + ": exit status 0");
  }

  /** Publishes the file CMD produced, with the lease's token. */
  private int publish(
      FencelineConfig config,
      Publication publication,
      HeldLease lease,
      ResourceId resourceId,
      Report report) {
    Path produced = publication.produced();
    ConfiguredDestination target = publication.target();
    if (!Files.isRegularFile(produced)) {
      throw new CommandFailure(
          ExitCode.FAILURE,
          "Cannot publish "
              + produced
              + " to "
              + target.name()
              + ": the command exited 0 but the file does not exist (check the path CMD writes"
              + " to)");
    }
    WriteOutcome outcome =
        Publishing.publish(
            config,
            target,
            lease.token(),
            publication.operationId(),
            produced,
            !json && ProgressInputStream.stdoutIsTerminal(),
            err);
    Publishing.print(outcome, report);
    Publishing.sweepAfter(config, target, resourceId, report, err);
    report.put("published", true);
    return ExitCode.OK.code();
  }

  /**
   * Prints the report: fenceline's own lines never go to standard output, which is CMD's; they go
   * to standard error, and only with {@code --verbose} (a failure's line is printed anyway).
   */
  @Override
  void print(Report report, ExitCode exit, String error, UnaryOperator<String> mask) {
    if (verbose) {
      report.printLines(err, "fenceline: ", mask);
    }
    if (json) {
      report.printJson(out, exit, error, mask);
    }
  }

  /** With {@code --verbose}, prints {@code line} on standard error at once. */
  private void verbose(String line) {
    if (verbose) {
      err.println("fenceline: " + oneLine(mask.apply(line)));
      err.flush();
    }
  }

  /** CMD's non-zero {@code status}: exit {@link ExitCode#COMMAND_FAILED}, never with CMD's own. */
  private CommandFailure commandFailed(int status) {
    Map<String, Object> details = new LinkedHashMap<>();
    details.put("command-exit-code", status);
    String signal = signal(status);
    if (signal != null) {
      details.put("command-signal", signal);
    }
    details.put("published", false);
    return new CommandFailure(
        ExitCode.COMMAND_FAILED,
        String.join(" ", command)
            + " exited with status "
            + status
            + (signal == null
                ? ""
                : " (128+" + (status - 128) + ": killed by " + signal + ", as a shell reports it)")
            + "; nothing was published",
        details,
        null);
  }

  /**
   * The signal a status above 128 stands for, as Java and a shell report a process killed by signal
   * n: 128+n. Null for a status that is no signal's.
   */
  static String signal(int status) {
    int number = status - 128;
    if (number < 1 || number > 64) {
      return null;
    }
    return switch (number) {
      case 1 -> "SIGHUP";
      case 2 -> "SIGINT";
      case 3 -> "SIGQUIT";
      case 4 -> "SIGILL";
      case 6 -> "SIGABRT";
      case 8 -> "SIGFPE";
      case 9 -> "SIGKILL";
      case 11 -> "SIGSEGV";
      case 13 -> "SIGPIPE";
      case 14 -> "SIGALRM";
      case 15 -> "SIGTERM";
      default -> "signal " + number;
    };
  }

  /**
   * Stops CMD after the lease was lost, saying so first.
   *
   * @return the failure to throw: exit {@link ExitCode#LEASE_LOST}, its line already printed
   */
  private AlreadyReported stopAfterLoss(ChildProcess child, LeaseLoss loss, Report report) {
    Map<String, Object> details = new LinkedHashMap<>();
    details.put("lost", loss.reason().name());
    details.put("published", false);
    details.put("pid", child.pid());
    // Say so first: the stop may take the whole grace.
    String message =
        "Cannot finish "
            + String.join(" ", command)
            + ": lost the lease on "
            + loss.resource()
            + " at epoch "
            + loss.epoch()
            + " ("
            + loss.reason()
            + loss.newerEpoch().map(newer -> " by epoch " + newer).orElse("")
            + ": "
            + loss.detail()
            + "); stopping it (pid "
            + child.pid()
            + ", TERM then KILL after "
            + DurationConverter.format(grace)
            + ") and publishing nothing (run it again later)";
    err.println("fenceline: " + oneLine(message));
    err.flush();
    child.stop(grace);
    details.forEach(report::put);
    report.put("command-exit-code", child.exitValue());
    return new AlreadyReported(ExitCode.LEASE_LOST, message, details);
  }

  private Map<String, String> environment(HeldLease lease) {
    Map<String, String> environment = new LinkedHashMap<>();
    environment.put("FENCELINE_RESOURCE", lease.token().resource().value());
    environment.put("FENCELINE_EPOCH", Long.toString(lease.token().epoch().value()));
    environment.put("FENCELINE_HOLDER", lease.token().holder());
    return environment;
  }

  private static CommandFailure usage(String message) {
    return new CommandFailure(ExitCode.BAD_CONFIG_OR_USAGE, message);
  }

  /** A failure whose line is already on standard error. */
  static final class AlreadyReported extends CommandFailure {
    private static final long serialVersionUID = 1L;

    AlreadyReported(ExitCode exitCode, String message, Map<String, Object> details) {
      super(exitCode, message, details, null);
    }

    @Override
    boolean alreadyOnStandardError() {
      return true;
    }
  }
}
