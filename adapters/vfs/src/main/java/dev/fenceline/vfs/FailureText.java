package dev.fenceline.vfs;

import java.util.Locale;

/** The reason and the hint a {@link VfsBlobStore} message gives for a file system's failure. */
final class FailureText {

  private FailureText() {}

  /** The innermost message: VFS wraps the operating system's or the SFTP server's answer. */
  static String reason(Throwable e) {
    String message = e.getMessage();
    for (Throwable cause = e.getCause(); cause != null; cause = cause.getCause()) {
      if (cause.getMessage() != null) {
        message = message + ": " + cause.getMessage();
      }
    }
    return String.valueOf(message);
  }

  /** What to do about {@code e}, guessed from its {@link #reason}. */
  static String hint(Throwable e) {
    String text = reason(e).toLowerCase(Locale.ROOT);
    if (text.contains("no space") || text.contains("disk full") || text.contains("quota")) {
      return "the volume is full; free space, then retry";
    }
    if (text.contains("permission") || text.contains("access denied") || text.contains("denied")) {
      return "the store's user may not write there; fix the permissions";
    }
    if (text.contains("read-only")) {
      return "the volume is mounted read-only; remount it writable or choose another directory";
    }
    if (text.contains("auth")) {
      return "check the user name and password or key";
    }
    return "check that the store is reachable and the path exists";
  }
}
