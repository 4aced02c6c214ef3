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

import static dev.fenceline.jdbc.Intercepted.invoke;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import javax.sql.DataSource;
import org.postgresql.core.BaseConnection;
import org.postgresql.core.TransactionState;

/**
 * A data source that counts the round trips its connections make, the way pgjdbc makes them: every
 * statement execution is one; so are {@code commit()}, {@code rollback()}, {@code
 * setTransactionIsolation}, {@code getTransactionIsolation}, {@code isValid} and a {@code
 * setAutoCommit(true)} that ends a transaction, except that pgjdbc sends nothing to end a
 * transaction the server no longer has open. {@code setAutoCommit(false)} is none (pgjdbc sends
 * {@code BEGIN} with the next statement). {@link #calls()} lists what was counted, for failure
 * messages.
 */
final class CountingDataSource {

  private static final Set<String> EXECUTIONS =
      Set.of("execute", "executeQuery", "executeUpdate", "executeLargeUpdate", "executeBatch");
  private static final Set<String> ROUND_TRIPS =
      Set.of(
          "setTransactionIsolation",
          "getTransactionIsolation",
          "isValid",
          "setSavepoint",
          "releaseSavepoint");

  private final DataSource target;
  private final List<String> calls = new ArrayList<>();

  CountingDataSource(DataSource target) {
    this.target = target;
  }

  /** The counting data source to hand to the store. */
  DataSource dataSource() {
    return Intercepted.wrap(
        DataSource.class,
        target,
        (source, method, args) -> {
          Object result = invoke(method, source, args);
          return method.getName().equals("getConnection") ? counting((Connection) result) : result;
        });
  }

  /** Forgets what was counted so far. */
  synchronized void reset() {
    calls.clear();
  }

  /** The round trips counted since the last {@link #reset()}. */
  synchronized int roundTrips() {
    return calls.size();
  }

  /** What was counted since the last {@link #reset()}, one entry per round trip. */
  synchronized List<String> calls() {
    return List.copyOf(calls);
  }

  private synchronized void count(String call) {
    calls.add(call);
  }

  private Connection counting(Connection real) {
    return Intercepted.wrap(
        Connection.class,
        real,
        (connection, method, args) -> {
          String name = method.getName();
          boolean endsTransaction =
              name.equals("commit")
                  || (name.equals("rollback") && args == null)
                  || (name.equals("setAutoCommit") && Boolean.TRUE.equals(args[0]));
          if (endsTransaction ? inTransaction(connection) : ROUND_TRIPS.contains(name)) {
            count(name);
          }
          Object result = invoke(method, connection, args);
          if (name.equals("prepareStatement")) {
            return counting((PreparedStatement) result, PreparedStatement.class, (String) args[0]);
          }
          if (name.equals("createStatement")) {
            return counting((Statement) result, Statement.class, null);
          }
          return result;
        });
  }

  /**
   * Whether ending the transaction sends anything: pgjdbc sends no COMMIT or ROLLBACK when the
   * server's transaction state is idle (after a statement that carried its own COMMIT); other
   * drivers are asked whether auto-commit is off.
   */
  private static boolean inTransaction(Connection real) throws java.sql.SQLException {
    if (real.isWrapperFor(BaseConnection.class)) {
      return real.unwrap(BaseConnection.class).getTransactionState() != TransactionState.IDLE;
    }
    return !real.getAutoCommit();
  }

  private <T extends Statement> T counting(T real, Class<T> type, String prepared) {
    return Intercepted.wrap(
        type,
        real,
        (statement, method, args) -> {
          if (EXECUTIONS.contains(method.getName())) {
            count(prepared != null ? prepared : String.valueOf(args == null ? "" : args[0]));
          }
          return invoke(method, statement, args);
        });
  }
}
