package dev.fenceline.cli;

/**
 * The command line is wrong: an unknown command or option, a missing or malformed value. The
 * message names the value and the fix; {@link Main} prints it and exits with status {@value
 * Main#EXIT_USAGE}.
 */
final class UsageException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  UsageException(String message) {
    super(message);
  }
}
