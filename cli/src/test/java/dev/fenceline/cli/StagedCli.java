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

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * What the read, sweep, prune and nightly-job tests share: a configuration on SQLite and a local
 * directory, publishing through the real command, and a look at the files on disk.
 */
final class StagedCli {

  static final Map<String, String> NO_ENV = Map.of();
  static final String RESOURCE = "nightly-report";

  private StagedCli() {}

  /**
   * Writes {@code dir/fenceline.yaml}: store {@code main} (SQLite, {@code mainKeys} added),
   * directory {@code reports-dir}, destination {@code reports} with {@code reportsKeys} added, and
   * {@code extra} at the end (more destinations or stores, indented as top-level YAML).
   */
  static Path config(Path dir, String mainKeys, String reportsKeys, String extra) {
    return write(dir, "lock-timeout: 5s\n" + mainKeys, "holder: shelf-test", reportsKeys, extra);
  }

  /**
   * Writes {@code dir/fenceline.yaml}: store {@code main} on {@code dir/fenceline.db} with {@code
   * mainKeys}, directory {@code reports-dir} on {@code dir/reports}, destination {@code reports},
   * and a {@code lease:} section of {@code leaseKeys} if there are any.
   */
  static Path localConfig(Path dir, String mainKeys, String leaseKeys) {
    return write(dir, mainKeys, leaseKeys, "", "");
  }

  private static Path write(
      Path dir, String mainKeys, String leaseKeys, String reportsKeys, String extra) {
    try {
      Files.createDirectories(dir.resolve("reports"));
      String lease = leaseKeys.isBlank() ? "" : "lease:\n" + indent(leaseKeys, 2);
      return Files.writeString(
          dir.resolve("fenceline.yaml"),
          "stores:\n"
              + "  main:\n"
              + "    type: jdbc\n"
              + "    url: jdbc:sqlite:"
              + dir.resolve("fenceline.db")
              + "\n"
              + indent(mainKeys, 4)
              + "  reports-dir:\n"
              + "    type: vfs\n"
              + "    uri: "
              + dir.resolve("reports").toUri()
              + "\n"
              + "issuer: main\n"
              + lease
              + "destinations:\n"
              + "  reports:\n"
              + "    store: reports-dir\n"
              + indent(reportsKeys, 4)
              + extra);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String indent(String keys, int spaces) {
    return keys.lines().map(line -> " ".repeat(spaces) + line).reduce("", (a, b) -> a + b + "\n");
  }

  /** {@code fenceline publish} of {@code file} as operation {@code operation}. */
  static CliProcess.Result publish(Path config, Path file, String operation, String... extra) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "publish",
                "--config",
                config.toString(),
                "--destination",
                "reports",
                "--resource",
                RESOURCE,
                "--operation",
                operation));
    args.addAll(List.of(extra));
    args.add(file.toString());
    return CliProcess.run(NO_ENV, args.toArray(String[]::new));
  }

  /** Every regular file under the staging area of {@code dir/reports}: published and orphans. */
  static List<Path> stagedFiles(Path dir) {
    Path staging = dir.resolve("reports").resolve(".fenceline").resolve("staging");
    if (!Files.isDirectory(staging)) {
      return List.of();
    }
    try (Stream<Path> files = Files.walk(staging)) {
      return files.filter(Files::isRegularFile).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** {@code size} bytes from a random stream seeded with {@code seed}: the same every run. */
  static byte[] randomBytes(long seed, int size) {
    byte[] bytes = new byte[size];
    new Random(seed).nextBytes(bytes);
    return bytes;
  }

  /**
   * Runs {@code fenceline args...} with its standard output going byte for byte to {@code stdout}
   * (CliProcess reads it as text lines); standard error is returned.
   */
  static CliProcess.Result runToFile(Path stdout, String... args) {
    List<String> command = new ArrayList<>();
    command.add(
        ProcessHandle.current()
            .info()
            .command()
            .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
    command.add("-XX:+UseSerialGC");
    command.add("-XX:TieredStopAtLevel=1");
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(Main.class.getName());
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().keySet().removeIf(name -> name.startsWith("FENCELINE_"));
    builder.redirectOutput(stdout.toFile());
    Path stderr = stdout.resolveSibling(stdout.getFileName() + ".stderr");
    builder.redirectError(stderr.toFile());
    builder.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
    try {
      Process process = builder.start();
      if (!process.waitFor(60, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new AssertionError("fenceline did not exit within 60 s: " + command);
      }
      String err = Files.readString(stderr, UTF_8);
      return new CliProcess.Result(process.exitValue(), "(" + stdout + ")", err);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    }
  }
}
