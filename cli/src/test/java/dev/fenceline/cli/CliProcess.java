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

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * {@code fenceline ...} as a new user runs it: a separate JVM on the test class path, its standard
 * output and error read line by line, so a test can wait for a line instead of sleeping.
 */
final class CliProcess implements AutoCloseable {

  /** What a finished command printed. */
  record Result(int exitCode, String out, String err) {
    List<String> errLines() {
      return err.lines().toList();
    }

    String transcript() {
      return "exit " + exitCode + "\nstdout:\n" + out + "\nstderr:\n" + err;
    }
  }

  private static final String END = new String("end of stream");

  private final Process process;
  private final BlockingQueue<String> outLines = new LinkedBlockingQueue<>();
  private final BlockingQueue<String> errLines = new LinkedBlockingQueue<>();
  private final List<String> out = Collections.synchronizedList(new ArrayList<>());
  private final List<String> err = Collections.synchronizedList(new ArrayList<>());
  private final Thread outPump;
  private final Thread errPump;

  private CliProcess(Process process) {
    this.process = process;
    this.outPump = pump(process.getInputStream(), outLines, out);
    this.errPump = pump(process.getErrorStream(), errLines, err);
  }

  /** Starts {@code fenceline args...} with {@code environment} added; standard input is empty. */
  static CliProcess start(Map<String, String> environment, String... args) {
    return start(environment, null, args);
  }

  /**
   * As {@link #start(Map, String...)}, with standard input a pipe the test writes to ({@link
   * #input()}).
   */
  static CliProcess startPiped(Map<String, String> environment, String... args) {
    return start(environment, PIPED, args);
  }

  /** The process's standard input, after {@link #startPiped}. */
  java.io.OutputStream input() {
    return process.getOutputStream();
  }

  private static final Path PIPED = Path.of("piped standard input");

  /** As {@link #start(Map, String...)}, with standard input read from {@code stdin}. */
  static CliProcess start(Map<String, String> environment, Path stdin, String... args) {
    return start(null, List.of(), List.of(), environment, stdin, args);
  }

  /**
   * Runs {@code fenceline args...} to the end in {@code workingDirectory}, with the variables
   * {@code unset} removed from the inherited environment and {@code environment} added, the command
   * line prefixed with {@code wrapper} (such as {@code unshare ...}, which must exec the rest).
   */
  static Result run(
      Path workingDirectory,
      List<String> wrapper,
      List<String> unset,
      Map<String, String> environment,
      String... args) {
    try (CliProcess cli = start(workingDirectory, wrapper, unset, environment, null, args)) {
      return cli.waitFor(Duration.ofSeconds(60));
    }
  }

  private static CliProcess start(
      Path workingDirectory,
      List<String> wrapper,
      List<String> unset,
      Map<String, String> environment,
      Path stdin,
      String... args) {
    List<String> command = new ArrayList<>(wrapper);
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
    if (workingDirectory != null) {
      builder.directory(workingDirectory.toFile());
    }
    builder.environment().keySet().removeIf(name -> name.startsWith("FENCELINE_"));
    builder.environment().keySet().removeAll(unset);
    builder.environment().putAll(environment);
    builder.redirectInput(
        stdin == null
            ? ProcessBuilder.Redirect.from(nullFile())
            : stdin == PIPED
                ? ProcessBuilder.Redirect.PIPE
                : ProcessBuilder.Redirect.from(stdin.toFile()));
    try {
      return new CliProcess(builder.start());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Runs {@code fenceline args...} to the end. */
  static Result run(Map<String, String> environment, String... args) {
    try (CliProcess cli = start(environment, args)) {
      return cli.waitFor(Duration.ofSeconds(60));
    }
  }

  private static java.io.File nullFile() {
    return new java.io.File(
        System.getProperty("os.name").startsWith("Windows") ? "NUL" : "/dev/null");
  }

  private static Thread pump(InputStream stream, BlockingQueue<String> lines, List<String> all) {
    Thread thread =
        new Thread(
            () -> {
              try (BufferedReader reader =
                  new BufferedReader(new InputStreamReader(stream, UTF_8))) {
                String line;
                while ((line = reader.readLine()) != null) {
                  all.add(line);
                  lines.add(line);
                }
              } catch (IOException e) {
                // The process ended.
              } finally {
                lines.add(END);
              }
            },
            "cli-process-pump");
    thread.setDaemon(true);
    thread.start();
    return thread;
  }

  long pid() {
    return process.pid();
  }

  /** Waits for the next standard output line matching {@code wanted}; fails on end or timeout. */
  String awaitOut(Predicate<String> wanted, Duration timeout) {
    return await(outLines, wanted, timeout, "standard output");
  }

  /** Waits for the next standard error line matching {@code wanted}; fails on end or timeout. */
  String awaitErr(Predicate<String> wanted, Duration timeout) {
    return await(errLines, wanted, timeout, "standard error");
  }

  private String await(
      BlockingQueue<String> lines, Predicate<String> wanted, Duration timeout, String stream) {
    long deadline = System.nanoTime() + timeout.toNanos();
    try {
      while (true) {
        String line = lines.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
        if (line == null || line == END) {
          throw new AssertionError(
              "no expected line on "
                  + stream
                  + (line == null ? " within " + timeout : " before it ended")
                  + "\nstdout:\n"
                  + String.join("\n", out)
                  + "\nstderr:\n"
                  + String.join("\n", err));
        }
        if (wanted.test(line)) {
          return line;
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    }
  }

  /** Waits for the exit (a failure detector: {@code timeout} is never expected to pass). */
  /** True while the process runs. */
  boolean isAlive() {
    return process.isAlive();
  }

  Result waitFor(Duration timeout) {
    try {
      if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        throw new AssertionError(
            "fenceline did not exit within "
                + timeout
                + "\nstdout:\n"
                + String.join("\n", out)
                + "\nstderr:\n"
                + String.join("\n", err));
      }
      outPump.join(timeout.toMillis());
      errPump.join(timeout.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    }
    synchronized (out) {
      synchronized (err) {
        return new Result(
            process.exitValue(),
            String.join("\n", out) + (out.isEmpty() ? "" : "\n"),
            String.join("\n", err) + (err.isEmpty() ? "" : "\n"));
      }
    }
  }

  @Override
  public void close() {
    process.descendants().forEach(ProcessHandle::destroyForcibly);
    process.destroyForcibly();
  }
}
