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
import dev.fenceline.spi.ResourceId;
import dev.fenceline.staging.BlobVerificationException;
import dev.fenceline.staging.PublishedBlob;
import dev.fenceline.staging.StagedDestination;
import dev.fenceline.staging.VersionUnavailableException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code fenceline read}: the published version of a resource at a staged destination, verified
 * against the size and SHA-256 recorded at publish, to standard output or a file. Nothing partial
 * is left behind on a mismatch: a file is written next to its target and moved into place only once
 * verified; standard output gets the first byte only after the whole blob was verified.
 */
@Command(
    name = "read",
    description = {
      "Read what destination D published for resource R (the current version, or version N),"
          + " checked against the size and SHA-256 recorded when it was published. This is the"
          + " fenced way to consume a staged destination: never read its .fenceline/staging"
          + " area directly.",
      "To standard output (the default, or --output -) the whole file is verified first and"
          + " then streamed (two reads), so a changed file prints nothing. With --output FILE it"
          + " is streamed once to a temporary file in FILE's directory and moved onto FILE only"
          + " after it verified, so FILE is either the complete published file or untouched.",
      "--json prints the metadata (version, epoch, operation, size, sha256) as one JSON document"
          + " on standard output; it needs --output FILE, since standard output holds the file"
          + " otherwise. Exits 1 if nothing is published yet, the version is gone (swept) or the"
          + " file does not match what was published."
    })
final class ReadCommand extends ConfiguredCommand {

  private static final SecureRandom RANDOM = new SecureRandom();

  @Option(
      names = "--destination",
      required = true,
      paramLabel = "D",
      description = "A staged destination of the configuration file.")
  String destination;

  @Option(
      names = "--resource",
      required = true,
      paramLabel = "R",
      description = "The resource to read, e.g. nightly-report.")
  String resource;

  @Option(
      names = "--version",
      paramLabel = "N",
      description =
          "Read pointer version N instead of the current one (an older version is readable while"
              + " it is among the newest keep-versions; see fenceline status).")
  Long version;

  @Option(
      names = "--output",
      paramLabel = "FILE|-",
      defaultValue = "-",
      description = "Write to FILE (replaced only once verified) instead of standard output (-).")
  String output;

  ReadCommand(PrintStream out, PrintStream err) {
    super(out, err);
  }

  @Override
  String name() {
    return "read";
  }

  @Override
  int execute(FencelineConfig config, Report report) {
    ResourceId resourceId = resource("--resource", resource);
    if (version != null && version < 1) {
      throw usage(
          "Cannot use --version "
              + version
              + ": versions start at 1 (see fenceline status "
              + resourceId
              + " --destination D for the current one)");
    }
    boolean toStandardOutput = output.equals("-");
    if (json && toStandardOutput) {
      throw usage(
          "Cannot print --json while the file goes to standard output: both would be written"
              + " there (add --output FILE, or drop --json)");
    }
    Path target = toStandardOutput ? null : outputPath(output);
    ConfiguredDestination configured = config.destination(destination);
    StagedDestination staged =
        configured
            .staged()
            .orElseThrow(
                () ->
                    usage(
                        "Cannot read "
                            + resourceId
                            + " from destination "
                            + configured.name()
                            + ": it is of type "
                            + configured.type()
                            + ", and read supports staged destinations only (files published"
                            + " through a pointer store; name one of those)"));
    report.put("destination", configured.name()).put("resource", resourceId.value());
    PublishedBlob blob = published(staged, configured.name(), resourceId);
    report
        .put("version", blob.version())
        .put("epoch", blob.epoch().value())
        .put("operation", blob.operation().value())
        .put("size", blob.size())
        .put("sha256", blob.sha256())
        .put("output", toStandardOutput ? "-" : target.toString());
    if (toStandardOutput) {
      toStandardOutput(staged, blob, configured.name());
    } else {
      toFile(staged, blob, configured.name(), target);
      report.line(
          "read "
              + resourceId
              + " version "
              + blob.version()
              + " (operation "
              + blob.operation()
              + ", epoch "
              + blob.epoch()
              + ", "
              + blob.size()
              + " bytes, sha256 "
              + blob.sha256()
              + ") from "
              + configured.name()
              + " to "
              + target);
    }
    return ExitCode.OK.code();
  }

  /** The version asked for, its blob checked to exist with the published size. */
  private PublishedBlob published(StagedDestination staged, String name, ResourceId resourceId) {
    try {
      if (version != null) {
        return staged.resolveVersion(resourceId, version);
      }
      Optional<PublishedBlob> current = staged.resolve(resourceId);
      return current.orElseThrow(
          () ->
              new CommandFailure(
                  ExitCode.FAILURE,
                  "Cannot read "
                      + resourceId
                      + " from "
                      + name
                      + ": nothing published yet for "
                      + resourceId
                      + " at "
                      + name
                      + " (publish it first, with fenceline publish --destination "
                      + name
                      + " --resource "
                      + resourceId
                      + ")"));
    } catch (VersionUnavailableException e) {
      throw new CommandFailure(ExitCode.FAILURE, e.getMessage(), java.util.Map.of(), e);
    }
  }

  /** Verifies the whole blob, then streams it: a mismatch found first prints nothing. */
  private void toStandardOutput(StagedDestination staged, PublishedBlob blob, String name) {
    long written = 0;
    try (InputStream in = staged.openVerified(blob.resource(), blob.version())) {
      byte[] buffer = new byte[64 * 1024];
      int read;
      while ((read = in.read(buffer)) >= 0) {
        out.write(buffer, 0, read);
        written += read;
        if (out.checkError()) {
          throw new CommandFailure(
              ExitCode.FAILURE,
              "Cannot write "
                  + blob.resource()
                  + " to standard output: writing failed after "
                  + written
                  + " bytes (the reader closed it early?)");
        }
      }
      out.flush();
      if (out.checkError()) {
        throw new CommandFailure(
            ExitCode.FAILURE,
            "Cannot write " + blob.resource() + " to standard output: flushing failed");
      }
    } catch (VersionUnavailableException e) {
      throw new CommandFailure(ExitCode.FAILURE, e.getMessage(), java.util.Map.of(), e);
    } catch (BlobVerificationException e) {
      out.flush();
      throw new CommandFailure(
          ExitCode.FAILURE,
          oneLine(e.getMessage())
              + (written == 0
                  ? "; nothing was written to standard output"
                  : "; it changed while being read, and "
                      + written
                      + " bytes were already written to standard output: discard them"),
          java.util.Map.of(),
          e);
    } catch (IOException e) {
      throw new CommandFailure(
          ExitCode.FAILURE,
          "Cannot read " + blob.resource() + " from " + name + ": " + e + " (retry)",
          java.util.Map.of(),
          e);
    }
  }

  /** Streams the blob to a new file next to {@code target}, and moves it there once verified. */
  private static void toFile(
      StagedDestination staged, PublishedBlob blob, String name, Path target) {
    Path directory = target.getParent();
    if (Files.isDirectory(target)) {
      throw usage("Cannot write to --output " + target + ": it is a directory (name a file)");
    }
    if (!Files.isDirectory(directory)) {
      throw usage(
          "Cannot write to --output "
              + target
              + ": directory "
              + directory
              + " does not exist (create it first)");
    }
    Path part = createPart(directory, target);
    // A signal halts the JVM without running the finally below: the JDK's exit hook deletes the
    // part then (after the move the name no longer exists, so it deletes nothing).
    part.toFile().deleteOnExit();
    boolean moved = false;
    try {
      try (InputStream in = staged.open(blob.resource(), blob.version());
          FileChannel channel = FileChannel.open(part, StandardOpenOption.WRITE);
          OutputStream to = Channels.newOutputStream(channel)) {
        in.transferTo(to); // verified as it goes: a mismatch throws before the move
        channel.force(true);
      }
      Files.move(part, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      moved = true;
    } catch (VersionUnavailableException e) {
      throw new CommandFailure(ExitCode.FAILURE, e.getMessage(), java.util.Map.of(), e);
    } catch (BlobVerificationException e) {
      throw new CommandFailure(
          ExitCode.FAILURE,
          oneLine(e.getMessage()) + "; " + target + " was not written",
          java.util.Map.of(),
          e);
    } catch (IOException e) {
      throw new CommandFailure(
          ExitCode.FAILURE,
          "Cannot write "
              + blob.resource()
              + " from "
              + name
              + " to "
              + target
              + ": "
              + e
              + " ("
              + target
              + " was not written; check that "
              + directory
              + " is writable and has space)",
          java.util.Map.of(),
          e);
    } finally {
      if (!moved) {
        try {
          Files.deleteIfExists(part);
        } catch (IOException e) {
          // Named in no message: a hidden .part file is harmless and never taken for the output.
        }
      }
    }
  }

  /**
   * A new, hidden file in {@code directory} for the download, created with the default permissions
   * (the umask), as the output file would be.
   */
  private static Path createPart(Path directory, Path target) {
    for (int attempt = 0; ; attempt++) {
      byte[] random = new byte[6];
      RANDOM.nextBytes(random);
      Path part =
          directory.resolve(
              "." + target.getFileName() + "." + HexFormat.of().formatHex(random) + ".part");
      try {
        return Files.createFile(part);
      } catch (FileAlreadyExistsException e) {
        if (attempt >= 10) {
          throw new CommandFailure(
              ExitCode.FAILURE, "Cannot create a temporary file in " + directory + ": " + e);
        }
      } catch (IOException e) {
        throw new CommandFailure(
            ExitCode.FAILURE,
            "Cannot write to "
                + target
                + ": cannot create a file in "
                + directory
                + ": "
                + e
                + " (check that it is writable)");
      }
    }
  }

  private static Path outputPath(String value) {
    try {
      if (value.isBlank()) {
        throw new InvalidPathException(value, "the path is empty");
      }
      return Path.of(value).toAbsolutePath().normalize();
    } catch (InvalidPathException e) {
      throw usage(
          "Cannot use --output "
              + Options.quote(value)
              + ": it is not a valid path, "
              + e.getReason()
              + " (name a file, or - for standard output)");
    }
  }

  private static CommandFailure usage(String message) {
    return new CommandFailure(ExitCode.BAD_CONFIG_OR_USAGE, message);
  }
}
