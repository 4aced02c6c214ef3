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

import java.io.PrintStream;
import java.util.concurrent.Callable;
import picocli.AutoComplete;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code fenceline completion}: prints a completion script for bash and zsh. */
@Command(
    name = "completion",
    description = {
      "Print a completion script for bash (and zsh, through bashcompinit) that completes the"
          + " commands and their options. Load it in the current shell with"
          + " source <(fenceline completion), or install it for every shell with"
          + " fenceline completion > /etc/bash_completion.d/fenceline."
    })
final class CompletionCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(
      names = {"-h", "--help"},
      usageHelp = true,
      description = "Show this help, with the exit statuses.")
  boolean help;

  private final PrintStream out;

  CompletionCommand(PrintStream out) {
    this.out = out;
  }

  @Override
  public Integer call() {
    out.print(AutoComplete.bash("fenceline", spec.root().commandLine()));
    out.flush();
    return ExitCode.OK.code();
  }
}
