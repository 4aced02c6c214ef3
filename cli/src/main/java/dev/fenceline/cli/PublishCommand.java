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
import dev.fenceline.config.Strategy;
import dev.fenceline.core.Fenceline;
import dev.fenceline.core.HeldLease;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.WriteOutcome;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code fenceline publish}: acquire, register, publish one file streamed, print the receipt. */
@Command(
    name = "publish",
    description = {
      "Publish FILE (or standard input with -) to destination D under the lease on resource R:"
          + " acquire the lease (exit 4 at once if another holder has it), register its epoch at"
          + " the destination, publish the file streamed, and print the outcome and receipt.",
      "Publishing the same operation again prints the first receipt and says it was already"
          + " applied; the file is then only hashed, not uploaded again (a different file for the"
          + " same operation is refused). A progress indicator is shown for large files when"
          + " standard output is a terminal.",
      "Ctrl-C, SIGTERM or SIGHUP while publishing stop the upload, remove the partial staged"
          + " file, release the lease and print one line saying whether anything was published;"
          + " fenceline then exits 130 (SIGINT), 143 (SIGTERM) or 129 (SIGHUP)."
    })
final class PublishCommand extends ConfiguredCommand {

  @Option(
      names = "--destination",
      required = true,
      paramLabel = "D",
      description = "A destination of the configuration file.")
  String destination;

  @Option(
      names = "--resource",
      required = true,
      paramLabel = "R",
      description = "The resource whose lease fences the publish, e.g. nightly-report.")
  String resource;

  @Option(
      names = "--operation",
      required = true,
      paramLabel = "OP",
      description = "The operation ID: the same ID publishes once, e.g. report-2026-10-27.")
  String operation;

  @Parameters(
      index = "0",
      paramLabel = "FILE|-",
      description = "The file, or - for standard input.")
  String file;

  final InputStream in;

  PublishCommand(InputStream in, PrintStream out, PrintStream err) {
    super(out, err);
    this.in = in;
  }

  @Override
  String name() {
    return "publish";
  }

  @Override
  int execute(FencelineConfig config, Report report) {
    ResourceId resourceId = resource("--resource", resource);
    OperationId operationId = operation(operation);
    Path source = file.equals("-") ? null : readable(file);
    ConfiguredDestination target = config.destination(destination);
    Fenceline fenceline = config.fenceline();
    report
        .put("destination", target.name())
        .put("resource", resourceId.value())
        .put("operation", operationId.value());
    boolean progress = !json && ProgressInputStream.stdoutIsTerminal();
    try (HeldLease lease = Publishing.acquire(fenceline, config, resourceId)) {
      Interruption.process()
          .willPublish(
              source == null ? "standard input" : source.toString(), target.name(), operationId);
      report.put("epoch", lease.token().epoch().value());
      Publishing.register(fenceline, lease, target);
      WriteOutcome outcome;
      if (source != null) {
        outcome =
            Publishing.publish(config, target, lease.token(), operationId, source, progress, err);
      } else if (target.strategy() != Strategy.FENCED_AT_INTENT) {
        // Streamed as it comes, never spooled: a retry of an applied operation is answered after
        // hashing it, without uploading, and an interrupted upload can be stopped mid-way.
        outcome =
            Publishing.publish(
                config,
                target,
                lease.token(),
                operationId,
                standardInput(),
                "standard input",
                -1,
                progress,
                err);
      } else {
        // An HTTP request body is sent again on every attempt: it must be a file.
        Path spooled = spoolStandardInput();
        try {
          outcome =
              Publishing.publish(
                  config, target, lease.token(), operationId, spooled, progress, err);
        } finally {
          deleteQuietly(spooled);
        }
      }
      Publishing.print(outcome, report);
      Publishing.sweepAfter(config, target, resourceId, report, err);
      return ExitCode.OK.code();
    }
  }

  /**
   * Standard input; this process's own as a channel, so that a read blocked on a pipe returns when
   * an interruption closes it.
   */
  private InputStream standardInput() {
    if (in != System.in) {
      return in;
    }
    return java.nio.channels.Channels.newInputStream(
        new java.io.FileInputStream(java.io.FileDescriptor.in).getChannel());
  }

  private static Path readable(String file) {
    Path path;
    try {
      path = Path.of(file);
    } catch (java.nio.file.InvalidPathException e) {
      throw new CommandFailure(
          ExitCode.BAD_CONFIG_OR_USAGE,
          "Cannot publish " + Options.quote(file) + ": it is not a valid path, " + e.getReason());
    }
    if (!Files.isRegularFile(path) || !Files.isReadable(path)) {
      throw new CommandFailure(
          ExitCode.BAD_CONFIG_OR_USAGE,
          "Cannot publish "
              + Options.quote(file)
              + ": it is not a readable file (check the path, or pass - to read standard input)");
    }
    return path;
  }

  /** Copies standard input to a temporary file in chunks: it is never held whole in memory. */
  private Path spoolStandardInput() {
    Path spool = null;
    try {
      spool = Files.createTempFile("fenceline-publish-", ".stdin");
      spool.toFile().deleteOnExit(); // also when interrupted while reading standard input
      Files.copy(in, spool, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
      return spool;
    } catch (IOException e) {
      if (spool != null) {
        deleteQuietly(spool);
      }
      throw new CommandFailure(
          ExitCode.FAILURE,
          "Cannot read standard input to publish it: "
              + e.getMessage()
              + " (check the temporary directory "
              + System.getProperty("java.io.tmpdir")
              + " has space)");
    }
  }

  private static void deleteQuietly(Path file) {
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      // A leftover temporary file is harmless.
    }
  }
}
