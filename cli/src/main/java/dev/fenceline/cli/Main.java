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

import java.io.InputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code fenceline} command: {@code publish}, {@code run}, {@code doctor}, {@code status},
 * {@code demo}, {@code completion} and {@code help}. Run {@code fenceline --help} for the options;
 * the exit statuses are the {@link ExitCode}s.
 */
public final class Main {

  /** The command did what it should. */
  public static final int EXIT_OK = ExitCode.OK.code();

  /** The command ran and failed; the reason is on standard error. */
  public static final int EXIT_FAILED = ExitCode.FAILURE.code();

  /** The command line is wrong: unknown command or option, bad value. */
  public static final int EXIT_USAGE = ExitCode.BAD_CONFIG_OR_USAGE.code();

  /** The top-level options that are not commands: {@code --version} and {@code -V}. */
  private static final Set<String> TOP_OPTIONS = Set.of("--version", "-V");

  /**
   * The library's loggers, kept strongly reachable: the command reports what matters itself, one
   * line per failure, so library warnings (a lost lease, a failed release) stay off standard error.
   */
  private static final java.util.logging.Logger LIBRARY_LOG =
      java.util.logging.Logger.getLogger("dev.fenceline");

  private Main() {}

  /** Runs the command and exits the JVM with its status. */
  public static void main(String[] args) {
    boolean demo = args.length > 0 && (args[0].equals("demo") || args[0].equals("worker"));
    if (!demo && System.getenv("FENCELINE_DEBUG") == null) {
      LIBRARY_LOG.setLevel(java.util.logging.Level.SEVERE);
    }
    CliLogging.install(System.err);
    System.exit(run(args, System.in, System.out, System.err));
  }

  /**
   * Runs the command without exiting the JVM, with this process's standard input.
   *
   * @param args the command line, starting with the subcommand
   * @param out where results go
   * @param err where errors go
   * @return the exit status
   */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    return run(args, System.in, out, err);
  }

  /**
   * As {@link #run(String[], PrintStream, PrintStream)}, reading {@code publish -} from {@code in}.
   */
  public static int run(String[] args, InputStream in, PrintStream out, PrintStream err) {
    if (args.length == 0 || Set.of("help", "--help", "-h").contains(args[0])) {
      if (args.length > 1 && args[0].equals("help")) {
        return help(args, in, out, err);
      }
      out.print(usage());
      out.flush();
      return EXIT_OK;
    }
    String command = args[0];
    String[] rest = Arrays.copyOfRange(args, 1, args.length);
    if (command.equals("demo") || command.equals("worker")) {
      return handWritten(command, rest, out, err);
    }
    CommandLine cli = commandLine(in, out, err);
    if (!cli.getSubcommands().containsKey(command) && !TOP_OPTIONS.contains(command)) {
      err.println(
          "fenceline: Cannot run command "
              + Options.quote(command)
              + ": there is no such command ("
              + commandList(cli)
              + "; run fenceline help)");
      return EXIT_USAGE;
    }
    return cli.execute(args);
  }

  /**
   * {@code fenceline help COMMAND}: exactly what {@code fenceline COMMAND --help} prints, for every
   * command.
   */
  private static int help(String[] args, InputStream in, PrintStream out, PrintStream err) {
    String command = args[1];
    if (Set.of("help", "--help", "-h").contains(command) && args.length == 2) {
      out.print(usage());
      out.flush();
      return EXIT_OK;
    }
    CommandLine cli = commandLine(in, out, err);
    if (args.length > 2 || !cli.getSubcommands().containsKey(command)) {
      err.println(
          "fenceline: Cannot show the help of "
              + Options.quote(String.join(" ", Arrays.copyOfRange(args, 1, args.length)))
              + ": it is not one command ("
              + commandList(cli)
              + "; write e.g. fenceline help publish)");
      return EXIT_USAGE;
    }
    return run(new String[] {command, "--help"}, in, out, err);
  }

  /** {@code the commands are publish, run, ... and help}: the registered subcommands. */
  private static String commandList(CommandLine cli) {
    List<String> names = List.copyOf(cli.getSubcommands().keySet());
    return "the commands are "
        + String.join(", ", names.subList(0, names.size() - 1))
        + " and "
        + names.get(names.size() - 1);
  }

  /** The demo and its worker keep their own parser: their behaviour is unchanged. */
  private static int handWritten(String command, String[] rest, PrintStream out, PrintStream err) {
    try {
      return command.equals("demo")
          ? Demo.command(rest, out, err)
          : Worker.command(rest, out, err); // internal: one process of the demo
    } catch (UsageException e) {
      err.println("fenceline: " + e.getMessage());
      return EXIT_USAGE;
    } catch (RuntimeException e) {
      err.println(
          "fenceline: Cannot run "
              + command
              + ": "
              + e
              + " (this is a bug in fenceline; the stack trace follows)");
      e.printStackTrace(err);
      return EXIT_FAILED;
    }
  }

  /**
   * The picocli model of every command but {@code demo}'s options (and the internal {@code
   * worker}), which {@link Demo} parses itself; also what the docs tests parse documented command
   * lines with.
   */
  static CommandLine commandLine(InputStream in, PrintStream out, PrintStream err) {
    CommandLine cli = new CommandLine(new Top());
    cli.addSubcommand(new PublishCommand(in, out, err));
    cli.addSubcommand(new CommandLine(new RunCommand(out, err)).setStopAtPositional(true));
    cli.addSubcommand(new ReadCommand(out, err));
    cli.addSubcommand(new SweepCommand(out, err));
    cli.addSubcommand(new PruneCommand(out, err));
    cli.addSubcommand(new DoctorCommand(out, err));
    cli.addSubcommand(new StatusCommand(out, err));
    cli.addSubcommand(new ChaosCommand(out, err));
    cli.addSubcommand(new DemoHelp());
    cli.addSubcommand(new CompletionCommand(out));
    cli.addSubcommand(new HelpHelp()); // keep last: "... and help" in messages
    cli.setOut(new PrintWriter(out, true, StandardCharsets.UTF_8));
    cli.setErr(new PrintWriter(err, true, StandardCharsets.UTF_8));
    Map<String, String> exitCodes = exitCodeList();
    cli.getCommandSpec().usageMessage().exitCodeList(exitCodes);
    cli.getSubcommands()
        .values()
        .forEach(
            sub ->
                sub.getCommandSpec()
                    .usageMessage()
                    .exitCodeListHeading("%nExit status:%n")
                    .exitCodeList(exitCodes));
    cli.setParameterExceptionHandler(
        (e, args) -> {
          String subcommand = e.getCommandLine().getCommandName();
          String message =
              "Cannot run fenceline "
                  + subcommand
                  + ": "
                  + ConfiguredCommand.oneLine(e.getMessage())
                  + " (see fenceline "
                  + subcommand
                  + " --help)";
          err.println("fenceline: " + message);
          if (Arrays.asList(args).contains("--json")) {
            new Report(subcommand)
                .print(
                    out,
                    true,
                    ExitCode.BAD_CONFIG_OR_USAGE,
                    message,
                    java.util.function.UnaryOperator.identity());
          }
          return EXIT_USAGE;
        });
    return cli;
  }

  private static Map<String, String> exitCodeList() {
    Map<String, String> list = new LinkedHashMap<>();
    for (ExitCode code : ExitCode.values()) {
      list.put(" " + code.code(), code.description());
    }
    return list;
  }

  /** The usage text: every command, its options, and the exit statuses. */
  static String usage() {
    StringWriter text = new StringWriter();
    CommandLine cli = commandLine(InputStream.nullInputStream(), System.out, System.err);
    cli.setOut(new PrintWriter(text));
    cli.usage(new PrintWriter(text, true));
    return text.toString();
  }

  /** The top-level command: a holder for the subcommands, the usage text and {@code --version}. */
  @Command(
      name = "fenceline",
      mixinStandardHelpOptions = false,
      versionProvider = Version.class,
      synopsisSubcommandLabel = "<command>",
      customSynopsis = "fenceline <command> [options]",
      description = {
        "Fencing tokens checked at the destination: a worker that stalled past its lease cannot"
            + " overwrite a newer result.",
        "Every command but demo, completion and help takes --config FILE (see"
            + " examples/fenceline.yaml) and --json (one JSON document on standard output; demo"
            + " takes --json too). Errors are one line on"
            + " standard error, secrets masked. Run fenceline <command> --help for its options."
      },
      exitCodeListHeading = "%nExit status:%n",
      commandListHeading = "%nCommands:%n")
  static final class Top implements Runnable {
    @picocli.CommandLine.Option(
        names = {"-V", "--version"},
        versionHelp = true,
        description = "Print the version and the commit it was built from.")
    boolean version;

    @Override
    public void run() {}
  }

  /** Listed in the usage; {@code fenceline demo} itself runs {@link Demo}. */
  @Command(
      name = "demo",
      description = {
        "Replay the stale-worker timeline with two real worker processes on a SQLite file: worker"
            + " A takes the lease and is frozen with SIGSTOP just before its write; its lease"
            + " expires by the database clock; worker B takes a newer epoch and publishes; A"
            + " resumes and publishes its old result, and the destination rejects it as stale."
            + " Exits 0 only if that is what happened. Options: --dir DIR (directory for the"
            + " database and worker logs, default fenceline-demo), --ttl-millis N (lease length, "
            + Demo.MIN_TTL
            + " to "
            + Demo.MAX_TTL
            + ", default 1500), --json (the narration goes to standard error, standard output"
            + " gets one JSON document: both epochs, each worker's outcome, the published"
            + " pointer, the timeline, the exit)."
      })
  static final class DemoHelp implements Runnable {
    @Override
    public void run() {}
  }

  /** Listed in the usage; {@link Main#run} itself answers {@code fenceline help COMMAND}. */
  @Command(
      name = "help",
      description = {
        "Show the help of a command: fenceline help publish prints exactly what fenceline publish"
            + " --help prints. Without a command, this overview."
      })
  static final class HelpHelp implements Runnable {
    @Override
    public void run() {}
  }
}
