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
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 19, item 11 (the command-line conventions): {@code --version} and {@code -V}, {@code help
 * COMMAND} equal to {@code COMMAND --help}, and a shell completion script. Separate processes.
 */
@Timeout(180) // a failure detector only
class VersionAndHelpTest {

  private static final Map<String, String> NO_ENV = Map.of();

  @TempDir Path dir;

  @Test
  void versionAndDashCapitalVPrintTheVersionAndTheCommit() throws Exception {
    CliProcess.Result longForm = CliProcess.run(NO_ENV, "--version");
    CliProcess.Result shortForm = CliProcess.run(NO_ENV, "-V");

    assertThat(longForm.exitCode()).as(longForm.transcript()).isEqualTo(ExitCode.OK.code());
    assertThat(longForm.err()).isEmpty();
    assertThat(shortForm.exitCode()).as(shortForm.transcript()).isEqualTo(ExitCode.OK.code());
    assertThat(shortForm.out()).isEqualTo(longForm.out());
    Matcher line =
        Pattern.compile("fenceline (\\S+) \\(commit ([0-9a-f]{7,40}|unknown)\\)\n")
            .matcher(longForm.out());
    assertThat(line.matches()).as(longForm.transcript()).isTrue();
    assertThat(line.group(1)).isEqualTo(projectVersion());
    if (git("rev-parse", "HEAD") != null) { // built from a git checkout: the commit is known
      String commit = line.group(2);
      assertThat(git("rev-parse", "--verify", "--quiet", commit + "^{commit}"))
          .as("a commit of this repository: " + longForm.transcript())
          .isNotNull();
      String gitDir = git("rev-parse", "--path-format=absolute", "--git-dir");
      if (gitDir != null
          && gitDir.equals(git("rev-parse", "--path-format=absolute", "--git-common-dir"))) {
        assertThat(git("rev-parse", "HEAD")).as(longForm.transcript()).startsWith(commit);
      } // in a linked worktree (git worktree add) the plugin reads the main checkout's HEAD
    }
  }

  /** The version of cli/pom.xml's parent: the project's version. */
  private static String projectVersion() throws Exception {
    String pom = Files.readString(Path.of("pom.xml"), UTF_8);
    Matcher parent =
        Pattern.compile("(?s)<parent>.*?<version>([^<]+)</version>.*?</parent>").matcher(pom);
    assertThat(parent.find()).as("cli/pom.xml names its parent's version").isTrue();
    return parent.group(1).strip();
  }

  /** What {@code git args...} prints in the directory the tests run in; null if it fails. */
  private static String git(String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of("git"));
    command.addAll(List.of(args));
    Process git;
    try {
      git = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    } catch (java.io.IOException e) {
      return null; // no git
    }
    String out = new String(git.getInputStream().readAllBytes(), UTF_8).strip();
    if (!git.waitFor(30, TimeUnit.SECONDS) || git.exitValue() != 0) {
      return null;
    }
    return out;
  }

  /** Every command the overview lists, from its "Commands:" section. */
  private static List<String> listedCommands() {
    CliProcess.Result overview = CliProcess.run(NO_ENV, "--help");
    assertThat(overview.exitCode()).as(overview.transcript()).isEqualTo(ExitCode.OK.code());
    String commands =
        overview.out().substring(overview.out().indexOf("Commands:\n") + "Commands:\n".length());
    commands = commands.substring(0, commands.indexOf("\n\n"));
    List<String> names = new ArrayList<>();
    Matcher name = Pattern.compile("(?m)^  ([a-z][a-z-]*) ").matcher(commands);
    while (name.find()) {
      names.add(name.group(1));
    }
    return names;
  }

  @Test
  void helpCommandPrintsExactlyWhatCommandDashDashHelpPrintsForEveryCommand() {
    List<String> commands = listedCommands();
    assertThat(commands).contains("publish", "run", "doctor", "status", "demo", "completion");

    for (String command : commands) {
      CliProcess.Result help = CliProcess.run(NO_ENV, "help", command);
      CliProcess.Result dashDashHelp = CliProcess.run(NO_ENV, command, "--help");

      assertThat(help.exitCode()).as(help.transcript()).isEqualTo(ExitCode.OK.code());
      assertThat(help.out()).as("help " + command).isEqualTo(dashDashHelp.out()).isNotEmpty();
      assertThat(help.err()).as("help " + command).isEqualTo(dashDashHelp.err()).isEmpty();
      assertThat(dashDashHelp.exitCode()).isEqualTo(ExitCode.OK.code());
      if (!command.equals("demo") && !command.equals("help")) {
        assertThat(help.out()).startsWith("Usage: fenceline " + command);
      }
    }
  }

  @Test
  void helpWithAnUnknownCommandIsAUsageErrorNamingTheCommands() {
    CliProcess.Result result = CliProcess.run(NO_ENV, "help", "pubilsh");

    assertThat(result.exitCode())
        .as(result.transcript())
        .isEqualTo(ExitCode.BAD_CONFIG_OR_USAGE.code());
    assertThat(result.out()).isEmpty();
    assertThat(result.errLines())
        .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
        .startsWith("fenceline: Cannot show the help of \"pubilsh\"")
        .contains("publish, run, read, sweep, prune, doctor, status, chaos, demo, completion")
        .contains("fenceline help publish");
  }

  @Test
  void completionPrintsAValidBashScriptThatCompletesTheCommandsAndOptions() throws Exception {
    CliProcess.Result result = CliProcess.run(NO_ENV, "completion");
    Path script = Files.writeString(dir.resolve("fenceline-completion.bash"), result.out());

    assertThat(result.exitCode()).as(result.transcript()).isEqualTo(ExitCode.OK.code());
    assertThat(result.err()).isEmpty();
    assertThat(bash("-n", script.toString())).as("bash -n accepts the script").isEmpty();
    for (String command : listedCommands()) {
      assertThat(result.out()).contains("_picocli_fenceline_" + command);
    }
    // Sourced in bash, it completes a command and an option as a shell would on TAB.
    assertThat(complete(script, "fenceline", "pu")).isEqualTo("publish");
    assertThat(complete(script, "fenceline", "run", "--verb")).isEqualTo("--verbose");
    assertThat(complete(script, "fenceline", "publish", "--dest")).isEqualTo("--destination");
  }

  /** What {@code script}'s completion function puts in COMPREPLY for {@code words} on TAB. */
  private String complete(Path script, String... words) throws Exception {
    String line = String.join(" ", words);
    String program =
        "source '"
            + script
            + "' 2>/dev/null\n"
            + "COMP_WORDS=("
            + line
            + "); COMP_CWORD="
            + (words.length - 1)
            + "; COMP_LINE='"
            + line
            + "'; COMP_POINT=${#COMP_LINE}\n"
            + "_complete_fenceline 2>/dev/null\n"
            + "echo \"${COMPREPLY[*]}\"\n";
    return bash("-c", program).strip();
  }

  /** Runs bash with {@code args}; its standard output and error, which must end with status 0. */
  private static String bash(String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of("bash"));
    command.addAll(List.of(args));
    Process bash = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(bash.getInputStream().readAllBytes(), UTF_8);
    assertThat(bash.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(bash.exitValue()).as(out).isZero();
    return out;
  }
}
