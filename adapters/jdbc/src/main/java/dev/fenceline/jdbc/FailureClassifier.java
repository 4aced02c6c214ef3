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
package dev.fenceline.jdbc;

import dev.fenceline.spi.StoreException;
import java.net.SocketTimeoutException;
import java.sql.SQLException;
import java.time.Duration;

/**
 * What a failed step tells its caller: the {@link StoreException} for the {@link SQLException} it
 * ended with, whose {@link StoreException#outcomeUnknown()} says whether the step may have
 * committed, and whose hint names the cause (another process's lock, the statement timeout, no
 * answer within the socket timeout, a lost connection, a cancelled wait for a synchronous standby)
 * and what to do.
 */
final class FailureClassifier {

  private final String description;
  private final Dialect dialect;
  private final Duration lockTimeout;
  private final Duration statementTimeout;
  private final Duration socketTimeout;

  FailureClassifier(Transactions.Settings settings, Dialect dialect) {
    this.description = settings.description();
    this.dialect = dialect;
    this.lockTimeout = settings.lockTimeout();
    this.statementTimeout = settings.statementTimeout();
    this.socketTimeout = settings.socketTimeout();
  }

  /**
   * Whether a failed statement that carried a commit may have been committed: it got no answer from
   * the server, or the connection ended with the answer (pgjdbc reports a FATAL or PANIC error
   * first and the lost connection, {@code 08006}, as its next exception; a PANIC while flushing the
   * commit record can still be replayed by crash recovery).
   */
  boolean noAnswer(SQLException e) {
    if (dialect != Dialect.POSTGRESQL) {
      return false;
    }
    for (Throwable failure : e) {
      if (failure instanceof SocketTimeoutException
          || (failure instanceof SQLException sql
              && sql.getSQLState() != null
              && sql.getSQLState().startsWith("08"))) {
        return true;
      }
    }
    return false;
  }

  /**
   * The {@link StoreException} that {@code e} while doing {@code action} makes: with {@code
   * outcomeUnknown} as the caller judged it (true for a failing commit, or {@link #noAnswer} for a
   * statement that carried its commit), and always true for a commit whose wait for a synchronous
   * standby was cancelled; its hint says what happened and whether retrying is safe.
   */
  StoreException failure(String action, SQLException e, boolean outcomeUnknown) {
    String hint;
    String state = e.getSQLState() == null ? "" : e.getSQLState();
    String text = String.valueOf(e.getMessage());
    boolean noAnswer = causedBy(e, SocketTimeoutException.class);
    if (e instanceof SynchronousReplication.WaitCancelledException) {
      outcomeUnknown = true;
      hint =
          "the outcome is unknown: the change is committed on the primary, but the synchronous"
              + " standby has not confirmed it and a failover to that standby would lose it, an"
              + " epoch included; a cancel request ended the wait (pg_cancel_backend, or a"
              + " client's query timeout); look the operation up or retry it with the same"
              + " operation ID once the standby has caught up, and check the standby and its link";
    } else if (outcomeUnknown) {
      hint =
          (noAnswer ? "the database did not answer the commit within the socket timeout; " : "")
              + "the commit may or may not have happened; look the operation up or retry it with"
              + " the same operation ID";
    } else if (noAnswer) {
      hint =
          "the database did not answer within the socket timeout"
              + (socketTimeout == null ? "" : " of " + socketTimeout)
              + "; nothing was committed, retrying is safe";
    } else if (state.equals("57014") && statementTimeout != null) {
      hint =
          "a statement ran longer than the statement timeout of "
              + statementTimeout
              + "; nothing was committed (raise the statement timeout, or make the change smaller)";
    } else if (text.contains("SQLITE_BUSY") || state.equals("55P03")) {
      hint =
          "another process held the lock longer than the lock timeout of "
              + lockTimeout
              + "; retry, or raise the lock timeout";
    } else if (state.startsWith("08")) {
      hint = "the connection to the database failed; nothing was committed, retrying is safe";
    } else {
      hint = "nothing was committed";
    }
    return new StoreException(
        "Cannot " + action + " at " + description + ": " + text + " (" + hint + ")",
        e,
        outcomeUnknown);
  }

  /** True if {@code failure} or one of its causes is a {@code type}. */
  static boolean causedBy(Throwable failure, Class<? extends Throwable> type) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (type.isInstance(cause)) {
        return true;
      }
    }
    return false;
  }
}
