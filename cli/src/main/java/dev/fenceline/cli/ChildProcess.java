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

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The command {@code fenceline run} wraps: started with the lease in its environment and this
 * process's standard streams, stopped with its whole process tree, also when this JVM is told to
 * exit (a shutdown hook).
 */
final class ChildProcess {

  private final List<String> command;
  private final Process process;
  private final Thread shutdownHook;
  private final Thread pump;
  private volatile java.time.Duration shutdownGrace = java.time.Duration.ofSeconds(2);

  private ChildProcess(List<String> command, Process process, Thread pump) {
    this.command = command;
    this.process = process;
    this.pump = pump;
    this.shutdownHook = new Thread(() -> stop(shutdownGrace), "fenceline-run-stop");
    Runtime.getRuntime().addShutdownHook(shutdownHook);
  }

  /**
   * Starts {@code command}.
   *
   * @param environment added to this process's environment
   * @param stdout where the command's standard output goes; null to inherit this process's
   * @throws CommandFailure if it cannot be started
   */
  static ChildProcess start(
      List<String> command, Map<String, String> environment, PrintStream stdout) {
    ProcessBuilder builder = new ProcessBuilder(command).inheritIO();
    builder.environment().putAll(environment);
    if (stdout != null) {
      builder.redirectOutput(ProcessBuilder.Redirect.PIPE);
    }
    Process process;
    try {
      process = builder.start();
    } catch (IOException e) {
      throw new CommandFailure(
          ExitCode.FAILURE,
          "Cannot start "
              + Options.quote(String.join(" ", command))
              + ": "
              + e.getMessage()
              + " (check the command and that it is on the PATH)");
    }
    Thread pump = null;
    if (stdout != null) {
      pump = new Thread(() -> copy(process.getInputStream(), stdout), "fenceline-run-stdout");
      pump.setDaemon(true);
      pump.start();
    }
    return new ChildProcess(command, process, pump);
  }

  private static void copy(InputStream from, PrintStream to) {
    byte[] buffer = new byte[8192];
    try (from) {
      int n;
      while ((n = from.read(buffer)) >= 0) {
        to.write(buffer, 0, n);
        to.flush();
      }
    } catch (IOException e) {
      // The command ended.
    }
  }

  long pid() {
    return process.pid();
  }

  /**
   * Completes when the command exits, unless this JVM was interrupted: then {@link Interruption}
   * stops the command and reports, and the caller does not go on.
   */
  CompletableFuture<Process> onExit() {
    return Interruption.process().unlessInterrupted(process.onExit());
  }

  /** How long the command gets between TERM and KILL when this JVM exits (default 2 s). */
  void shutdownGrace(java.time.Duration grace) {
    this.shutdownGrace = grace;
  }

  /** The command's exit status; call after {@link #stop} or {@link #onExit()}. */
  int exitValue() {
    return process.exitValue();
  }

  /**
   * Stops the command and every process it started: TERM ({@link Process#destroy()}) to all, then
   * KILL to those still running after {@code grace}. Returns once they have exited. Idempotent; a
   * command that has exited is left alone, but its leftover children are still stopped.
   */
  void stop(java.time.Duration grace) {
    // Collected first: once the command exits its children are re-parented and out of reach.
    List<ProcessHandle> tree = new ArrayList<>(process.descendants().toList());
    tree.add(0, process.toHandle());
    tree.removeIf(handle -> !handle.isAlive());
    if (!tree.isEmpty()) {
      tree.forEach(ProcessHandle::destroy);
      if (!awaitExit(tree, grace)) {
        tree.forEach(ProcessHandle::destroyForcibly);
        awaitExit(tree, java.time.Duration.ofSeconds(10));
      }
    }
    try {
      process.waitFor();
      if (pump != null) {
        pump.join(5_000); // the command's last output, unless a leftover child holds the pipe
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    try {
      Runtime.getRuntime().removeShutdownHook(shutdownHook);
    } catch (IllegalStateException e) {
      // Already shutting down: this is the hook.
    }
  }

  private static boolean awaitExit(List<ProcessHandle> tree, java.time.Duration limit) {
    CompletableFuture<?>[] exits =
        tree.stream().map(ProcessHandle::onExit).toArray(CompletableFuture<?>[]::new);
    try {
      CompletableFuture.allOf(exits).get(limit.toNanos(), TimeUnit.NANOSECONDS);
      return true;
    } catch (TimeoutException e) {
      return false;
    } catch (ExecutionException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  @Override
  public String toString() {
    return String.join(" ", command) + " (pid " + process.pid() + ")";
  }
}
