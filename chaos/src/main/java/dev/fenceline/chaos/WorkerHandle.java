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
package dev.fenceline.chaos;

import static java.util.concurrent.TimeUnit.NANOSECONDS;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * One worker JVM seen from the driver: its standard output read by a daemon thread (so every wait
 * has a deadline), standard input (closed to stop it), standard error in a log file, and SIGSTOP /
 * SIGCONT / SIGKILL. Closing it ends the process: continued first if paused, then killed.
 */
final class WorkerHandle implements AutoCloseable {

  private static final String END = "\u0000end";

  private final String name;
  private final int slot;
  private final int generation;
  private final Process process;
  private final Path log;
  private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
  private volatile boolean paused;

  private WorkerHandle(String name, int slot, int generation, Process process, Path log) {
    this.name = name;
    this.slot = slot;
    this.generation = generation;
    this.process = process;
    this.log = log;
    Thread reader = new Thread(this::pump, "chaos-driver-" + name + "-stdout");
    reader.setDaemon(true);
    reader.start();
  }

  /**
   * Starts a worker process.
   *
   * @throws ChaosRunException if it cannot be started
   */
  static WorkerHandle start(String name, int slot, int generation, List<String> command, Path log) {
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .redirectOutput(ProcessBuilder.Redirect.PIPE)
            .redirectInput(ProcessBuilder.Redirect.PIPE)
            .redirectError(log.toFile());
    try {
      return new WorkerHandle(name, slot, generation, builder.start(), log);
    } catch (IOException e) {
      throw new ChaosRunException(
          "Cannot start worker "
              + name
              + " ("
              + command.get(0)
              + "): "
              + e.getMessage()
              + " (check that the java binary is executable)",
          e);
    }
  }

  String name() {
    return name;
  }

  int slot() {
    return slot;
  }

  int generation() {
    return generation;
  }

  long pid() {
    return process.pid();
  }

  boolean isAlive() {
    return process.isAlive();
  }

  boolean isPaused() {
    return paused;
  }

  /**
   * Waits for {@code ready <nanoTime>}.
   *
   * @return the worker's nanoTime when it was ready
   * @throws ChaosRunException if the worker exits first, prints something else or is late
   */
  long awaitReady(Duration timeout) throws InterruptedException {
    String line = lines.poll(timeout.toNanos(), TimeUnit.NANOSECONDS);
    if (line == null) {
      throw new ChaosRunException(
          "Cannot start worker "
              + name
              + " (pid "
              + pid()
              + "): not ready within "
              + timeout.toSeconds()
              + " s (see "
              + log
              + tail()
              + ")");
    }
    if (line.equals(END)) {
      lines.add(END);
      throw new ChaosRunException(
          "Cannot start worker "
              + name
              + ": it exited before it was ready"
              + exitDescription()
              + " (see "
              + log
              + tail()
              + ")");
    }
    if (!line.startsWith("ready ")) {
      throw new ChaosRunException(
          "Cannot start worker " + name + ": it printed \"" + line + "\" instead of ready");
    }
    return Long.parseLong(line.substring("ready ".length()).strip());
  }

  /**
   * Sends one line of the worker's stdin protocol (see {@link ChaosWorker}); forgets the lines the
   * worker printed so far (answers to earlier requests) first.
   *
   * @return false if the worker's standard input is closed
   */
  synchronized boolean send(String line) {
    lines.removeIf(l -> !l.equals(END));
    try {
      OutputStream in = process.getOutputStream();
      in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
      in.flush();
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /**
   * Waits for a line starting with {@code prefix + " "}, skipping others, until the timeout, the
   * end of the worker's output or {@code abandon} says so (checked every 20 ms).
   *
   * @return the rest of the line, or null
   */
  String awaitLine(String prefix, Duration timeout, BooleanSupplier abandon)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    long left;
    while ((left = deadline - System.nanoTime()) > 0 && !abandon.getAsBoolean()) {
      String line = lines.poll(Math.min(left, TimeUnit.MILLISECONDS.toNanos(20)), NANOSECONDS);
      if (line == null) {
        continue;
      }
      if (line.equals(END)) {
        lines.add(END);
        return null;
      }
      if (line.startsWith(prefix + " ")) {
        return line.substring(prefix.length() + 1).strip();
      }
    }
    return null;
  }

  /** Freezes the whole JVM with SIGSTOP. */
  void pause() {
    signal("STOP");
    paused = true;
  }

  /** Continues a paused JVM with SIGCONT. */
  void resume() {
    signal("CONT");
    paused = false;
  }

  /** SIGKILL, and waits up to 10 s for the process to be gone. */
  void kill() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor(10, TimeUnit.SECONDS);
    paused = false;
  }

  /** Closes standard input: the worker ends its round and exits. */
  synchronized void requestStop() {
    try {
      process.getOutputStream().close();
    } catch (IOException e) {
      // Gone already.
    }
  }

  /** {@return true if the process exited within {@code timeout}} */
  boolean awaitExit(Duration timeout) throws InterruptedException {
    return process.waitFor(timeout.toNanos(), TimeUnit.NANOSECONDS);
  }

  /** Ends the process if it still runs: SIGCONT if paused, then SIGKILL; bounded waits. */
  @Override
  public void close() {
    if (process.isAlive()) {
      if (paused) {
        try {
          resume();
        } catch (ChaosRunException e) {
          // SIGKILL below works on a stopped process too.
        }
      }
      process.destroyForcibly();
      try {
        process.waitFor(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    requestStop();
  }

  private void pump() {
    try (BufferedReader out =
        new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = out.readLine()) != null) {
        lines.add(line);
      }
    } catch (IOException e) {
      // Treated as the end.
    } finally {
      lines.add(END);
    }
  }

  private void signal(String signal) {
    ProcessBuilder kill =
        new ProcessBuilder("kill", "-" + signal, Long.toString(pid()))
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD);
    try {
      Process running = kill.start();
      if (!running.waitFor(10, TimeUnit.SECONDS)) {
        running.destroyForcibly();
        throw new ChaosRunException(
            "Cannot send SIG" + signal + " to worker " + name + ": kill did not return in 10 s");
      }
      if (running.exitValue() != 0 && process.isAlive()) {
        throw new ChaosRunException(
            "Cannot send SIG"
                + signal
                + " to worker "
                + name
                + " (pid "
                + pid()
                + "): kill exited with status "
                + running.exitValue());
      }
    } catch (IOException e) {
      throw new ChaosRunException(
          "Cannot send SIG"
              + signal
              + " to worker "
              + name
              + ": "
              + e.getMessage()
              + " (chaos runs need a POSIX system with kill on the PATH)",
          e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ChaosRunException(
          "Cannot send SIG" + signal + " to worker " + name + ": interrupted", e);
    }
  }

  private String exitDescription() {
    return process.isAlive() ? "" : " with status " + process.exitValue();
  }

  private String tail() {
    try {
      String text = Files.readString(log, StandardCharsets.UTF_8).strip();
      if (text.isEmpty()) {
        return "";
      }
      return "; it says: "
          + (text.length() > 800 ? "..." + text.substring(text.length() - 800) : text);
    } catch (IOException | UncheckedIOException e) {
      return "";
    }
  }
}
