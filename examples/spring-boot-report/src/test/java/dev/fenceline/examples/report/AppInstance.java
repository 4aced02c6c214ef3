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
package dev.fenceline.examples.report;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One instance of the example application in its own JVM (this test's class path), seen from the
 * test: its output lines with deadlines, one line to its standard input, and SIGSTOP / SIGCONT for
 * the whole JVM. Closing it ends the process (continued first if stopped).
 */
final class AppInstance implements AutoCloseable {

  private static final String END = "\u0000end of output";

  private final String name;
  private final Process process;
  private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
  private final List<String> transcript = new ArrayList<>();
  private volatile boolean stopped;

  private AppInstance(String name, Process process) {
    this.name = name;
    this.process = process;
    Thread pump = new Thread(this::pump, "example-" + name + "-output");
    pump.setDaemon(true);
    pump.start();
  }

  /** Starts {@code java -cp <class path> NightlyReportApplication ARGS}. */
  static AppInstance start(String name, List<String> args) throws IOException {
    List<String> command = new ArrayList<>();
    command.add(
        ProcessHandle.current()
            .info()
            .command()
            .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
    command.add("-XX:TieredStopAtLevel=1");
    command.add("-XX:+UseSerialGC");
    if (Runtime.version().feature() >= 22) {
      command.add("--enable-native-access=ALL-UNNAMED"); // sqlite-jdbc loads a native library
    }
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(NightlyReportApplication.class.getName());
    command.addAll(args);
    Process process =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectInput(ProcessBuilder.Redirect.PIPE)
            .start();
    return new AppInstance(name, process);
  }

  /**
   * Waits for an output line matching {@code pattern}, skipping others.
   *
   * @throws AssertionError naming the instance's output so far, if the process ends first or
   *     nothing matches within {@code timeout}
   */
  Matcher await(Pattern pattern, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      String line = lines.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      if (line == null || line.equals(END)) {
        if (line != null) {
          lines.add(END);
        }
        throw new AssertionError(
            "Instance "
                + name
                + (line == null ? " printed no line matching " : " ended before printing ")
                + pattern
                + " within "
                + timeout.toSeconds()
                + " s; its output:\n"
                + output());
      }
      Matcher matcher = pattern.matcher(line);
      if (matcher.find()) {
        return matcher;
      }
    }
  }

  /** Writes one line to the instance's standard input. */
  void send(String line) throws IOException {
    OutputStream in = process.getOutputStream();
    in.write((line + "\n").getBytes(UTF_8));
    in.flush();
  }

  /** Freezes every thread of the JVM with SIGSTOP and waits until the kernel shows it stopped. */
  void freeze() throws IOException, InterruptedException {
    signal("STOP");
    stopped = true;
    Path stat = Path.of("/proc", Long.toString(process.pid()), "stat");
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (Files.isReadable(stat) && !state(stat).equals("T")) {
      if (System.nanoTime() - deadline > 0) {
        throw new AssertionError("Instance " + name + " is not stopped 10 s after SIGSTOP");
      }
      LockSupport.parkNanos(Duration.ofMillis(2).toNanos());
    }
  }

  /** Lets a frozen JVM continue with SIGCONT. */
  void resume() throws IOException, InterruptedException {
    signal("CONT");
    stopped = false;
  }

  /**
   * Writes everything the instance printed to {@code target/instances/<name>.log} of the working
   * directory (the module, under Maven), for reading after the build.
   */
  void keepLog() throws IOException {
    Path log = Path.of("target", "instances", name + ".log");
    Files.createDirectories(log.getParent());
    Files.writeString(log, output() + "\n", UTF_8);
  }

  /** Everything the instance printed so far. */
  String output() {
    synchronized (transcript) {
      return String.join("\n", transcript);
    }
  }

  @Override
  public void close() throws IOException, InterruptedException {
    try {
      end();
    } finally {
      keepLog();
    }
  }

  private void end() throws IOException, InterruptedException {
    if (process.isAlive()) {
      if (stopped) {
        resume();
      }
      process.destroy(); // SIGTERM: Spring closes the context and releases what it holds
      if (!process.waitFor(20, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    }
  }

  private void signal(String signal) throws IOException, InterruptedException {
    Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).start();
    if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
      throw new AssertionError("kill -" + signal + " of instance " + name + " failed");
    }
  }

  private static String state(Path stat) {
    try {
      String text = Files.readString(stat, UTF_8);
      // "pid (comm) S ...": the state follows the last ')'.
      return text.substring(text.lastIndexOf(')') + 1).strip().substring(0, 1);
    } catch (IOException | UncheckedIOException | StringIndexOutOfBoundsException e) {
      return "T"; // gone: the next wait reports the exit
    }
  }

  private void pump() {
    try (BufferedReader out =
        new BufferedReader(new InputStreamReader(process.getInputStream(), UTF_8))) {
      String line;
      while ((line = out.readLine()) != null) {
        synchronized (transcript) {
          transcript.add(line);
        }
        lines.add(line);
      }
    } catch (IOException e) {
      synchronized (transcript) {
        transcript.add("(output unreadable: " + e.getMessage() + ")");
      }
    } finally {
      lines.add(END);
    }
  }
}
