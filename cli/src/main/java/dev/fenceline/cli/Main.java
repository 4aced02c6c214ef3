package dev.fenceline.cli;

import java.io.PrintStream;
import java.util.Arrays;

/**
 * The {@code fenceline} command.
 *
 * <pre>
 * fenceline demo [--dir DIR] [--ttl-millis N]   replay the stale-worker timeline with two processes
 * fenceline help                                this text
 * </pre>
 *
 * <p>Exit status: {@value #EXIT_OK} on success, {@value #EXIT_FAILED} if the command ran and
 * failed, {@value #EXIT_USAGE} if the command line is wrong.
 */
public final class Main {

  /** The command did what it should. */
  public static final int EXIT_OK = 0;

  /** The command ran and failed; the reason is on standard error. */
  public static final int EXIT_FAILED = 1;

  /** The command line is wrong: unknown command or option, bad value. */
  public static final int EXIT_USAGE = 2;

  private Main() {}

  /** Runs the command and exits the JVM with its status. */
  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  /**
   * Runs the command without exiting the JVM.
   *
   * @param args the command line, starting with the subcommand
   * @param out where results go
   * @param err where errors go
   * @return the exit status
   */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    if (args.length == 0) {
      out.print(usage());
      return EXIT_OK;
    }
    String command = args[0];
    String[] rest = Arrays.copyOfRange(args, 1, args.length);
    try {
      switch (command) {
        case "help", "--help", "-h":
          out.print(usage());
          return EXIT_OK;
        case "demo":
          return Demo.command(rest, out, err);
        case "worker": // internal: one process of the demo
          return Worker.command(rest, out, err);
        default:
          throw new UsageException(
              "Cannot run command "
                  + Options.quote(command)
                  + ": there is no such command (the commands are demo and help; run fenceline"
                  + " help)");
      }
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

  /** The usage text. */
  static String usage() {
    return String.join(
        System.lineSeparator(),
        "Usage: fenceline <command> [options]",
        "",
        "Commands:",
        "  demo   Replay the stale-worker timeline with two real worker processes on a SQLite",
        "         file: worker A takes the lease and is frozen with SIGSTOP just before its",
        "         write; its lease expires by the database clock; worker B takes a newer epoch",
        "         and publishes; A resumes and publishes its old result, and the destination",
        "         rejects it as stale. Exits 0 only if that is what happened.",
        "           --dir DIR          directory for the database and worker logs"
            + " (default ./"
            + Demo.DEFAULT_DIR
            + ")",
        "           --ttl-millis N     lease length in milliseconds, "
            + Demo.MIN_TTL
            + " to "
            + Demo.MAX_TTL
            + " (default "
            + Demo.DEFAULT_TTL.toMillis()
            + ")",
        "  help   Show this text.",
        "",
        "Exit status: 0 success, 1 failure, 2 wrong command line.",
        "");
  }
}
