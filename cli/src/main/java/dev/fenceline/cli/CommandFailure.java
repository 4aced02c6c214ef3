package dev.fenceline.cli;

import static java.util.Objects.requireNonNull;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A command stopped with a known exit status and a one-line message, {@code Cannot <action>
 * <subject>: <reason> (<hint>)}, already free of secrets. {@code details} go into the {@code
 * --json} document.
 */
class CommandFailure extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final ExitCode exitCode;
  private final transient Map<String, Object> details;

  CommandFailure(ExitCode exitCode, String message) {
    this(exitCode, message, Map.of(), null);
  }

  CommandFailure(ExitCode exitCode, String message, Map<String, Object> details, Throwable cause) {
    super(requireNonNull(message, "message is null"), cause);
    this.exitCode = requireNonNull(exitCode, "exitCode is null");
    this.details = new LinkedHashMap<>(details);
  }

  /** True if the message was printed to standard error when it happened. */
  boolean alreadyOnStandardError() {
    return false;
  }

  ExitCode exitCode() {
    return exitCode;
  }

  Map<String, Object> details() {
    return details;
  }
}
