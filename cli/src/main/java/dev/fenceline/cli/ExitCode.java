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

/**
 * The exit status of every {@code fenceline} command, listed in {@code fenceline --help}. Scripts
 * can rely on these numbers; {@code --json} also names them. They are the only statuses {@code
 * fenceline} exits with (unless it is killed by a signal itself): {@code run} reports its CMD's
 * failure as {@link #COMMAND_FAILED}, never with CMD's own status, so CMD's status can never be
 * mistaken for one of Fenceline's.
 */
public enum ExitCode {
  /** The command did what it should (a publish was applied, or had already been applied). */
  OK(0, "ok: done (published, or already published earlier)"),
  /** The command ran and failed; the reason is on standard error. */
  FAILURE(1, "failure: the command failed (the reason is on standard error)"),
  /** The command line or the configuration file is wrong; nothing was started. */
  BAD_CONFIG_OR_USAGE(2, "bad config or usage: wrong command line or configuration file"),
  /** The destination rejected the token: a newer epoch was registered there. */
  REJECTED_STALE(3, "rejected as stale: a newer lease holder registered at the destination"),
  /** Another holder has the lease; nothing was run or published. */
  LEASE_NOT_ACQUIRED(4, "lease not acquired: another holder has it; nothing was run"),
  /** The lease was lost while the command ran; it was stopped and nothing was published. */
  LEASE_LOST(5, "lease lost: the command was stopped and nothing was published"),
  /** A store could not be reached; nothing was changed. */
  STORE_UNREACHABLE(6, "store unreachable: a store failed before changing anything"),
  /** A store failed at a point where the change may or may not have been made. */
  OUTCOME_UNKNOWN(7, "outcome unknown: retry with the same operation to find out"),
  /**
   * {@code run}'s CMD exited non-zero or was killed by a signal; nothing was published. CMD's own
   * status is on standard error and in {@code --json}'s {@code command-exit-code}.
   */
  COMMAND_FAILED(
      8,
      "command failed: run's CMD exited non-zero or was killed; its status is in --json"
          + " command-exit-code and on standard error"),
  /** {@code fenceline chaos}: a check found a violation in the history. */
  CHECK_FAILED(
      9, "check failed: fenceline chaos found a violation in the history; the report names it"),
  /**
   * {@code fenceline chaos}: a check could not decide (the linearizability search ran out of its
   * budget, or the destination has no lookup); nothing failed, nothing was proven.
   */
  CHECK_GAVE_UP(
      10,
      "check undecided: a check could not decide (the linearizability budget ran out: give chaos"
          + " check a larger --budget; or the destination has no lookup); nothing was proven"),
  /**
   * Stopped by SIGHUP: the JVM's own status, 128 + 1. The upload was stopped, CMD stopped, the
   * lease released; one line on standard error says whether anything was published.
   */
  HUNG_UP(129, "hung up (SIGHUP): lease released; stderr says what was published"),
  /** Interrupted by SIGINT (Ctrl-C): 128 + 2, otherwise as {@link #HUNG_UP}. */
  INTERRUPTED(130, "interrupted (SIGINT): lease released; stderr says what was published"),
  /** Stopped by SIGTERM: 128 + 15, otherwise as {@link #HUNG_UP}. */
  TERMINATED(143, "terminated (SIGTERM): lease released; stderr says what was published");

  private final int code;
  private final String description;

  ExitCode(int code, String description) {
    this.code = code;
    this.description = description;
  }

  /** The number the process exits with. */
  public int code() {
    return code;
  }

  /**
   * The exit code whose number is {@code code}.
   *
   * @throws IllegalArgumentException if no exit code has that number: a command that would exit
   *     with it has a bug
   */
  public static ExitCode of(int code) {
    for (ExitCode exit : values()) {
      if (exit.code == code) {
        return exit;
      }
    }
    throw new IllegalArgumentException(
        "Cannot exit with status "
            + code
            + ": fenceline's exit statuses are 0 to 10, and 129, 130 and 143 for a signal");
  }

  /** One line for {@code --help}. */
  public String description() {
    return description;
  }
}
