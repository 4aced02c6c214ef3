package dev.fenceline.cli;

/**
 * The demo could not carry out a step: a worker failed, exited early or did not answer in time. The
 * message says which step and where to look.
 */
final class DemoFailure extends RuntimeException {

  private static final long serialVersionUID = 1L;

  DemoFailure(String message) {
    super(message);
  }

  DemoFailure(String message, Throwable cause) {
    super(message, cause);
  }
}
