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

import java.sql.SQLException;
import java.sql.SQLWarning;
import java.util.Locale;

/**
 * Recognises a PostgreSQL commit whose wait for a synchronous standby was cancelled. When a
 * statement timeout (or any cancel request) ends that wait, PostgreSQL keeps the transaction
 * committed on the primary and answers the {@code COMMIT} with success and only a WARNING
 * ("canceling wait for synchronous replication due to user request; the transaction has already
 * committed locally, but might not have been replicated to the standby"). Such a commit may be
 * missing on the standby a failover promotes, and the promoted server's issuer would hand its
 * epochs out again: the store reports it as an unknown outcome, never as success.
 */
final class SynchronousReplication {

  /** The server routine that issues the warning (syncrep.c); its name is never translated. */
  private static final String ROUTINE = "SyncRepWaitForLSN";

  private SynchronousReplication() {}

  /**
   * A commit that returned with a cancelled wait for synchronous replication: committed on the
   * primary, perhaps not on the standby. An {@link SQLException} so the store's failure handling
   * sees it, with the server's warning as its cause.
   */
  static final class WaitCancelledException extends SQLException {
    private static final long serialVersionUID = 1L;

    WaitCancelledException(SQLWarning warning) {
      super(
          "the commit returned before the synchronous standby confirmed it: PostgreSQL warned \""
              + warning.getMessage()
              + "\"",
          warning.getSQLState(),
          warning);
    }
  }

  /**
   * Throws {@link WaitCancelledException} if {@code warnings} (a chain from {@code getWarnings()}
   * of the connection or statement that sent the {@code COMMIT}, or null) holds the warning.
   */
  static void refuseCancelledWait(SQLWarning warnings) throws WaitCancelledException {
    for (SQLWarning warning = warnings; warning != null; warning = warning.getNextWarning()) {
      if (isCancelledWait(warning)) {
        throw new WaitCancelledException(warning);
      }
    }
  }

  /**
   * SQLSTATE {@code 01000} (the generic warning; {@code 57P01} when the backend is being
   * terminated, which also ends the connection), from the routine that waits for the standby, or,
   * with a driver that does not expose the routine, naming synchronous replication in its text.
   */
  static boolean isCancelledWait(SQLWarning warning) {
    String state = warning.getSQLState();
    if (!"01000".equals(state) && !"57P01".equals(state)) {
      return false;
    }
    String routine = routine(warning);
    if (routine != null) {
      return routine.equals(ROUTINE);
    }
    return String.valueOf(warning.getMessage())
        .toLowerCase(Locale.ROOT)
        .contains("synchronous replication");
  }

  /** The server routine pgjdbc reports for the warning, or null if it is not pgjdbc's. */
  private static String routine(SQLWarning warning) {
    if (!warning.getClass().getName().equals("org.postgresql.util.PSQLWarning")) {
      return null; // pgjdbc is an optional dependency: its classes are touched only if present
    }
    try {
      return Pgjdbc.routine(warning);
    } catch (LinkageError | ClassCastException e) {
      return null; // another class loader's pgjdbc
    }
  }

  private static final class Pgjdbc {
    static String routine(SQLWarning warning) {
      org.postgresql.util.ServerErrorMessage message =
          ((org.postgresql.util.PSQLWarning) warning).getServerErrorMessage();
      return message == null ? null : message.getRoutine();
    }
  }
}
