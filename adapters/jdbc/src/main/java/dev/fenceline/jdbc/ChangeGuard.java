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

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Set;

/**
 * What a {@link JdbcChange} may do with its connection: everything inside the fenced transaction
 * except end it. Commit, rollback, auto-commit, close, abort and a change of isolation are refused,
 * because the change must commit together with the epoch check and the operation record; a rollback
 * to a savepoint stays allowed (it undoes part of the change, inside the transaction).
 */
final class ChangeGuard {

  private static final Set<String> FORBIDDEN_IN_CHANGE =
      Set.of("commit", "rollback", "setAutoCommit", "close", "abort", "setTransactionIsolation");

  private ChangeGuard() {}

  /**
   * The connection a change sees: the same transaction, but commit, rollback, auto-commit and close
   * are refused, because the change must commit together with the epoch check and the record.
   */
  static Connection guarded(Connection connection) {
    return (Connection)
        Proxy.newProxyInstance(
            Connection.class.getClassLoader(),
            new Class<?>[] {Connection.class},
            (proxy, method, args) -> {
              boolean savepointRollback =
                  method.getName().equals("rollback") && args != null && args.length == 1;
              if (FORBIDDEN_IN_CHANGE.contains(method.getName()) && !savepointRollback) {
                throw new SQLException(
                    "Cannot call Connection."
                        + method.getName()
                        + "() inside a fenced change: the change commits together with the"
                        + " epoch check and the operation record (return from the change instead)");
              }
              try {
                return method.invoke(connection, args);
              } catch (InvocationTargetException e) {
                throw e.getCause();
              }
            });
  }
}
