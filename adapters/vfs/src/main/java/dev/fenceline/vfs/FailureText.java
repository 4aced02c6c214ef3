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
package dev.fenceline.vfs;

import dev.fenceline.spi.LocalWriteProblem;
import dev.fenceline.spi.StoreException;
import java.io.InterruptedIOException;
import java.nio.channels.ClosedByInterruptException;
import java.util.Locale;

/** The reason and the hint a {@link VfsBlobStore} message gives for a file system's failure. */
final class FailureText {

  private FailureText() {}

  /** The innermost message: VFS wraps the operating system's or the SFTP server's answer. */
  static String reason(Throwable e) {
    String message = e.getMessage();
    for (Throwable cause = e.getCause(); cause != null; cause = cause.getCause()) {
      if (cause.getMessage() != null) {
        message = message == null ? cause.getMessage() : message + ": " + cause.getMessage();
      }
    }
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
      // An interrupted thread's file channel closes with no message at all ("null" said nothing).
      if (cause instanceof ClosedByInterruptException || cause instanceof InterruptedIOException) {
        String interrupted =
            "the thread was interrupted (" + cause.getClass().getSimpleName() + ")";
        return message == null ? interrupted : message + ": " + interrupted;
      }
    }
    return String.valueOf(message);
  }

  /** What to do about {@code e}, guessed from its {@link #reason}. */
  static String hint(Throwable e) {
    String text = reason(e).toLowerCase(Locale.ROOT);
    if (text.contains("the thread was interrupted")) {
      return "the caller stopped the write, for example because its lease was lost; retry with a"
          + " lease";
    }
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

  /**
   * {@code Cannot <what>: <reason> (<note; ><hint>)} for a failure of the file system, secrets
   * scrubbed from the message and the cause.
   *
   * @param note said before the hint, such as {@code nothing was left at the key}; empty for none
   */
  static StoreException failure(String what, String note, Throwable e, Redaction redaction) {
    return new StoreException(
        redaction.scrub(
            "Cannot "
                + what
                + ": "
                + reason(e)
                + " ("
                + (note.isEmpty() ? "" : note + "; ")
                + hint(e)
                + ")"),
        redaction.scrub(e));
  }

  /**
   * {@code Cannot <what>: <problem> (<fix><; note>)} for a failure a local path's own state
   * explains (read-only, no permission), the cause scrubbed.
   */
  static StoreException failure(
      String what, LocalWriteProblem problem, String note, Throwable e, Redaction redaction) {
    return new StoreException(
        "Cannot "
            + what
            + ": "
            + problem.describe()
            + " ("
            + problem.fix()
            + (note.isEmpty() ? "" : "; " + note)
            + ")",
        redaction.scrub(e));
  }
}
