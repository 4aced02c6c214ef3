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

import dev.fenceline.config.FencelineConfig;
import dev.fenceline.spi.ConfigurationException;
import dev.fenceline.spi.LeaseLostException;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StoreException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.function.UnaryOperator;
import picocli.CommandLine.Option;

/**
 * A subcommand that reads a configuration file: loads it, runs, closes it, and turns every failure
 * into one masked line on standard error and an {@link ExitCode}.
 */
abstract class ConfiguredCommand implements Callable<Integer> {

  @Option(
      names = "--config",
      required = true,
      paramLabel = "FILE",
      description = "The configuration file (see examples/fenceline.yaml).")
  Path configFile;

  @Option(
      names = "--json",
      description = "Print one JSON document on standard output instead of text.")
  boolean json;

  @Option(
      names = {"-h", "--help"},
      usageHelp = true,
      description = "Show this help, with the exit statuses.")
  boolean help;

  final PrintStream out;
  final PrintStream err;

  ConfiguredCommand(PrintStream out, PrintStream err) {
    this.out = out;
    this.err = err;
  }

  /**
   * True if the command only looks: its stores then open {@linkplain FencelineConfig#forReading for
   * reading} (no tables created, no write lock taken). False by default.
   */
  boolean readOnly() {
    return false;
  }

  /** The subcommand's name, for messages and the JSON document. */
  abstract String name();

  /**
   * Does the work with the loaded configuration, adding what it finds to {@code report}.
   *
   * @return the exit status on success, the {@link ExitCode#code()} of an {@link ExitCode} (usually
   *     {@link ExitCode#OK}); any other number is a bug, reported as {@link ExitCode#FAILURE}
   * @throws CommandFailure for a failure with a known exit status
   */
  abstract int execute(FencelineConfig config, Report report);

  /**
   * Prints what the command found: with {@code --json} the JSON document on standard output, else
   * the text lines there. {@code exit} is the status the process exits with.
   */
  void print(Report report, ExitCode exit, String error, UnaryOperator<String> mask) {
    report.print(out, json, exit, error, mask);
  }

  @Override
  public final Integer call() {
    Report report = new Report(name());
    FencelineConfig config = null;
    UnaryOperator<String> mask = UnaryOperator.identity();
    try {
      config = FencelineConfig.load(configFile);
      if (readOnly()) {
        config.forReading();
      }
      mask = config::mask;
      int status = execute(config, report);
      closeQuietly(config, mask);
      config = null;
      // One value for the document and the process: they cannot disagree, also when a signal
      // arrives meanwhile (see Interruption#report).
      ExitCode exit = ExitCode.of(status);
      UnaryOperator<String> masking = mask;
      return Interruption.process()
          .report(exit.code(), () -> printed(() -> print(report, exit, null, masking)));
    } catch (RuntimeException e) {
      CommandFailure failure = classify(e);
      if (config != null) {
        closeQuietly(config, mask);
      }
      String message = oneLine(mask.apply(failure.getMessage()));
      UnaryOperator<String> masking = mask;
      return Interruption.process()
          .report(
              failure.exitCode().code(),
              () ->
                  printed(
                      () -> {
                        if (!failure.alreadyOnStandardError()) {
                          err.println("fenceline: " + message);
                        }
                        failure.details().forEach(report::put);
                        print(report, failure.exitCode(), message, masking);
                      }));
    }
  }

  /** Runs {@code print}, then flushes both streams: the JVM may halt right after. */
  private void printed(Runnable print) {
    try {
      print.run();
    } finally {
      out.flush();
      err.flush();
    }
  }

  private void closeQuietly(FencelineConfig config, UnaryOperator<String> mask) {
    try {
      config.close();
    } catch (RuntimeException e) {
      if (!json) {
        err.println("fenceline: " + oneLine(mask.apply(String.valueOf(e.getMessage()))));
      }
    }
  }

  /** Maps a failure to its exit status; the message is the exception's, which names the fix. */
  CommandFailure classify(RuntimeException e) {
    if (e instanceof CommandFailure failure) {
      return failure;
    }
    if (e instanceof ConfigurationException) {
      return new CommandFailure(
          ExitCode.BAD_CONFIG_OR_USAGE, e.getMessage(), java.util.Map.of(), e);
    }
    if (e instanceof StoreException store) {
      return new CommandFailure(
          store.outcomeUnknown() ? ExitCode.OUTCOME_UNKNOWN : ExitCode.STORE_UNREACHABLE,
          e.getMessage(),
          java.util.Map.of(),
          e);
    }
    if (e instanceof LeaseLostException) {
      return new CommandFailure(ExitCode.LEASE_LOST, e.getMessage(), java.util.Map.of(), e);
    }
    if (e instanceof dev.fenceline.spi.FencelineException) {
      return new CommandFailure(ExitCode.FAILURE, e.getMessage(), java.util.Map.of(), e);
    }
    return new CommandFailure(
        ExitCode.FAILURE,
        "Cannot run fenceline "
            + name()
            + ": "
            + e
            + " (this is a bug in fenceline; please report it)",
        java.util.Map.of(),
        e);
  }

  static String oneLine(String text) {
    return String.valueOf(text).replaceAll("\\s*[\\r\\n]+\\s*", " ").strip();
  }

  /** The resource named on the command line, or a usage failure naming the rule. */
  static ResourceId resource(String option, String value) {
    try {
      return ResourceId.of(value);
    } catch (IllegalArgumentException e) {
      throw new CommandFailure(
          ExitCode.BAD_CONFIG_OR_USAGE,
          "Cannot use " + option + " " + Options.quote(value) + ": " + e.getMessage());
    }
  }

  /** The operation named on the command line, or a usage failure naming the rule. */
  static OperationId operation(String value) {
    try {
      return OperationId.of(value);
    } catch (IllegalArgumentException e) {
      throw new CommandFailure(
          ExitCode.BAD_CONFIG_OR_USAGE,
          "Cannot use --operation " + Options.quote(value) + ": " + e.getMessage());
    }
  }
}
