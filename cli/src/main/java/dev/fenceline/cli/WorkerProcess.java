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

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A demo worker running as a child JVM, seen from the orchestrator: its protocol lines (read by a
 * daemon thread into a queue, so every wait has a deadline), its standard input, its standard error
 * (captured to a log file), and POSIX job control with {@code kill -STOP} / {@code kill -CONT}.
 * Closing it ends the process: continued first if stopped, then killed.
 */
final class WorkerProcess implements AutoCloseable {

  /** One event from the worker's standard output; {@code line == null} means end of stream. */
  private record Event(String line) {}

  private static final Duration STOP_CONFIRMATION = Duration.ofSeconds(5);

  private final String name;
  private final Process process;
  private final Path stderrLog;
  private final BlockingQueue<Event> events = new LinkedBlockingQueue<>();
  private final List<String> transcript = Collections.synchronizedList(new ArrayList<>());
  private final Writer stdin;
  private volatile boolean stopped;

  private WorkerProcess(String name, Process process, Path stderrLog) {
    this.name = name;
    this.process = process;
    this.stderrLog = stderrLog;
    this.stdin = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
    Thread reader = new Thread(this::pump, "fenceline-demo-worker-" + name + "-stdout");
    reader.setDaemon(true);
    reader.start();
  }

  /**
   * Starts {@code java -cp <this class path> dev.fenceline.cli.Main worker ARGS} with the same Java
   * binary as this JVM.
   *
   * @param name the worker's name, for messages
   * @param workerArgs the arguments after {@code worker}
   * @param stderrLog where the worker's standard error goes
   * @throws DemoFailure if the process cannot be started
   */
  static WorkerProcess start(String name, List<String> workerArgs, Path stderrLog) {
    List<String> command = new ArrayList<>();
    command.add(javaBinary());
    // Small, quick-starting JVMs: the workers do little work.
    command.add("-XX:+UseSerialGC");
    command.add("-XX:TieredStopAtLevel=1");
    command.add("-Xshare:auto");
    if (Runtime.version().feature() >= 22) {
      command.add("--enable-native-access=ALL-UNNAMED"); // sqlite-jdbc loads a native library
    }
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(Main.class.getName());
    command.add("worker");
    command.addAll(workerArgs);
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .redirectOutput(ProcessBuilder.Redirect.PIPE)
            .redirectInput(ProcessBuilder.Redirect.PIPE)
            .redirectError(stderrLog.toFile());
    try {
      return new WorkerProcess(name, builder.start(), stderrLog);
    } catch (IOException e) {
      throw new DemoFailure(
          "Cannot start worker "
              + name
              + " ("
              + command.get(0)
              + "): "
              + e.getMessage()
              + " (check that the java binary of this JVM is still executable)",
          e);
    }
  }

  private static String javaBinary() {
    return ProcessHandle.current()
        .info()
        .command()
        .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
  }

  /** The worker's name. */
  String name() {
    return name;
  }

  /** The worker's process ID. */
  long pid() {
    return process.pid();
  }

  /**
   * Waits for the next line tagged {@code tag}, skipping other lines.
   *
   * @throws DemoFailure if the worker reports {@code ERROR}, exits first, or {@code timeout} passes
   */
  WorkerLine await(String tag, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      long left = deadline - System.nanoTime();
      Event event;
      try {
        event = left > 0 ? events.poll(left, TimeUnit.NANOSECONDS) : null;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new DemoFailure("Cannot wait for worker " + name + ": interrupted", e);
      }
      if (event == null) {
        throw new DemoFailure(
            "Cannot wait for "
                + tag
                + " from worker "
                + name
                + " (pid "
                + pid()
                + "): nothing within "
                + timeout.toMillis()
                + " ms (see its log "
                + stderrLog
                + ")");
      }
      if (event.line() == null) {
        events.add(event); // keep the end of stream visible to later waits
        throw new DemoFailure(
            "Cannot wait for "
                + tag
                + " from worker "
                + name
                + ": it closed its output"
                + exitDescription()
                + " (see its log "
                + stderrLog
                + ")");
      }
      WorkerLine line = WorkerLine.parse(event.line());
      if (line.tag().equals(WorkerLine.ERROR)) {
        throw new DemoFailure("Worker " + name + " failed: " + line.text());
      }
      if (line.tag().equals(tag)) {
        return line;
      }
    }
  }

  /**
   * Writes one line to the worker's standard input. The pipe buffers it while the worker is
   * stopped.
   *
   * @throws DemoFailure if the pipe is closed
   */
  void send(String line) {
    try {
      stdin.write(line + "\n");
      stdin.flush();
    } catch (IOException e) {
      throw new DemoFailure(
          "Cannot write to worker " + name + ": " + e.getMessage() + exitDescription(), e);
    }
  }

  /**
   * Freezes the whole worker JVM, every thread of it, with SIGSTOP, and waits until the kernel
   * reports it stopped (where {@code /proc} shows it).
   */
  void stop() {
    signal("STOP");
    stopped = true;
    awaitStoppedState();
  }

  /** Lets a stopped worker continue with SIGCONT. */
  void resume() {
    signal("CONT");
    stopped = false;
  }

  /**
   * Waits for the worker to exit.
   *
   * @return its exit status
   * @throws DemoFailure if it does not exit within {@code timeout}
   */
  int awaitExit(Duration timeout) {
    try {
      if (!process.waitFor(timeout.toNanos(), TimeUnit.NANOSECONDS)) {
        throw new DemoFailure(
            "Cannot wait for worker "
                + name
                + " (pid "
                + pid()
                + ") to exit: still running after "
                + timeout.toMillis()
                + " ms (see its log "
                + stderrLog
                + ")");
      }
      return process.exitValue();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new DemoFailure("Cannot wait for worker " + name + " to exit: interrupted", e);
    }
  }

  /** Every line the worker printed on standard output so far. */
  List<String> transcript() {
    synchronized (transcript) {
      return List.copyOf(transcript);
    }
  }

  /** The worker's standard error so far, or a note if it cannot be read. */
  String stderr() {
    try {
      return Files.readString(stderrLog, StandardCharsets.UTF_8);
    } catch (IOException | UncheckedIOException e) {
      return "(cannot read " + stderrLog + ": " + e.getMessage() + ")";
    }
  }

  /** The file that holds the worker's standard error. */
  Path stderrLog() {
    return stderrLog;
  }

  /** Ends the worker if it still runs: SIGCONT if it is stopped, then kill, bounded waits. */
  @Override
  public void close() {
    if (process.isAlive()) {
      if (stopped) {
        try {
          resume();
        } catch (DemoFailure e) {
          // Killing below works on a stopped process too.
        }
      }
      process.destroyForcibly();
      try {
        process.waitFor(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    try {
      stdin.close();
    } catch (IOException e) {
      // The process is gone; nothing left to flush.
    }
  }

  private void pump() {
    try (BufferedReader out =
        new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = out.readLine()) != null) {
        transcript.add(line);
        events.add(new Event(line));
      }
    } catch (IOException e) {
      transcript.add("(output unreadable: " + e.getMessage() + ")");
    } finally {
      events.add(new Event(null));
    }
  }

  private void signal(String signal) {
    ProcessBuilder kill =
        new ProcessBuilder("kill", "-" + signal, Long.toString(pid()))
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD);
    int status;
    try {
      Process running = kill.start();
      if (!running.waitFor(10, TimeUnit.SECONDS)) {
        running.destroyForcibly();
        throw new DemoFailure(
            "Cannot send SIG" + signal + " to worker " + name + ": kill did not return in 10 s");
      }
      status = running.exitValue();
    } catch (IOException e) {
      throw new DemoFailure(
          "Cannot send SIG"
              + signal
              + " to worker "
              + name
              + " (pid "
              + pid()
              + "): "
              + e.getMessage()
              + " (the demo needs a POSIX system with kill on the PATH)",
          e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new DemoFailure("Cannot send SIG" + signal + " to worker " + name + ": interrupted", e);
    }
    if (status != 0) {
      throw new DemoFailure(
          "Cannot send SIG"
              + signal
              + " to worker "
              + name
              + " (pid "
              + pid()
              + "): kill exited with status "
              + status
              + exitDescription()
              + " (see its log "
              + stderrLog
              + ")");
    }
  }

  /**
   * Waits until {@code /proc/PID/stat} shows state {@code T} (stopped). Where there is no {@code
   * /proc} this returns at once: the signal is delivered long before the lease can expire anyway.
   */
  private void awaitStoppedState() {
    Path stat = Path.of("/proc", Long.toString(pid()), "stat");
    if (!Files.isReadable(stat)) {
      return;
    }
    long deadline = System.nanoTime() + STOP_CONFIRMATION.toNanos();
    while (System.nanoTime() - deadline < 0) {
      String state = procState(stat);
      if (state == null || state.equals("T") || state.equals("t")) {
        return; // gone (reported later) or stopped
      }
      LockSupport.parkNanos(Duration.ofMillis(2).toNanos());
    }
    throw new DemoFailure(
        "Cannot stop worker "
            + name
            + " (pid "
            + pid()
            + "): it is not in the stopped state "
            + STOP_CONFIRMATION.toSeconds()
            + " s after SIGSTOP (is it being traced?)");
  }

  private static String procState(Path stat) {
    try {
      String text = Files.readString(stat, StandardCharsets.UTF_8);
      // "pid (comm) S ...": comm may hold spaces and parentheses, so look after the last ')'.
      int close = text.lastIndexOf(')');
      String rest = text.substring(close + 1).strip();
      return rest.isEmpty() ? null : rest.substring(0, 1);
    } catch (IOException | UncheckedIOException e) {
      return null;
    }
  }

  private String exitDescription() {
    if (process.isAlive()) {
      return "";
    }
    return ", exit status " + process.exitValue();
  }
}
